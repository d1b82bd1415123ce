/**
 * GPGPU-Sim's path from issue to writeback (shader.cc: `scheduler_unit::cycle`, `opndcoll_rfu_t`,
 * `pipelined_simd_unit`, `shader_core_ctx::writeback`), as one SM's reservation tables:
 *
 * 1. Issue puts the instruction in its unit's ID_OC pipeline register; under
 *    `gpgpu_sub_core_model` each scheduler owns one slot of it (`register_set::has_free(sub_core,
 *    id)`), else any of the `gpgpu_pipeline_widths` slots. A scheduler cannot issue to a unit
 *    whose slot is still full.
 * 2. The operand collector runs `gpgpu_reg_file_port_throughput` steps per cycle, in the LD/ST
 *    unit's cycle, after the units before it took their instructions. A step dispatches ready
 *    collector units, grants register reads, then allocates collector units: each input port takes
 *    one instruction per step into a free unit of its collector set (the generic set of
 *    `gpgpu_operand_collector_num_units_gen` units through `_num_in_ports_gen` ports, or the
 *    specialized sets), and the slot frees. A unit's operands are read in later steps, at most one
 *    read per register bank per step (`gpgpu_num_reg_banks`; a bank written back in that cycle
 *    reads nothing in its first step); the bank of register r of warp w is (r + w) mod the banks,
 *    within the scheduler's share of them under the sub-core model (`register_bank`). A unit whose
 *    operands are all read dispatches in a later step, through one of its set's
 *    `_num_out_ports` dispatch units, into the unit's OC_EX register (its pipeline width).
 * 3. A functional unit takes the oldest OC_EX instruction in the cycle after the dispatch when its
 *    dispatch register is free (it holds an instruction for its initiation interval) and no other
 *    result of that unit completes in the same cycle (`occupied`), and at most `EX_WB` width results
 *    complete per cycle (the result buses). The result reaches EX_WB `latency + 1` cycles after the
 *    unit took it and is written back in the next cycle, whose issue stage may issue a dependent
 *    instruction: `latency + 5` cycles after the producer issued when nothing conflicts.
 *
 * The tables are filled in issue order, each instruction taking the earliest free step or cycle
 * for each resource after its previous stage: the same constraints as GPGPU-Sim's cycle-by-cycle
 * arbitration (oldest first per register set, FIFO per bank), resolved when the instruction
 * issues. Memory instructions take the same path to the LD/ST unit (their accesses leave for the
 * L1D from the cycle it takes them); the RT unit's instruction is accepted at issue.
 *
 * The per-step tables (collector allocations and dispatches, register bank reads) share one
 * record per collector step, and the per-cycle ones (results on the EX_WB buses, each unit's
 * completions) one record per cycle (step-records.ts): a reservation reads a few cache lines,
 * and a run sweeps through about a quarter of the memory one ring per table took.
 *
 * Invariants: reservations lie at most RING steps (or cycles) after the cycle being issued (an
 * instruction whose path would reach further is held at issue by its full ID_OC slot); records
 * hold the step or cycle they reserve, so stale ones never match. Steps and cycles are 32-bit
 * integers (Int32Array tables, no conversion of a double to index a ring): `reserve` refuses a
 * cycle whose steps could pass 2^31.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import { IssueUnit, ISSUE_UNITS } from '../ptx-op.js';
import { StepRecords } from './step-records.js';


const RING = 4096;

interface CollectorSet {
  /** Step at which each collector unit frees (its instruction dispatched). */
  free: Int32Array;
  inPorts: number;
  outPorts: number;
  /** The word of a step record (IssuePipeline.steps) counting the set's allocations in that step; the next word counts its dispatches. */
  field: number;
}

export class IssuePipeline {
  private readonly p: number;
  private readonly subCore: boolean;
  private readonly schedulers: number;
  private readonly banks: number;
  private readonly banksPerSched: number;
  /** The register banks a scheduler's reads pick from (banksPerSched under the sub-core model, else all), less one when a power of two (then a mask), else -1. */
  private readonly bankMask: number;
  /** The last cycle whose reservations fit the tables' 32-bit steps (reserve refuses later ones). */
  private readonly lastCycle: number;
  /** Per unit and ID_OC slot: the cycle the slot frees (its instruction moved into a collector unit). */
  private readonly idoc: Int32Array[];
  /** Per unit and OC_EX slot: the cycle the slot frees (a functional unit took its instruction). */
  private readonly ocex: Int32Array[];
  /** Per unit class, per unit: the cycle its dispatch register frees. */
  private readonly fuFree: Int32Array[];
  /** Collector sets serving each unit class, specialized first. */
  private readonly setsFor: CollectorSet[][];
  /**
   * Per collector step: per set the allocations and dispatches reserved (CollectorSet.field), then
   * the register banks read in it, a bitmask from word `bankField` on (32 banks a word).
   */
  private readonly steps: StepRecords;
  private readonly bankField: number;
  /**
   * Per cycle: the results completing in it (word 1, against the EX_WB width), then per unit class
   * the units whose result completes in it, a bitmask from word `fuField[u]` on (32 units a word).
   */
  private readonly cycles: StepRecords;
  private readonly fuField: Int32Array;
  private readonly wbWidth: number;
  /** Cycles from issue to writeback of an instruction of latency 0 that meets no conflict. */
  readonly depth: number;

  /** Set by `reserve`: the cycle the functional unit (or LD/ST unit) takes the instruction. */
  execAt = 0;
  /** Set by `reserve`: the cycle its result is written back (a dependent instruction may issue then). */
  writebackAt = 0;

  constructor(cfg: GpuConfig, measure = true) {
    const is = cfg.issue;
    this.p = is.portThroughput;
    this.subCore = is.subCore;
    this.schedulers = cfg.schedulersPerSm;
    this.banks = is.regBanks;
    this.banksPerSched = is.subCore ? Math.max(1, Math.floor(is.regBanks / cfg.schedulersPerSm)) : is.regBanks;
    const pick = is.subCore ? this.banksPerSched : this.banks;
    this.bankMask = (pick & (pick - 1)) === 0 ? pick - 1 : -1;
    // Steps (cycles x port throughput) up to a ring past the cycle stay below 2^31.
    this.lastCycle = Math.floor((2 ** 31 - 1) / this.p) - 2 * RING;
    const units = [cfg.units.sp, cfg.units.int, cfg.units.sfu, cfg.units.dp, cfg.units.mem];
    this.idoc = is.idOcWidth.map((w) => new Int32Array(is.subCore ? cfg.schedulersPerSm : Math.max(1, w)));
    this.ocex = is.ocExWidth.map((w) => new Int32Array(Math.max(1, w)));
    this.fuFree = units.map((k) => new Int32Array(Math.max(1, k)));
    this.fuField = new Int32Array(ISSUE_UNITS);
    let words = 1;
    for (let u = 0; u < ISSUE_UNITS; u++) {
      this.fuField[u] = 1 + words;
      words += Math.ceil(Math.max(1, units[u]!) / 32);
    }
    this.cycles = new StepRecords(RING, words);
    const sets = is.collectorSets.map((s, j) => ({
      set: { free: new Int32Array(s.units), inPorts: s.inPorts, outPorts: s.outPorts, field: 1 + 2 * j } satisfies CollectorSet,
      serves: s.serves,
    }));
    this.bankField = 1 + 2 * sets.length;
    this.steps = new StepRecords(RING, 2 * sets.length + Math.ceil(this.banks / 32));
    this.setsFor = Array.from({ length: ISSUE_UNITS }, (_, u) => sets.filter((s) => s.set.free.length > 0 && s.serves.includes(u)).map((s) => s.set));
    for (let u = 0; u < ISSUE_UNITS; u++) {
      if (this.setsFor[u]!.length === 0 && units[u]! > 0) throw new Error(`issue stage: no operand collector set serves unit class ${u}`);
    }
    this.wbWidth = Math.max(1, is.exWbWidth);
    this.depth = measure ? IssuePipeline.measureDepth(cfg) : 0;
  }

  /** The cycle scheduler `sched`'s ID_OC slot of unit class `u` frees (issue to it waits until then). */
  slotFreeAt(u: IssueUnit, sched: number): number {
    const slots = this.idoc[u]!;
    if (this.subCore) return slots[sched % slots.length]!;
    let t = Infinity;
    for (let i = 0; i < slots.length; i++) if (slots[i]! < t) t = slots[i]!;
    return t;
  }

  /**
   * Reserves the path of an instruction scheduler `sched` issues at cycle `now` for warp `warp` to
   * unit class `u`, reading registers regs[from..to) and writing `dst` (-1: none), with the unit's
   * `latency` and initiation interval `ii`; sets `execAt` and `writebackAt`. The caller checked
   * `slotFreeAt(u, sched) <= now`.
   */
  reserve(at: number, u: IssueUnit, sched: number, warp: number, regs: Int32Array, from: number, to: number, dst: number, latency: number, ii: number): void {
    if (at > this.lastCycle) throw new Error(`issue stage: cycle ${at} is past the last its 32-bit tables hold (${this.lastCycle})`);
    const now = at | 0;
    const p = this.p;
    // 1. ID_OC slot, then a collector unit from the next cycle's first step.
    const slots = this.idoc[u]!;
    let slot = 0;
    if (this.subCore) slot = sched % slots.length;
    else for (let i = 1; i < slots.length; i++) if (slots[i]! < slots[slot]!) slot = i;
    const sets = this.setsFor[u]!;
    const steps = this.steps;
    const w = steps.words;
    let alloc = (now + 1) * p;
    let set = sets[0]!;
    let cu = 0;
    for (let guard = 0; ; guard++) {
      let best = -1;
      for (let j = 0; j < sets.length; j++) {
        const s = sets[j]!;
        const free = s.free;
        for (let k = 0; k < free.length; k++) {
          const f = free[k]!;
          const t = f > alloc ? f : alloc;
          // Strictly earlier only: on a tie the set visited first (specialized before generic) keeps it.
          if (best < 0 || t < best) {
            best = t;
            set = s;
            cu = k;
          }
        }
      }
      alloc = best;
      const r = steps.find(alloc);
      if (r < 0 || w[r + set.field]! < set.inPorts || guard >= RING) break;
      alloc++;
    }
    w[steps.claim(alloc) + set.field]!++;
    slots[slot] = (alloc / p) | 0;
    // 2. Register reads, one per bank per step, from the step after the allocation.
    let lastRead = alloc;
    const bankBase = this.subCore ? (sched % this.schedulers) * this.banksPerSched : 0;
    for (let k = from; k < to; k++) {
      const b = this.bankOf(regs[k]!, warp, bankBase);
      const word = this.bankField + (b >> 5);
      const bit = 1 << (b & 31);
      let s = alloc + 1;
      for (let r = steps.find(s); r >= 0 && (w[r + word]! & bit) !== 0 && s - alloc < RING; r = steps.find(s)) s++;
      w[steps.claim(s) + word]! |= bit;
      if (s > lastRead) lastRead = s;
    }
    // 3. Dispatch into OC_EX in a later step, with a dispatch port and an OC_EX slot free.
    const ex = this.ocex[u]!;
    let disp = lastRead + 1;
    let exSlot = 0;
    for (let guard = 0; ; guard++) {
      const cyc = (disp / p) | 0;
      exSlot = 0;
      for (let i = 1; i < ex.length; i++) if (ex[i]! < ex[exSlot]!) exSlot = i;
      if (ex[exSlot]! > cyc) {
        disp = Math.max(disp + 1, ex[exSlot]! * p);
        continue;
      }
      const r = steps.find(disp);
      if (r < 0 || w[r + set.field + 1]! < set.outPorts || guard >= RING) break;
      disp++;
    }
    w[steps.claim(disp) + set.field + 1]!++;
    set.free[cu] = disp;
    // 4. A functional unit takes it in a later cycle: dispatch register free, its completion cycle
    // free on that unit and on the result buses.
    const fus = this.fuFree[u]!;
    const cycles = this.cycles;
    const cw = cycles.words;
    const fuField = this.fuField[u]!;
    let e = ((disp / p) | 0) + 1;
    let unit = 0;
    for (let guard = 0; guard < RING; guard++, e++) {
      unit = -1;
      const r = cycles.find(e + latency + 1);
      if (r >= 0 && cw[r + 1]! >= this.wbWidth) continue;
      // Of the units free by cycle e, the one free latest (the tightest fit: units free earlier stay for the further instructions of others).
      for (let k = 0; k < fus.length; k++) {
        if (fus[k]! <= e && (r < 0 || (cw[r + fuField + (k >> 5)]! & (1 << (k & 31))) === 0) && (unit < 0 || fus[k]! > fus[unit]!)) unit = k;
      }
      if (unit >= 0) break;
    }
    if (unit < 0) unit = 0;
    fus[unit] = e + ii;
    const complete = e + latency + 1;
    const rc = cycles.claim(complete);
    cw[rc + fuField + (unit >> 5)]! |= 1 << (unit & 31);
    cw[rc + 1]!++;
    ex[exSlot] = e;
    // 5. Writeback in the next cycle: the destination bank reads nothing in that cycle's first step.
    const wb = complete + 1;
    if (dst >= 0) {
      const b = this.bankOf(dst, warp, bankBase);
      w[steps.claim(wb * p) + this.bankField + (b >> 5)]! |= 1 << (b & 31);
    }
    this.execAt = e;
    this.writebackAt = wb;
  }

  /**
   * The further PTX instructions of an issued IR instruction on unit class `u` (`n` of them, each
   * reaching a unit one cycle after the one before, the first at cycle `from`): each holds a unit
   * of the class for initiation interval `ii`, as GPGPU-Sim's units take each PTX instruction.
   * Units are reserved in issue order for cycles ahead, so each takes the unit free latest by its
   * cycle (the tightest fit; `reserve` chooses so too): taking the one free earliest would leave
   * it idle before that cycle while an instruction reserved later could have used it, a gap that
   * GPGPU-Sim's cycle-by-cycle units never leave (the vec4 issue microbenchmark lost a fifth of the
   * SP units' rate to such gaps). Their operand collection and result buses are not modelled
   * (they read the registers the first instruction read). Returns the cycle the last one starts.
   */
  occupy(u: IssueUnit, from: number, n: number, ii: number): number {
    const fus = this.fuFree[u]!;
    let t = from;
    for (let j = 0; j < n; j++, t++) {
      // The unit free latest by cycle t (the tightest fit), else the one free first after it: one scan for both.
      let fit = -1;
      let first = 0;
      for (let k = 0; k < fus.length; k++) {
        const f = fus[k]!;
        if (f <= t && (fit < 0 || f > fus[fit]!)) fit = k;
        if (f < fus[first]!) first = k;
      }
      const b = fit >= 0 ? fit : first;
      const start = fus[b]! > t ? fus[b]! : t;
      fus[b] = start + ii;
      t = start;
    }
    return t - 1;
  }

  /** The bank of register `reg` of warp `warp` among the scheduler's banks from `bankBase` on (register_bank). */
  private bankOf(reg: number, warp: number, bankBase: number): number {
    const b = reg + warp;
    return (this.bankMask >= 0 ? b & this.bankMask : b % (this.subCore ? this.banksPerSched : this.banks)) + bankBase;
  }

  /** Issue-to-writeback cycles of a latency-0, one-register instruction alone in a fresh pipeline: the dependent-issue overhead. */
  private static measureDepth(cfg: GpuConfig): number {
    const fresh = new IssuePipeline(cfg, false);
    const u = fresh.setsFor.findIndex((sets, k) => sets.length > 0 && fresh.fuFree[k]!.length > 0) as IssueUnit;
    fresh.reserve(0, u, 0, 0, Int32Array.of(0), 0, 1, 0, 0, 1);
    return fresh.writebackAt;
  }
}

