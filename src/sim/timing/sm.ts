/**
 * One SM (SIMT core): warp slots, warp schedulers (GTO default, LRR), GPGPU-Sim's issue stage
 * (operand-collector.ts: ID_OC registers, collector units, register banks, the SP / INT / SFU /
 * DP / LD-ST units, writeback), a per-register scoreboard, an instruction cache, the load/store
 * unit feeding the L1D (load-store-unit.ts), and the RT unit.
 *
 * Execution-driven: a warp's next step (basic block) is executed functionally (`warp.step()`)
 * when the warp reaches it in simulated time: its previous step's instructions have all issued
 * and that step's traversal is back. Its instructions then issue in order, each once the values
 * it reads are written back (the in-step scoreboard for this step's producers, the cross-step
 * table for earlier steps' results and register-promoted variables; a load's value when that
 * load's responses are back) and its unit class's ID_OC slot is free. An instruction stands for
 * the PTX instructions Vulkan-Sim would run in its place (ptx-ops-of.ts): they issue on
 * consecutive cycles from the warp and its scheduler, at most one per scheduler per cycle, and an
 * instruction with none (a promoted variable's load or store, a composite move) issues nothing.
 *
 * Independent thread scheduling (Vulkan-Sim IV-B, warps with `independentSplits`): a warp's
 * splits each have their own step in flight, in a per-split context with its own scoreboard
 * (pending loads, RT-unit residency, latency), so one split issues while another waits for
 * memory or sits in the RT unit. A split may start a step only when none of its lanes belongs to
 * a step still in flight (a split created or merged by that step waits for it). The scheduler
 * still picks warps; within the picked warp the first context that can issue does, one
 * instruction per warp per cycle as before.
 *
 * Invariants:
 * - A slot holds at most one warp. Per-step state lives in typed arrays indexed by context
 *   c = k * n + slot (k < warpSize): context k = 0 is the slot itself, the only one a warp on
 *   the SIMT stack uses, so that path is unchanged. `pendingMem[c]` counts the context's
 *   outstanding load/atomic responses; LD/ST entries and load waiters are tagged with the
 *   context's load slot (context * LOAD_SLOTS + k, one per load instruction in flight), RT-unit
 *   entries with the context.
 * - Memory accesses of instruction i are queued when instruction i issues and leave for the L1D
 *   from the cycle the LD/ST unit takes it (never earlier).
 * - A warp finishes, and an ITS split or a replayed trace's step (no register information)
 *   starts, only once every result and load of its context is back.
 * - No per-cycle allocation.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import { OpClass, type WarpStep } from '../warp-step.js';
import { DepField, EXTRA_CLASSES, extraOpsOf, type StepDeps } from '../step-deps-layout.js';
import type { AddressMap } from './address-map.js';
import { Cache } from './cache.js';
import { InstructionScoreboard } from './scoreboard.js';
import { RegisterTable } from './register-table.js';
import { IssuePipeline } from './operand-collector.js';
import { IssueUnit, PtxOp, ptxUnitOf, PTX_OP_COUNT } from '../ptx-op.js';
import type { Network } from './network.js';
import { L1DataCache } from './l1-cache.js';
import { LOAD_SLOTS, LoadStoreUnit } from './load-store-unit.js';
import { type MemClient, type MemRequest, ReqKind, ReqSource, type Waiter } from './mem-request.js';
import { popcount } from './bit-count.js';
import { INTERSECTION_TABLE_BYTES } from './rt/intersection-table.js';
import type { RtUnit } from './rt/rt-unit.js';
import { rtUnitFor } from './rt/rt-unit-for.js';
import { RT_HIT_STORE_BASE, RT_TABLE_BASE } from './rt-thread-state.js';
import { DeviceHeap } from './device-heap.js';
import { IssueWake } from './issue-wake.js';
import type { SmTimelineHooks } from './timeline-hooks.js';
import { SmStats } from './sm-stats.js';
import { type CtaSlots, CtaSuspension, type RayVirtualization, type SlotState, type SuspendedCta } from './ray-virtualization.js';
import type { TreeletMap } from '../rt/treelets.js';

/** Paper 001's mechanisms, when the config turns them on (ray-virtualization.ts, treelets/treelet-policy.ts). */
export interface SmMechanisms {
  /** The BVH's treelets (needed by rt_treelet_queues). */
  treelets?: TreeletMap;
  /** The GPU-wide table of terminated CTAs (rt_ray_virtualization). */
  virt?: RayVirtualization;
  /** The GPU's device heap, which the RT units' hit stores allocate from (an SM built alone gets its own). */
  hitStoreHeap?: DeviceHeap;
  /** Per private block, the block of Vulkan-Sim's per-thread allocation (gpgpu_rt_thread_state per_thread; rt-thread-state.ts). */
  rtStateBlocks?: Int32Array;
}

/** What the timing model needs from the functional core. */
export interface TimingWarp {
  readonly done: boolean;
  /** Executes the next step; under ITS, of split `split` (an id from runnableSplits()). */
  step(split?: number): WarpStep;
  /** True when the warp's splits are scheduled independently (ITS); then runnableSplits is used. */
  readonly independentSplits?: boolean;
  /** Splits that may run next, in the warp's preferred order, with their lanes. */
  runnableSplits?(): readonly { id: number; mask: number }[];
  /** Whether split `a` sits at split `b`'s reconvergence point (it then waits while b waits for memory). */
  waitsAtJoin?(a: number, b: number): boolean;
}

const NO_REGS = new Int32Array(0);
const NO_CLASSES = new Uint8Array(0);
const INST_BYTES = 16;

export class Sm implements MemClient, CtaSlots {
  readonly l1: L1DataCache;
  readonly rtCache: L1DataCache;
  readonly rt: RtUnit;
  readonly icache: Cache;
  readonly stats = new SmStats();
  /** The warp-timeline recorder's hooks, when a timeline is recorded (attachTimeline); null costs one check per call site. */
  private timeline: SmTimelineHooks | null = null;
  private readonly n: number;
  private readonly warps: (TimingWarp | null)[];
  private readonly steps: (WarpStep | null)[];
  /**
   * Per context, what the issue path reads of its step, so it need not load the step object (a
   * fresh allocation, rarely in the CPU caches): the instruction count (0 without a step), the
   * per-piece tables (shared by every warp running the piece) and the active lanes. Set with the
   * step (holdStep).
   */
  private readonly stepInsts: Int32Array;
  private readonly stepDeps: (StepDeps | undefined)[];
  private readonly stepClasses: Uint8Array[];
  private readonly stepLanes: Int32Array;
  private readonly instIdx: Int32Array;
  private readonly nextIssueAt: Float64Array;
  /** Per context: which in-step results each instruction waits for. */
  private readonly scoreboard: InstructionScoreboard;
  private readonly readyAt: Float64Array;
  private readonly pendingMem: Int32Array;
  private readonly inRt: Uint8Array;
  private readonly rtSent: Uint8Array;
  private readonly lastStep: Uint8Array;
  /** Per slot: 1 when the warp schedules its splits independently (ITS). */
  private readonly itsSlot: Uint8Array;
  /** Per slot: highest context index k in use by the resident ITS warp. */
  private readonly ctxHigh: Int32Array;
  /** Per slot: the context that issued last (issueMore continues with it). */
  private readonly lastCtx: Int32Array;
  /** Contexts per slot (warp size: a split has at least one lane). */
  private readonly ctxPerSlot: number;
  private readonly ctaOf: Int32Array;
  private readonly sched: number[][];
  private readonly lastIssued: Int32Array;
  /** Per scheduler: the cycle it finishes issuing the PTX instructions of its last IR instruction. */
  private readonly schedBusyUntil: Float64Array;
  /** Register writebacks across steps, per warp (register-table.ts). */
  private readonly regs: RegisterTable;
  /** The issue stage: ID_OC registers, operand collector, register banks, units, writeback (operand-collector.ts). */
  private readonly pipe: IssuePipeline;
  /** The unit class each PTX op issues to on this config (INT ops on the SP units without INT units, DP on the SFU units without DP units). */
  private readonly unitOfPtx: Uint8Array;
  /** Cycles from a mov's issue to its writeback (a phi mov's value: translate_phi). */
  private readonly movDone: number;
  /** The unit and initiation interval of each class of DepField.Extra (SP, INT, SFU, DP) on this GPU. */
  private readonly unitOfClass: Uint8Array;
  private readonly iiOfClass: Int32Array;
  /** The unit class Control / Register instructions (branches, register moves) issue to. */
  private readonly intUnit: IssueUnit;
  /** Under gpgpu_dual_issue_diff_exec_units: the unit class a warp's further instruction in this cycle must not use (-1: any). */
  private forbidUnit = -1;
  /** The unit class of the instruction tryIssueCtx issued last. */
  private lastUnit = -1;
  /** The LD/ST unit: load slots, request expansion, queue and L1D pipelines (load-store-unit.ts). */
  private readonly lsu: LoadStoreUnit;
  private readonly ctaLeft = new Map<number, number>();
  private readonly ctaSizes = new Map<number, number>();
  private resident = 0;
  private registersUsed = 0;
  private lastAccount = 0;
  /** When the issue stage scans, and which schedulers and GTO prefixes it may skip (issue-wake.ts). */
  private readonly wake: IssueWake;

  constructor(
    private readonly cfg: GpuConfig,
    readonly id: number,
    map: AddressMap,
    mech: SmMechanisms = {},
  ) {
    const n = (this.n = cfg.maxWarpsPerSm);
    const nc = n * (this.ctxPerSlot = Math.max(1, cfg.warpSize));
    this.warps = new Array<TimingWarp | null>(n).fill(null);
    this.steps = new Array<WarpStep | null>(nc).fill(null);
    this.stepInsts = new Int32Array(nc);
    this.stepDeps = new Array<StepDeps | undefined>(nc).fill(undefined);
    this.stepClasses = new Array<Uint8Array>(nc).fill(NO_CLASSES);
    this.stepLanes = new Int32Array(nc);
    this.instIdx = new Int32Array(nc);
    this.nextIssueAt = new Float64Array(nc);
    this.pipe = new IssuePipeline(cfg);
    this.movDone = cfg.ptxLatency[PtxOp.Other]! + this.pipe.depth;
    // Longest issue-to-result time of one instruction, but for double precision, which no ray tracing shader uses.
    const longest = Math.max(...cfg.opLatency, ...cfg.ptxLatency.filter((_, k) => k < PtxOp.DpAdd || k > PtxOp.DpDiv)) + this.pipe.depth;
    this.scoreboard = new InstructionScoreboard(nc, longest);
    this.intUnit = cfg.units.int > 0 ? IssueUnit.Int : IssueUnit.Sp;
    this.unitOfPtx = new Uint8Array(PTX_OP_COUNT);
    for (let k = 0; k < PTX_OP_COUNT; k++) {
      const u = ptxUnitOf(k as PtxOp);
      this.unitOfPtx[k] = u === IssueUnit.Int ? this.intUnit : u === IssueUnit.Dp && cfg.units.dp === 0 ? IssueUnit.Sfu : u;
    }
    // A further instruction of a class is taken to be its commonest op: fp add / mul, mov, a transcendental, dp add.
    const classOp = [PtxOp.FpAdd, PtxOp.Other, PtxOp.Sfu, PtxOp.DpAdd];
    this.unitOfClass = Uint8Array.from(classOp, (op) => this.unitOfPtx[op]!);
    this.iiOfClass = Int32Array.from(classOp, (op) => cfg.ptxInitiation[op]!);
    this.readyAt = new Float64Array(nc);
    this.pendingMem = new Int32Array(nc);
    this.inRt = new Uint8Array(nc);
    this.rtSent = new Uint8Array(nc);
    this.lastStep = new Uint8Array(n);
    this.itsSlot = new Uint8Array(n);
    this.ctxHigh = new Int32Array(n);
    this.lastCtx = new Int32Array(n);
    this.ctaOf = new Int32Array(n).fill(-1);
    this.sched = Array.from({ length: cfg.schedulersPerSm }, () => []);
    this.lastIssued = new Int32Array(cfg.schedulersPerSm).fill(-1);
    this.schedBusyUntil = new Float64Array(cfg.schedulersPerSm);
    this.regs = new RegisterTable(n);
    this.l1 = new L1DataCache(cfg, id, map);
    this.rtCache = cfg.rt.useL1 ? this.l1 : new L1DataCache(cfg, id, map, cfg.rt.rtCache, cfg.rt.disableRtCache);
    const tables = RT_TABLE_BASE + id * nc * INTERSECTION_TABLE_BYTES;
    this.virt = cfg.treelet.virtualization && mech.virt ? new CtaSuspension(mech.virt, this, id, nc) : null;
    this.rt = rtUnitFor(cfg, {
      cache: this.rtCache, l1: this.l1, onTraceDone: (token) => this.rtDone(token),
      tableBase: (token) => tables + ((this.virt === null ? token : Math.floor(token / 4096)) % nc) * INTERSECTION_TABLE_BYTES,
      hitStoreHeap: mech.hitStoreHeap ?? new DeviceHeap(RT_HIT_STORE_BASE),
    }, id, mech.treelets);
    this.wake = new IssueWake(cfg.schedulersPerSm, this.rt);
    this.icache = new Cache(cfg.il1);
    this.lsu = new LoadStoreUnit(cfg, this.l1, this, nc, this.stats, mech.rtStateBlocks);
  }

  get residentWarps(): number {
    return this.resident;
  }

  attachTimeline(hooks: SmTimelineHooks | null): void {
    this.timeline = hooks;
    this.rt.timeline = hooks;
  }

  /** Ray virtualization has a CTA to check for suspension at the next tick, which no event time covers. */
  get suspensionPending(): boolean {
    return this.virt !== null && this.virt.pending;
  }

  get residentCtas(): number {
    return this.ctaLeft.size;
  }

  canAccept(ctaWarps: number): boolean {
    if (this.n - this.resident < ctaWarps || this.ctaLeft.size >= this.cfg.maxCtasPerSm) return false;
    return this.registersUsed + this.ctaRegisters(ctaWarps) <= this.cfg.registersPerSm;
  }

  private ctaRegisters(ctaWarps: number): number {
    return ctaWarps * this.cfg.warpSize * this.cfg.registersPerThread;
  }

  assignCta(cta: number, warps: readonly TimingWarp[], now: number): void {
    this.account(now);
    this.wake.wakeAll();
    this.ctaLeft.set(cta, warps.length);
    this.ctaSizes.set(cta, warps.length);
    this.registersUsed += this.ctaRegisters(warps.length);
    let slot = 0;
    for (const w of warps) {
      while (this.warps[slot] !== null) slot++;
      if (this.timeline !== null) this.timeline.launch(slot, cta, now);
      this.warps[slot] = w;
      this.lastStep[slot] = 0;
      this.itsSlot[slot] = w.independentSplits === true ? 1 : 0;
      this.ctxHigh[slot] = 0;
      this.lastCtx[slot] = slot;
      for (let k = 0; k < (this.itsSlot[slot] === 1 ? this.ctxPerSlot : 1); k++) {
        const c = k * this.n + slot;
        this.clearRegisters(c);
        this.holdStep(c, null);
        this.scoreboard.startStep(c);
        this.instIdx[c] = 0;
        this.pendingMem[c] = 0;
        this.inRt[c] = 0;
        this.rtSent[c] = 0;
        this.readyAt[c] = now;
        this.nextIssueAt[c] = now;
      }
      this.ctaOf[slot] = cta;
      this.sched[slot % this.sched.length]!.push(slot);
      this.resident++;
    }
  }

  /** Load / atomic response for load slot `w.tag` (context * LOAD_SLOTS + slot), from the L1 hit path or a reply. */
  onResponse(w: Waiter, now: number): void {
    const c = (w.tag / LOAD_SLOTS) | 0;
    --this.pendingMem[c];
    if (this.lsu.responseArrived(w.tag)) {
      // The load's data is written back in the next cycle: its readers in this step and later ones may issue then.
      const step = this.lsu.loadStep(w.tag);
      const i = this.lsu.loadInst(w.tag);
      this.lsu.release(w.tag);
      if (step !== null && step === this.steps[c]) this.scoreboard.settle(c, i, now + 1);
      // Its readers may be in any context of the warp (ITS splits share the register table).
      const slot = c % this.n;
      if (step !== null && step.deps !== undefined) this.regs.settle(slot, step.deps, i, now + 1);
      const high = this.itsSlot[slot] === 1 ? this.ctxHigh[slot]! : 0;
      for (let k = 0; k <= high; k++) {
        const r = k * this.n + slot;
        if (this.nextIssueAt[r] === Infinity) this.nextIssueAt[r] = now + 1;
      }
      // What it changes (the context's scoreboard, pending count and load slot, the warp's register table) is its scheduler's alone.
      this.wake.wakeScheduler(slot % this.sched.length);
    } else {
      // Not the load's last response: the context's pending count stays above zero and no
      // scoreboard entry changes, so only a reject without a wake time may be affected.
      this.wake.anyEvent();
    }
    if (this.timeline !== null) this.timeline.response(c, this.pendingMem[c]!, now);
    if (this.virt !== null) this.virt.mayChange();
  }

  /** A reply packet from the interconnect. */
  onReply(req: MemRequest, now: number): void {
    (req.source === ReqSource.Rt ? this.rtCache : this.l1).onReply(req, now);
  }

  cycle(now: number, reqNet: Network): boolean {
    this.account(now);
    this.rt.cycle(now);
    this.l1.cycle(now, reqNet);
    if (this.rtCache !== this.l1) this.rtCache.cycle(now, reqNet);
    // Room in the queue matters only to an instruction it refused, once there is enough of it.
    if (this.lsu.cycle(now) > 0) this.wake.queueProgress(this.lsu.queued);
    if (this.virt !== null) this.virt.suspendWaiting(now);
    if (!this.wake.beginScan(now)) return false;
    let issued = false;
    for (let s = 0; s < this.sched.length; s++) {
      // A scheduler whose warps were all rejected, with a wake time and no event since, is not rescanned before then.
      if (this.wake.asleep(s, now)) continue;
      this.wake.beginScheduler();
      const any = this.issueFrom(s, now);
      this.wake.endScheduler(s, any);
      issued ||= any;
    }
    if (issued) this.stats.issueCycles++;
    // A warp that finished mid-scan shifted the slot lists, so not every warp was tried.
    else if (!this.wake.sleep(now)) this.wake.sleepUntil(this.issueWake(now));
    return issued;
  }

  private issueFrom(s: number, now: number): boolean {
    const slots = this.sched[s]!;
    if (slots.length === 0) return false;
    const prefix = this.wake.prefixHeld(s);
    // Still issuing the further PTX instructions of its last instruction.
    if (this.schedBusyUntil[s]! > now) return this.wake.notReadyUntil(this.schedBusyUntil[s]!);
    const last = this.lastIssued[s]!;
    if (this.cfg.scheduler === 'gto') {
      if (last >= 0 && this.warps[last] !== null && this.tryIssue(last, now)) return this.issueMore(last, now);
      // The warps the last scan rejected before the one it issued from: not before their wake time (or RT room).
      const from = this.wake.prefixStart(s, now, prefix);
      for (let i = from; i < slots.length; i++) {
        const slot = slots[i]!;
        if (slot !== last && this.tryIssue(slot, now)) {
          this.lastIssued[s] = slot;
          this.wake.keepPrefix(s, i);
          return this.issueMore(slot, now);
        }
      }
      this.wake.dropPrefix(s);
      return false;
    }
    const start = Math.max(0, slots.indexOf(last) + 1);
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[(start + k) % slots.length]!;
      if (this.tryIssue(slot, now)) {
        this.lastIssued[s] = slot;
        return this.issueMore(slot, now);
      }
    }
    return false;
  }

  /** Up to gpgpu_max_insn_issue_per_warp instructions of the chosen warp issue in one cycle. */
  private issueMore(slot: number, now: number): true {
    const c = this.itsSlot[slot] === 1 ? this.lastCtx[slot]! : slot;
    for (let k = 1; k < this.cfg.maxIssuePerWarp; k++) {
      this.nextIssueAt[c] = now;
      // gpgpu_dual_issue_diff_exec_units: the next instruction must use another unit class.
      this.forbidUnit = this.cfg.issue.dualIssueDiffUnits ? this.lastUnit : -1;
      const issued = this.tryIssueCtx(slot, c, now);
      this.forbidUnit = -1;
      if (!issued) {
        this.nextIssueAt[c] = Math.max(this.nextIssueAt[c]!, now + 1);
        break;
      }
    }
    return true;
  }

  /** One instruction of the warp in `slot`: its only context, or under ITS the first context that can issue. */
  private tryIssue(slot: number, now: number): boolean {
    if (this.itsSlot[slot] === 0) return this.tryIssueCtx(slot, slot, now);
    this.wake.itsTried();
    // One context past the highest in use, so a split without a step in flight can start one.
    const hi = Math.min(this.ctxHigh[slot]! + 1, this.ctxPerSlot - 1);
    for (let k = 0; k <= hi && this.warps[slot] !== null; k++) {
      const c = k * this.n + slot;
      if (this.tryIssueCtx(slot, c, now)) {
        this.lastCtx[slot] = c;
        return true;
      }
    }
    return false;
  }

  /** Fetches the context's next step when its scoreboard allows; false if it cannot have one now. */
  private ensureStep(slot: number, c: number, now: number): boolean {
    const step = this.steps[c];
    if (step !== null && (this.instIdx[c]! < step.insts || (step.rt !== undefined && this.rtSent[c] === 0))) return true;
    // The next step starts once the traversal it may read is back; register results and loads
    // still in flight are waited for per register (the scoreboard, the register table). A warp finishes,
    // an ITS split starts, and a replayed trace's step (no register information) starts, once every
    // result and load is back.
    if (this.inRt[c] === 1) return false;
    const settled = this.pendingMem[c] === 0 && this.readyAt[c]! <= now;
    const warp = this.warps[slot]!;
    if (this.itsSlot[slot] === 1) return this.fetchSplitStep(slot, c, warp, now);
    if (!settled && step !== null && step.deps === undefined) return false;
    if (this.lastStep[slot] === 1 || (step === null && warp.done)) {
      if (!settled) return false;
      this.finishWarp(slot, now);
      return false;
    }
    const next = warp.step();
    this.startStep(slot, next, now);
    this.lastStep[slot] = next.done ? 1 : 0;
    return next.insts > 0 || next.rt !== undefined;
  }

  /** Context c starts `next` from its first instruction, once its instruction fetch is done. */
  private startStep(c: number, next: WarpStep, now: number): void {
    this.holdStep(c, next, 0);
    this.scoreboard.startStep(c);
    this.instIdx[c] = 0;
    this.rtSent[c] = 0;
    // After a branch away from the fall-through, the flushed instruction buffer is refilled in the
    // cycle after the branch issued, and the first instruction issues the cycle after that.
    const refetched = next.redirect === true ? this.nextIssueAt[c]! + 1 : 0;
    this.nextIssueAt[c] = Math.max(now, refetched) + this.fetchDelay(next);
  }

  /** Context c holds `step` (null: none) from its memory access k on: what the issue path reads of it. */
  private holdStep(c: number, step: WarpStep | null, k = 0): void {
    this.steps[c] = step;
    this.stepInsts[c] = step === null ? 0 : step.insts;
    this.stepDeps[c] = step === null ? undefined : step.deps;
    this.stepClasses[c] = step === null ? NO_CLASSES : step.opClasses;
    this.stepLanes[c] = step === null ? 0 : popcount(step.activeMask);
    this.lsu.hold(c, step, k);
  }

  /**
   * ITS: context c is idle; starts a step of the first split (in the warp's order) none of whose
   * lanes is in a step still in flight, or finishes the warp once it is done and every context
   * is idle.
   */
  private fetchSplitStep(slot: number, c: number, warp: TimingWarp, now: number): boolean {
    if (warp.done) {
      if (this.allSettled(slot, now)) this.finishWarp(slot, now);
      return false;
    }
    const busy = this.busyLanes(slot);
    let id = -1;
    for (const s of warp.runnableSplits!()) {
      if ((s.mask & busy) === 0 && !this.waitsForMemorySplit(slot, warp, s.id, now)) {
        id = s.id;
        break;
      }
    }
    if (id < 0) return false;
    const next = warp.step(id);
    this.startStep(c, next, now);
    const k = (c - slot) / this.n;
    if (k > this.ctxHigh[slot]!) this.ctxHigh[slot] = k;
    return next.insts > 0 || next.rt !== undefined;
  }

  /**
   * ITS: a split that reached the reconvergence point of a split waiting for memory or latency
   * waits for it there (short stalls are not worth a permanent split); a split in the RT unit is
   * not waited for, so splits around a divergent traceRay drift apart and leave separately
   * (Vulkan-Sim IV-B, V-Vision Fig. 10-11).
   */
  private waitsForMemorySplit(slot: number, warp: TimingWarp, split: number, now: number): boolean {
    if (!warp.waitsAtJoin) return false;
    for (let k = 0; k <= this.ctxHigh[slot]!; k++) {
      const c = k * this.n + slot;
      const st = this.steps[c];
      if (st === null || st.rt !== undefined || st.split === undefined || this.ctxSettled(c, now)) continue;
      if (warp.waitsAtJoin(split, st.split)) return true;
    }
    return false;
  }

  /** Whether context c has no step, or its step issued completely and its traversal is back (its lanes may go on: the register tables hold what is still in flight). */
  private ctxIdle(c: number): boolean {
    const s = this.steps[c];
    if (s === null) return true;
    return this.instIdx[c]! >= s.insts && (s.rt === undefined || this.rtSent[c] === 1) && this.inRt[c] === 0;
  }

  /** Whether context c is idle and every result and load of it is back. */
  private ctxSettled(c: number, now: number): boolean {
    return this.ctxIdle(c) && this.pendingMem[c] === 0 && this.readyAt[c]! <= now;
  }

  /** ITS: every context of the warp in `slot` settled (it may finish). */
  private allSettled(slot: number, now: number): boolean {
    for (let k = 0; k <= this.ctxHigh[slot]!; k++) if (!this.ctxSettled(k * this.n + slot, now)) return false;
    return true;
  }

  /** ITS: lanes of the warp in `slot` whose step is still issuing (or in the RT unit) in some context. */
  private busyLanes(slot: number): number {
    let m = 0;
    for (let k = 0; k <= this.ctxHigh[slot]!; k++) {
      const c = k * this.n + slot;
      if (!this.ctxIdle(c)) m |= this.steps[c]!.activeMask;
    }
    return m;
  }

  /** Instruction-cache lookup for the block; each missing line costs the miss latency. */
  private fetchDelay(step: WarpStep): number {
    if (this.cfg.perfectInstCache) return 0;
    const base = (step.fn * 4096 + step.block) * 4096;
    const lines = Math.max(1, Math.ceil((step.insts * INST_BYTES) / this.icache.lineBytes));
    let misses = 0;
    for (let i = 0; i < lines; i++) {
      const line = this.icache.lineIdOf(base + i * this.icache.lineBytes);
      this.stats.icacheAccesses++;
      if (!this.icache.probe(line)) {
        misses++;
        this.icache.fill(line, false);
      }
    }
    this.stats.icacheMisses += misses;
    return misses * this.cfg.icacheMissLatency;
  }

  /** One instruction of context c (the slot itself unless ITS) of the warp in `slot`. */
  private tryIssueCtx(slot: number, c: number, now: number): boolean {
    // Fast rejects first, on typed arrays alone: this runs for every candidate warp of every scheduler each cycle.
    // A reject notes when the context could issue next (scanWake); none for one waiting on an event.
    if (this.instIdx[c]! < this.stepInsts[c]!) {
      if (this.nextIssueAt[c]! > now) return this.wake.notReadyUntil(this.nextIssueAt[c]!);
    } else {
      if (this.inRt[c] === 1) return false;
      // No step to start yet: its latency is still running (a finished warp shifts the slot lists instead).
      if (!this.ensureStep(slot, c, now)) return this.wake.notReadyUntil(this.readyAt[c]!);
    }
    const step = this.steps[c]!;
    let i = this.instIdx[c]!;
    const insts = this.stepInsts[c]!;
    const deps = this.stepDeps[c];
    if (deps !== undefined && i < insts && deps[deps[i]! + DepField.Count] === 0) {
      // Instructions with no PTX counterpart (promoted-variable moves, composite moves) issue nothing.
      const lanes = this.stepLanes[c]!;
      while (i < insts && deps[deps[i]! + DepField.Count] === 0) {
        const rec = deps[i]!;
        if (deps[rec + DepField.WKeys]! < deps[rec + DepField.PhiKeys]!) {
          // A forwarding entry (step-deps.ts): its keys are ready when its earlier-step values are;
          // a value still on its way from memory holds the warp here until it is back (onResponse).
          const ready = this.regs.readyAt(slot, deps, i);
          if (ready === Infinity) {
            this.instIdx[c] = i;
            this.nextIssueAt[c] = Infinity;
            return this.wake.notReadyUntil(Infinity);
          }
          this.regs.written(slot, deps, i, ready);
        }
        i++;
        this.stats.irWarpInsts++;
        this.stats.irThreadInsts += lanes;
      }
      this.instIdx[c] = i;
      if (i >= insts && (step.rt === undefined || this.rtSent[c] === 1)) return this.tryIssueCtx(slot, c, now);
    }
    if (i >= insts) {
      // Only the traversal is left (a step whose RT work has no Rt-class instruction).
      if (this.rt.tryAccept(this.virt === null ? c : this.virt.token(c), step.rt!, now)) {
        if (this.virt !== null) this.virt.accepted(c);
        this.rtSent[c] = 1;
        this.inRt[c] = 1;
        return false;
      }
      if (this.timeline !== null) this.timeline.rtBufferFull(c, now);
      return this.wake.refusedUntilEvent();
    }
    if (this.nextIssueAt[c]! > now) return this.wake.notReadyUntil(this.nextIssueAt[c]!);
    if (deps !== undefined) {
      const ready = this.scoreboard.readyAt(c, deps, i, now);
      if (ready > now) {
        // Blocked by the scoreboard: wait for the producer's latency, or for its load (onResponse).
        this.nextIssueAt[c] = ready;
        return this.wake.notReadyUntil(ready);
      }
      // Results of earlier steps still in flight.
      const xready = this.regs.readyAt(slot, deps, i);
      if (xready > now) {
        this.nextIssueAt[c] = xready;
        return this.wake.notReadyUntil(xready);
      }
    }
    const cls = this.stepClasses[c]![i]!;
    const unit = this.issueUnitOf(deps, cls, i);
    const sched = slot % this.sched.length;
    if (unit >= 0) {
      if (unit === this.forbidUnit) return this.wake.refusedUntilEvent();
      // The scheduler's ID_OC slot of that unit class must be empty (operand-collector.ts).
      const free = this.pipe.slotFreeAt(unit, sched);
      if (free > now) return this.wake.notReadyUntil(free);
    }
    const toRt = cls === OpClass.Rt && step.rt !== undefined && this.rtSent[c] === 0;
    if (toRt && !this.rt.hasRoom()) {
      if (this.timeline !== null) this.timeline.rtBufferFull(c, now);
      return this.wake.refusedByRtBuffer();
    }
    const queuedBefore = this.lsu.queued;
    if (!this.lsu.send(c, step, i)) return this.wake.refusedByLsu(this.lsu.fitsAtQueued);
    this.pendingMem[c]! += this.lsu.responses;
    if (toRt) {
      this.rt.tryAccept(this.virt === null ? c : this.virt.token(c), step.rt!, now);
      if (this.virt !== null) this.virt.accepted(c);
      this.rtSent[c] = 1;
      this.inRt[c] = 1;
    }
    let done = now + this.cfg.opLatency[cls]!;
    // The PTX instructions it stands for issue one per cycle from this warp and its scheduler.
    const rec = deps !== undefined ? deps[i]! : 0;
    const count = deps !== undefined ? deps[rec + DepField.Count]! : 1;
    if (unit >= 0) {
      // Through the operand collector to its unit; the result is written back `latency + depth` cycles after issue when nothing conflicts.
      const alu = cls === OpClass.Alu || cls === OpClass.Sfu;
      const op = alu ? this.ptxOpOf(deps, cls, i) : PtxOp.Other;
      const mem = unit === IssueUnit.Mem;
      const latency = mem ? 0 : alu ? this.cfg.ptxLatency[op]! : this.cfg.opLatency[cls]!;
      const ii = mem ? 1 : alu ? this.cfg.ptxInitiation[op]! : this.cfg.opInitiation[cls]!;
      if (deps !== undefined) this.pipe.reserve(now, unit, sched, slot, deps, deps[rec + DepField.Regs]!, deps[rec + DepField.XSrc]!, deps[rec + DepField.Dst]!, latency, ii);
      else this.pipe.reserve(now, unit, sched, slot, NO_REGS, 0, 0, -1, latency, ii);
      this.stats.unitOps[unit]!++;
      this.stats.unitCycles[unit]! += ii;
      if (deps !== undefined && count > 1) this.occupyExtra(deps[rec + DepField.Extra]!, this.pipe.execAt + 1);
      if (mem) {
        // The accesses leave for the L1D from the cycle the LD/ST unit takes the instruction.
        this.lsu.readyFrom(queuedBefore, this.pipe.execAt);
        done = this.pipe.execAt;
      } else {
        done = this.pipe.writebackAt;
        if (alu && deps !== undefined) {
          // The dependent PTX ops that follow on the critical path of the sequence it becomes, each issued at its producer's writeback.
          const from = deps[rec + DepField.Chain]!;
          const end = deps[rec + DepField.Regs]!;
          for (let k = from; k < end; k++) done += this.cfg.ptxLatency[deps[k]!]! + this.pipe.depth;
          // Its other PTX instructions (further components) issue in the cycles after the first.
          done += Math.max(0, count - 1 - (end - from));
        }
      }
    } else if (deps !== undefined && count > 1) this.occupyExtra(deps[rec + DepField.Extra]!, now + 1);
    this.lastUnit = unit;
    if (done > this.readyAt[c]!) this.readyAt[c] = done;
    // A load's readers wait for its data (settled by onResponse).
    const loads = this.lsu.loadSlot >= 0;
    if (deps !== undefined) {
      this.regs.written(slot, deps, i, loads ? Infinity : done);
      // Its block's phi movs (issued with it, each after its source: their sources are among its XSrc) write their values a mov's latency on.
      if (deps[rec + DepField.PhiKeys]! < deps[rec + DepField.End]!) this.regs.phisWritten(slot, deps, i, now + this.movDone);
    }
    this.scoreboard.issued(c, i, loads ? Infinity : done);
    this.nextIssueAt[c] = now + Math.max(1, count);
    if (count > 1) this.schedBusyUntil[sched] = now + count;
    this.instIdx[c] = i + 1;
    const lanes = this.stepLanes[c]!;
    this.stats.warpInsts += count;
    this.stats.threadInsts += lanes * count;
    this.stats.irWarpInsts++;
    this.stats.irThreadInsts += lanes;
    this.stats.simtHistogram[lanes]! += count;
    if (this.timeline !== null) this.timeline.issue(c, lanes, count, this.pendingMem[c]!, now);
    return true;
  }

  /**
   * An instruction's PTX instructions after the first (DepField.Extra, by class) take their units
   * one after another from cycle `from` (IssuePipeline.occupy), as GPGPU-Sim's units take each PTX
   * instruction for its initiation interval.
   */
  private occupyExtra(extra: number, from: number): void {
    if (extra === 0) return;
    let t = from;
    for (let k = 0; k < EXTRA_CLASSES; k++) {
      const n = extraOpsOf(extra, k);
      if (n === 0) continue;
      const u = this.unitOfClass[k]! as IssueUnit;
      t = this.pipe.occupy(u, t, n, this.iiOfClass[k]!) + 1;
      this.stats.unitOps[u]! += n;
      this.stats.unitCycles[u]! += n * this.iiOfClass[k]!;
    }
  }

  /** The PTX op instruction i issues as (replayed traces carry no deps: their Sfu class is an SFU op). */
  private ptxOpOf(deps: StepDeps | undefined, cls: OpClass, i: number): PtxOp {
    if (deps !== undefined) return deps[deps[i]! + DepField.Ptx]! as PtxOp;
    return cls === OpClass.Sfu ? PtxOp.Sfu : PtxOp.Other;
  }

  /** The unit class instruction i of the step issues to, -1 for the RT unit's instruction (accepted at issue). */
  private issueUnitOf(deps: StepDeps | undefined, cls: OpClass, i: number): number {
    switch (cls) {
      case OpClass.Alu:
      case OpClass.Sfu:
        return this.unitOfPtx[this.ptxOpOf(deps, cls, i)]!;
      case OpClass.Memory:
      case OpClass.Texture:
        return IssueUnit.Mem;
      case OpClass.Rt:
        return -1;
      default:
        return this.intUnit;
    }
  }

  private finishWarp(slot: number, now: number): void {
    this.account(now);
    if (this.timeline !== null) this.timeline.finish(slot, now);
    this.warps[slot] = null;
    for (let k = 0; k <= this.ctxHigh[slot]!; k++) this.holdStep(k * this.n + slot, null);
    const list = this.sched[slot % this.sched.length]!;
    list.splice(list.indexOf(slot), 1);
    this.wake.slotListChanged();
    this.resident--;
    this.stats.warpsFinished++;
    const cta = this.ctaOf[slot]!;
    this.ctaOf[slot] = -1;
    const left = this.ctaLeft.get(cta)! - 1;
    if (left === 0) {
      this.ctaLeft.delete(cta);
      this.registersUsed -= this.ctaRegisters(this.ctaSizes.get(cta)!);
      this.ctaSizes.delete(cta);
    } else this.ctaLeft.set(cta, left);
  }

  // --- The slot tables, as ray virtualization sees them (CtaSlots; ray-virtualization.ts) -------
  /** Ray virtualization's suspend / resume of this SM's CTAs (null when rt_ray_virtualization is off). */
  private readonly virt: CtaSuspension | null = null;

  ctas(): Iterable<number> {
    return this.ctaLeft.keys();
  }

  ctaSlots(cta: number): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < this.n; slot++) if (this.ctaOf[slot] === cta) out.push(slot);
    return out;
  }

  waitsOnlyInRt(slot: number): boolean {
    return this.itsSlot[slot] === 0 && this.inRt[slot] === 1 && this.pendingMem[slot] === 0;
  }

  evictCta(cta: number, now: number): SlotState[] {
    this.account(now);
    const out: SlotState[] = [];
    for (let slot = 0; slot < this.n; slot++) {
      if (this.ctaOf[slot] !== cta) continue;
      out.push({ warp: this.warps[slot]!, step: this.steps[slot]!, instIdx: this.instIdx[slot]!, memIdx: this.lsu.memoryIndex(slot), lastStep: this.lastStep[slot]! });
      this.warps[slot] = null;
      this.holdStep(slot, null);
      this.inRt[slot] = 0;
      this.ctaOf[slot] = -1;
      const list = this.sched[slot % this.sched.length]!;
      list.splice(list.indexOf(slot), 1);
      this.resident--;
    }
    this.wake.slotListChanged();
    this.ctaLeft.delete(cta);
    this.registersUsed -= this.ctaRegisters(this.ctaSizes.get(cta)!);
    this.ctaSizes.delete(cta);
    return out;
  }

  restoreCta(cta: number, warps: readonly SlotState[], now: number): number[] {
    this.account(now);
    this.wake.wakeAll();
    this.ctaLeft.set(cta, warps.length);
    this.ctaSizes.set(cta, warps.length);
    this.registersUsed += this.ctaRegisters(warps.length);
    const slots: number[] = [];
    let slot = 0;
    for (const sw of warps) {
      while (this.warps[slot] !== null) slot++;
      this.warps[slot] = sw.warp;
      this.holdStep(slot, sw.step, sw.memIdx);
      this.scoreboard.startStep(slot);
      this.clearRegisters(slot);
      this.instIdx[slot] = sw.instIdx;
      this.lastStep[slot] = sw.lastStep;
      this.rtSent[slot] = 1;
      this.inRt[slot] = 0;
      this.pendingMem[slot] = 0;
      this.itsSlot[slot] = 0;
      this.ctxHigh[slot] = 0;
      this.lastCtx[slot] = slot;
      this.readyAt[slot] = now;
      this.nextIssueAt[slot] = now;
      this.ctaOf[slot] = cta;
      this.sched[slot % this.sched.length]!.push(slot);
      this.resident++;
      slots.push(slot);
    }
    return slots;
  }

  /** A new warp in context c: no register write or load of the warp before is pending for it. */
  private clearRegisters(c: number): void {
    this.regs.clear(c % this.n);
    this.lsu.clearContext(c);
  }

  stateAccess(addr: number, bytes: number, kind: ReqKind, slot: number): void {
    if (kind === ReqKind.Load) this.pendingMem[slot]++;
    this.lsu.stateAccess(addr, bytes, kind, slot);
  }

  /** The RT unit finished the traceRay with this ticket. */
  private rtDone(token: number): void {
    // Its warp may go on (its scheduler's event); room in the RT warp buffer matters only to warps refused for it, rescanned whenever it has room.
    if (this.virt === null) this.wake.wakeScheduler((token % this.n) % this.sched.length);
    else this.wake.wakeAll();
    const slot = this.virt === null ? token : this.virt.traceDone(token);
    if (slot >= 0) this.inRt[slot] = 0;
  }

  /**
   * Sec. 4.1: new CTAs launch "until ... the desired number of concurrent rays is reached": room
   * in the RT unit for one ray per thread of a new CTA (always true without virtualization).
   */
  hasRayRoom(ctaWarps: number): boolean {
    return this.virt === null || this.rt.raysInFlight + ctaWarps * this.cfg.warpSize <= this.cfg.treelet.raysPerSm;
  }

  /** Resumes a terminated CTA whose rays all finished: its warps wait for their state loads. */
  resumeCta(rec: SuspendedCta, now: number): void {
    this.virt!.resume(rec, now);
  }

  private account(now: number): void {
    const dt = now - this.lastAccount;
    if (dt > 0) {
      this.stats.residentWarpCycles += dt * this.resident;
      this.lastAccount = now;
    }
  }

  finish(now: number): void {
    this.account(now);
    this.rt.finish(now);
  }

  /**
   * After a cycle without issue: the earliest cycle a warp could issue or fetch without any
   * outside event (a unit freeing up, an issue interval or a block latency elapsing).
   */
  private issueWake(now: number): number {
    let t = Infinity;
    for (let slot = 0; slot < this.n; slot++) {
      if (this.warps[slot] === null) continue;
      const its = this.itsSlot[slot] === 1;
      const contexts = its ? this.ctxHigh[slot]! + 1 : 1;
      for (let k = 0; k < contexts; k++) {
        const c = k * this.n + slot;
        const step = this.steps[c];
        // ITS: an idle context was tried and found no split free to start; what frees one (another
        // context's latency, a response, an RT completion) is accounted for by that context.
        if (its && this.ctxSettled(c, now)) continue;
        if (this.instIdx[c]! < this.stepInsts[c]!) {
          const i = this.instIdx[c]!;
          const u = this.issueUnitOf(this.stepDeps[c], this.stepClasses[c]![i]! as OpClass, i);
          let at = this.nextIssueAt[c]!;
          if (u >= 0) at = Math.max(at, this.pipe.slotFreeAt(u, slot % this.sched.length));
          // Every warp was tried this cycle. One that was past its issue interval with a free unit
          // was blocked by a full LD/ST queue or RT warp buffer, whose progress wakes the SM.
          if (at > now) t = Math.min(t, at);
        } else if (step !== null && step.rt !== undefined && this.rtSent[c] === 0) {
          // Waiting for RT warp-buffer room: woken by the RT unit's completion callback.
        } else if (this.pendingMem[c] === 0 && this.inRt[c] === 0) t = Math.min(t, Math.max(now + 1, this.readyAt[c]!));
        if (t === now + 1) return t;
      }
    }
    return t;
  }

  nextEvent(now: number): number {
    let t = Math.min(this.rt.nextEvent(now), this.l1.nextEvent(now));
    if (this.rtCache !== this.l1) t = Math.min(t, this.rtCache.nextEvent(now));
    if (this.lsu.queued > 0) return now + 1;
    t = Math.min(t, this.lsu.nextEvent(now));
    return Math.min(t, Math.max(now + 1, this.wake.wakeAt));
  }

  idle(): boolean {
    return this.resident === 0 && this.lsu.idle() && this.l1.idle() && this.rt.idle();
  }

  /** For the deadlock watchdog (watchdog.ts): the RT unit's oldest warp and what its first unfinished ray waits on. */
  rtStall(): { slot: number; cta: number; unit: string } | null {
    const s = this.rt.stall();
    if (s === null) return null;
    const slot = s.context % this.n;
    return { slot, cta: this.ctaOf[slot]!, unit: `the RT unit (${s.detail})` };
  }

  /** For the deadlock watchdog (watchdog.ts): each resident warp and the unit it waits on. */
  stalledWarps(now: number): { slot: number; cta: number; unit: string }[] {
    const out: { slot: number; cta: number; unit: string }[] = [];
    const queued = this.lsu.queued;
    for (let slot = 0; slot < this.n; slot++) {
      if (this.warps[slot] === null) continue;
      let unit = queued > 0 ? `the LD/ST unit (${queued} accesses queued)` : 'the warp scheduler (no instruction ready to issue)';
      for (let k = 0; k <= this.ctxHigh[slot]!; k++) {
        const c = k * this.n + slot;
        if (this.inRt[c] === 1) unit = 'the RT unit (traversal accepted, never completed)';
        else if (this.pendingMem[c]! > 0) unit = `the L1D / memory system (${this.pendingMem[c]} load responses outstanding)`;
        else if (this.readyAt[c]! > now) unit = `a functional unit (result due at cycle ${this.readyAt[c]})`;
        else continue;
        break;
      }
      out.push({ slot, cta: this.ctaOf[slot]!, unit });
    }
    return out;
  }
}
