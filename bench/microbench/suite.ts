/**
 * Mechanism microbenchmarks (issue 26 part 4), the way Accel-Sim correlates a config before any
 * application: each run isolates one mechanism and its achieved figure is printed beside the one
 * the config implies, with the formula. Expected figures read the config's own values
 * (config-values.ts: the parsed config, else the file's text, else GPGPU-Sim's default), never
 * what the timing model implements, so a mechanism the model lacks shows up as a ratio != 1.
 *
 * The timing model runs ray tracing pipelines only (compute shaders are excluded from the
 * manifest's stages), so each microbenchmark is a raygen shader doing the access pattern, with a
 * miss shader and a one-triangle scene the pipeline requires but never traces (bench/microbench/<name>/).
 *
 * Two measuring methods, both insensitive to launch ramp and loop overhead:
 * - latencies from the probe (probe.ts): issue of a dependent load to its data, one lane of one warp;
 * - throughputs by difference: two runs that differ only in the loop count; the figure is
 *   (difference in work) / (difference in cycles), so cold start and drain cancel.
 */
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheBytes } from '../../src/sim/config/cache-config.js';
import { loadConfig, type GpuConfig } from '../../src/sim/config/gpu-config.js';
import { simulateWorkload } from '../../src/driver/simulate-workload.js';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';
import { MicrobenchProbe, type ProbeRecord } from './probe.js';
import { ConfigValues } from './config-values.js';
import { type AddressDecoder, decode, parseAddressMapping, rowBytes, streamLocality } from './address-decoder.js';
import { rtNodeRows } from './rt-node.js';

export interface MicrobenchRow {
  mechanism: string;
  figure: string;
  achieved: number;
  /** What the config implies; undefined when the config does not determine it. */
  expected: number | undefined;
  unit: string;
  /** How the expected figure follows from the config, with the values used. */
  formula: string;
  /** Supporting stats of the run (row-hit rate, requests per load, ...). */
  detail: string;
}

export interface MicrobenchResult {
  config: string;
  rows: MicrobenchRow[];
}

/** Vulkan-Sim's SM75_RTX2060 file from ../shared/calibration when present, else the rtx2060 preset. */
export function defaultCalibrationConfig(): string {
  const file = join(calibrationDir(), 'lumibench-wknd', 'vulkan-sim', 'SM75_RTX2060.gpgpusim.config');
  return existsSync(file) ? file : 'rtx2060';
}

const here = dirname(fileURLToPath(import.meta.url));
const workload = (name: string): string => join(here, name);

interface Run {
  stats: Record<string, number>;
  probe: ProbeRecord;
}

async function run(config: string, overrides: string[], name: string, push: Record<string, number>, width: number, height: number): Promise<Run> {
  let probe: MicrobenchProbe | undefined;
  const r = await simulateWorkload(workload(name), {
    config, overrides, push, width, height, spp: 1, recorder: (c) => (probe = new MicrobenchProbe(c)),
  });
  return { stats: r.stats.values, probe: probe!.record };
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const nextPow2 = (x: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, x)));
const f1 = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** Warps one SM can hold for a launch of one-warp CTAs (slots, CTA slots, registers). */
function warpsPerSm(c: GpuConfig): number {
  return Math.min(c.maxWarpsPerSm, c.maxCtasPerSm, Math.floor(c.registersPerSm / (c.warpSize * c.registersPerThread)));
}

/** The groups of rows, in the order they run (`only` picks some). */
export const MICROBENCH_GROUPS = ['latency', 'bandwidth', 'issue', 'chain', 'l1bank', 'rt'] as const;
export type MicrobenchGroup = (typeof MICROBENCH_GROUPS)[number];

export async function runMicrobenchmarks(
  config: string, overrides: string[] = [], log: (s: string) => void = () => {}, only: readonly MicrobenchGroup[] = MICROBENCH_GROUPS,
): Promise<MicrobenchResult> {
  const want = (g: MicrobenchGroup): boolean => only.includes(g);
  const cfg = loadConfig(config, overrides);
  const v = new ConfigValues(cfg, config);
  const clk = v.clocks();
  const rows: MicrobenchRow[] = [];
  const add = (r: MicrobenchRow): void => {
    rows.push(r);
    log(`  ${r.mechanism} / ${r.figure}: ${f1(r.achieved)} ${r.unit} (config: ${r.expected === undefined ? '—' : f1(r.expected)})`);
  };
  const lineBytes = cfg.l1d.lineBytes;
  const lineWords = lineBytes / 4;
  const chaseBufferWords = 16 * 1024 * 1024;

  // --- latencies: one lane of one warp walks dependent loads.
  const l1Lat = v.num('gpgpu_l1_latency');
  const icnt = v.num('icnt_latency');
  const rop = v.num('gpgpu_l2_rop_latency') * (clk.core / clk.l2);
  const dramClk = clk.core / clk.dram;
  const tRCD = v.field('gpgpu_dram_timing_opt', 'RCD');
  const tCL = v.field('gpgpu_dram_timing_opt', 'CL');
  const tRP = v.field('gpgpu_dram_timing_opt', 'RP');
  const bl = v.num('gpgpu_dram_burst_length');
  const ratio = v.num('dram_data_command_freq_ratio');
  const dramLat = v.num('dram_latency');
  // network_mode 2 (GPGPU-Sim's local crossbar): a request moves at the advance after its push and is
  // taken the cycle after (2), a reply is taken the cycle after its push (1); mode 1: icnt_latency each way.
  const localXbar = v.num('network_mode') === 2;
  // The reply's cycle in the cluster's ejection FIFO (reply-ejection.ts) is the + 1.
  const roundTrip = (localXbar ? 3 : 2 * icnt) + 1;
  const l2Path = l1Lat + roundTrip + rop;
  const l2Formula = `gpgpu_l1_latency ${l1Lat} + ${localXbar ? 'network_mode 2 round trip 3' : `2 x icnt_latency ${icnt}`} + ejection FIFO 1 + gpgpu_l2_rop_latency x core/L2 clock ${f1(rop)}`;
  const chase = async (lines: number, steps: number, strideWords: number, maskWords: number): Promise<{ lat: number[]; stats: Record<string, number> }> => {
    const r = await run(config, overrides, 'chase', { steps, strideWords, maskWords, activeLanes: 1 }, cfg.warpSize, 1);
    const all = r.probe.loadLatencies[0]!;
    // The chase's loads are the last `steps` records (the push-constant reads come first).
    return { lat: all.slice(all.length - steps).slice(lines), stats: r.stats };
  };
  if (want('latency')) {
    const lines = 8;
    const r = await chase(lines, 8 * lines, lineWords, lines * lineWords - 1);
    add({
      mechanism: 'L1D', figure: 'hit latency (dependent loads, 1 lane)', achieved: mean(r.lat), expected: l1Lat, unit: 'cycles',
      formula: `gpgpu_l1_latency = ${l1Lat}`, detail: `${lines} lines revisited, ${r.lat.length} warm loads`,
    });
  }
  if (want('latency')) {
    const l1Lines = cacheBytes(cfg.l1d) / lineBytes;
    const lines = nextPow2(2 * l1Lines);
    const r = await chase(lines, 2 * lines, lineWords, lines * lineWords - 1);
    add({
      mechanism: 'L2', figure: 'hit latency (dependent loads, 1 lane)', achieved: mean(r.lat), expected: l2Path, unit: 'cycles',
      formula: l2Formula, detail: `${lines} lines (2x the L1D's ${l1Lines}) walked twice, LRU evicts each before reuse; 2nd pass L1D miss rate ${r.stats.L1D_total_cache_miss_rate!.toFixed(2)}`,
    });
  }
  const burst = (bl / ratio) * dramClk;
  const mapping = parseAddressMapping(v.text('gpgpu_mem_addr_mapping'), v.num('gpgpu_n_mem'));
  if (want('latency')) {
    const steps = 64;
    const r = await chase(0, steps, lineWords, chaseBufferWords - 1);
    const expected = l2Path + (tRCD + tCL) * dramClk + burst + dramLat;
    add({
      mechanism: 'DRAM', figure: 'read latency, new lines in sequence (1 lane)', achieved: mean(r.lat), expected, unit: 'cycles',
      formula: `L2 path ${f1(l2Path)} + (tRCD ${tRCD} + tCL ${tCL}) x core/DRAM clock ${dramClk.toFixed(3)} + burst BL ${bl} / dram_data_command_freq_ratio ${ratio} DRAM clocks + dram_latency ${dramLat} (bank precharged; a row hit saves tRCD)`,
      detail: `row-buffer hit rate ${r.stats.dram_row_buffer_hit_rate!.toFixed(2)}, mean DRAM read latency ${f1(r.stats.dram_avg_read_latency!)}`,
    });
  }
  if (mapping && want('latency')) {
    const stride = rowConflictStride(mapping, lineBytes);
    if (stride !== undefined && 64 * stride < chaseBufferWords * 4) {
      const steps = 64;
      const r = await chase(0, steps, stride / 4, chaseBufferWords - 1);
      const expected = l2Path + (tRP + tRCD + tCL) * dramClk + burst + dramLat;
      add({
        mechanism: 'DRAM', figure: 'read latency, row conflict every access (1 lane)', achieved: mean(r.lat), expected, unit: 'cycles',
        formula: `L2 path ${f1(l2Path)} + (tRP ${tRP} + tRCD ${tRCD} + tCL ${tCL}) x ${dramClk.toFixed(3)} + burst ${f1(burst)} + dram_latency ${dramLat}; stride ${stride} B = same channel and bank, next row under gpgpu_mem_addr_mapping`,
        detail: `row-buffer hit rate ${r.stats.dram_row_buffer_hit_rate!.toFixed(2)} (config: 0)`,
      });
    }
  }

  // --- DRAM bandwidth and row locality: every SM full of warps streaming 512-byte blocks.
  const channels = v.num('gpgpu_n_mem');
  const atom = bl * v.num('gpgpu_dram_buswidth') * v.num('gpgpu_n_mem_per_ctrlr');
  const peakPerCore = (channels * atom * clk.dram) / (bl / ratio) / clk.core;
  const peakFormula = `gpgpu_n_mem ${channels} x atom (BL ${bl} x gpgpu_dram_buswidth ${v.num('gpgpu_dram_buswidth')} x gpgpu_n_mem_per_ctrlr ${v.num('gpgpu_n_mem_per_ctrlr')} = ${atom} B) per BL / dram_data_command_freq_ratio = ${bl / ratio} DRAM clocks at ${clk.dram} MHz = ${f1((peakPerCore * clk.core) / 1000)} GB/s`;
  const wps = warpsPerSm(cfg);
  const warps = cfg.numSms * wps;
  const streamBlocksPerIter = 4 * warps;
  const streamBufferBytes = 4 * 1024 * 1024 * 16;
  const maskBlocks = streamBufferBytes / 512 - 1;
  const stream = async (pattern: number, strideBytes: number, iters: [number, number]): Promise<{ bytesPerCycle: number; a: Run; b: Run }> => {
    const wrapBlocks = Math.max(1, Math.floor(streamBufferBytes / Math.max(512, strideBytes)));
    const push = (iters: number) => ({ iters, pattern, maskBlocks, strideBytes, wrapBlocks });
    const a = await run(config, overrides, 'stream', push(iters[0]), cfg.warpSize, warps);
    const b = await run(config, overrides, 'stream', push(iters[1]), cfg.warpSize, warps);
    const bytes = (iters[1] - iters[0]) * streamBlocksPerIter * 512;
    return { bytesPerCycle: bytes / (b.stats.gpu_sim_cycle! - a.stats.gpu_sim_cycle!), a, b };
  };
  const blockAddrs = (pattern: number, strideBytes: number, blocks: number): number[] => {
    const out: number[] = [];
    const wrap = Math.max(1, Math.floor(streamBufferBytes / Math.max(512, strideBytes)));
    for (let b = 0; b < blocks; b++) {
      const base = pattern === 0 ? b * 512 : pattern === 1 ? scramble(b, maskBlocks) * 512 : (b % wrap) * strideBytes;
      for (let o = 0; o < 512; o += atom) out.push(base + o);
    }
    return out;
  };
  const patterns: { name: string; pattern: number; stride: number }[] = [
    { name: 'sequential', pattern: 0, stride: 512 },
    { name: 'random 512 B blocks', pattern: 1, stride: 512 },
  ];
  const camp = mapping ? channelCampStride(mapping) : undefined;
  if (camp !== undefined) patterns.push({ name: `strided ${camp} B (few channels)`, pattern: 2, stride: camp });
  for (const p of want('bandwidth') ? patterns : []) {
    const r = await stream(p.pattern, p.stride, [1, 3]);
    const loc = mapping ? streamLocality(mapping, blockAddrs(p.pattern, p.stride, 3 * streamBlocksPerIter)) : undefined;
    const share = loc ? loc.channels / channels : 1;
    add({
      mechanism: 'DRAM', figure: `bandwidth, ${p.name}`, achieved: r.bytesPerCycle, expected: peakPerCore * share, unit: 'B/cycle',
      formula: `${peakFormula} = ${f1(peakPerCore)} B per core cycle at ${clk.core} MHz${share < 1 ? ` x ${loc!.channels} of ${channels} channels touched` : ''}`,
      detail: `${f1((r.bytesPerCycle * clk.core) / 1000)} GB/s; ${warps} warps; row-buffer hit rate ${r.b.stats.dram_row_buffer_hit_rate!.toFixed(2)}${loc ? ` (config, in order: ${loc.rowHitRate.toFixed(2)}; row ${rowBytes(mapping!)} B)` : ''}; L2 miss rate ${r.b.stats.L2_total_cache_miss_rate!.toFixed(2)}; dram_eff ${r.b.stats.dram_eff!.toFixed(2)}`,
    });
  }

  // --- issue rate: independent fp multiply-adds on every warp slot, scalar and vec4. The bound is
  // the run's own PTX instructions per unit class, differenced like the cycles, over what the config
  // lets each class take: a unit holds each instruction for its opcode's initiation interval
  // (issue_*_unit_cycles sums them: ptx_opcode_initiation_fp / _int / _sfu, 1 for movs and setp),
  // the schedulers issue one per cycle each.
  const sched = v.num('gpgpu_num_sched_per_core') * v.num('gpgpu_max_insn_issue_per_warp');
  const nSp = v.num('gpgpu_num_sp_units');
  const nInt = v.num('gpgpu_num_int_units');
  const nSfu = v.num('gpgpu_num_sfu_units');
  const unitFormula = `the busiest of: SP unit-cycles / gpgpu_num_sp_units ${nSp}, INT unit-cycles / gpgpu_num_int_units ${nInt}, SFU unit-cycles / gpgpu_num_sfu_units ${nSfu} (each PTX instruction holds its unit for its ptx_opcode_initiation_* interval), warp instructions / gpgpu_num_sched_per_core x gpgpu_max_insn_issue_per_warp ${sched}`;
  /** The cycles per SM the busiest issue resource needs for the instructions of a differenced pair of runs. */
  const issueBound = (d: (stat: string) => number): { unit: string; cycles: number } => {
    const sp = d('issue_sp_unit_cycles') / cfg.numSms;
    const int = d('issue_int_unit_cycles') / cfg.numSms;
    const need = [
      // INT instructions share the SP units where there are no INT units.
      { unit: `SP ${nSp}`, cycles: nInt > 0 ? sp / nSp : (sp + int) / nSp },
      ...(nInt > 0 ? [{ unit: `INT ${nInt}`, cycles: int / nInt }] : []),
      { unit: `SFU ${nSfu}`, cycles: d('issue_sfu_unit_cycles') / cfg.numSms / Math.max(1, nSfu) },
      { unit: `issue ${sched}`, cycles: d('gpu_warp_insn') / cfg.numSms / sched },
    ];
    return need.reduce((m, x) => (x.cycles > m.cycles ? x : m));
  };
  if (want('issue')) {
    for (const k of [{ name: 'alu', what: 'scalar fp multiply-adds' }, { name: 'aluvec', what: 'vec4 fp multiply-adds' }]) {
      const a = await run(config, overrides, k.name, { iters: 8 }, cfg.warpSize, warps);
      const b = await run(config, overrides, k.name, { iters: 24 }, cfg.warpSize, warps);
      const d = (s: string): number => (b.stats[s] ?? 0) - (a.stats[s] ?? 0);
      const insts = d('gpu_warp_insn') / cfg.numSms;
      const cycles = d('gpu_sim_cycle');
      const bind = issueBound(d);
      add({
        mechanism: 'issue', figure: `ALU warp instructions per cycle per SM, ${k.what}`, achieved: insts / cycles,
        expected: insts / bind.cycles, unit: 'warp insts/cycle',
        formula: `warp instructions / ${unitFormula}; here ${bind.unit} binds`,
        detail: `${wps} warps per SM; per SM ${f1(d('issue_sp_ops') / cfg.numSms)} SP, ${f1(d('issue_int_ops') / cfg.numSms)} INT, ${f1(d('issue_sfu_ops') / cfg.numSms)} SFU of ${f1(insts)} warp instructions over ${f1(cycles)} cycles (iters 24 - 8)`,
      });
    }
  }

  // --- dependent-issue latency: one warp, a chain of dependent operations of one kind. Expected
  // from GPGPU-Sim's pipeline (shader.cc) as read: issue puts the instruction in its ID_OC register
  // (cycle t); the operand collector, stepped gpgpu_reg_file_port_throughput (p) times per cycle in
  // the LD/ST unit's cycle, allocates a collector unit in the first step of t + 1, reads the operand
  // in the next step and dispatches to OC_EX in the step after; the functional unit takes it in the
  // cycle after the dispatch's; its result reaches EX_WB latency + 1 cycles later and is written
  // back (releasing the scoreboard) at the start of the next cycle, whose issue stage issues the
  // dependent instruction: latency + floor((p + 2) / p) + 3 cycles. Latencies from
  // set_opcode_and_latency: add.f32 ptx_opcode_latency_fp[0], max.f32 [1], sqrt.approx
  // ptx_opcode_latency_sfu, xor.b32 not listed there (1).
  if (want('chain')) {
    const p = v.num('gpgpu_reg_file_port_throughput');
    const pipeline = Math.floor((p + 2) / p) + 3;
    const fpLat = v.list('ptx_opcode_latency_fp');
    const chains = [
      { op: 0, name: 'fp add (x = x + c)', latency: fpLat[0]!, why: `ptx_opcode_latency_fp[0] ${fpLat[0]}` },
      { op: 1, name: 'fp max (x = max(x, c))', latency: fpLat[1]!, why: `ptx_opcode_latency_fp[1] ${fpLat[1]}` },
      { op: 2, name: 'integer xor (u = u ^ k)', latency: 1, why: 'xor: set_opcode_and_latency default 1' },
      { op: 3, name: 'sqrt (x = sqrt(x))', latency: v.num('ptx_opcode_latency_sfu'), why: `ptx_opcode_latency_sfu ${v.num('ptx_opcode_latency_sfu')}` },
    ];
    const per = 128;
    const trips = [2, 6];
    const ops = (trips[1]! - trips[0]!) * per;
    for (const ch of chains) {
      const [a, b] = [await run(config, overrides, 'chain', { iters: trips[0]!, op: ch.op, c: 0.5, k: 1234567 }, cfg.warpSize, 1), await run(config, overrides, 'chain', { iters: trips[1]!, op: ch.op, c: 0.5, k: 1234567 }, cfg.warpSize, 1)];
      const cycles = b.stats.gpu_sim_cycle! - a.stats.gpu_sim_cycle!;
      const insts = b.stats.gpu_warp_insn! - a.stats.gpu_warp_insn!;
      const irInsts = b.stats.vvision_ir_warp_insn! - a.stats.vvision_ir_warp_insn!;
      add({
        mechanism: 'issue', figure: `dependent ${ch.name}: cycles from one operation's issue to the next's`,
        achieved: cycles / ops, expected: ch.latency + pipeline, unit: 'cycles',
        formula: `${ch.why} + GPGPU-Sim's issue-to-writeback pipeline ${pipeline} (ID_OC, collector unit at the next cycle's first step, operand read, dispatch, unit the cycle after, EX_WB after latency + 1, writeback; gpgpu_reg_file_port_throughput ${p})`,
        detail: `1 warp; ${(insts / ops).toFixed(2)} PTX-equivalent warp instructions per operation (${(irInsts / ops).toFixed(2)} IR instructions: the variable's load and store have no PTX counterpart); ${per} per trip, ${trips.join(' vs ')} trips`,
      });
    }
  }

  // --- L1D throughput by stride: every warp slot (so the loads' latency is hidden), all hits after
  //     the first iteration. The loop's own instructions bound it too: its address arithmetic and
  //     sums take the INT units, which bind at the smallest stride.
  const banks = v.num('gpgpu_l1_banks');
  const interleave = v.num('gpgpu_l1_banks_byte_interleaving');
  for (const stride of want('l1bank') ? [4, 16, 32, 64, 128] : []) {
    const a = await run(config, overrides, 'l1bank', { iters: 4, strideBytes: stride }, cfg.warpSize, warps);
    const b = await run(config, overrides, 'l1bank', { iters: 12, strideBytes: stride }, cfg.warpSize, warps);
    const d = (s: string): number => (b.stats[s] ?? 0) - (a.stats[s] ?? 0);
    const loads = 8 * 8 * wps; // per SM: 8 iterations more, 8 loads each, per warp
    const cyclesPerLoad = d('gpu_sim_cycle') / loads;
    const requestsPerLoad = d('L1D_total_cache_accesses') / cfg.numSms / loads;
    // Half the loads read lane * stride, half one word further (the shader's a1, a3, ...).
    const bankCycles = (l1BankCycles(stride, cfg.warpSize, banks, interleave) + l1BankCycles(stride, cfg.warpSize, banks, interleave, 4)) / 2;
    const bind = issueBound(d);
    const unitCycles = bind.cycles / loads;
    add({
      mechanism: 'L1D', figure: `cycles per warp load, stride ${stride} B`, achieved: cyclesPerLoad, expected: Math.max(bankCycles, unitCycles), unit: 'cycles',
      formula: `max(bank cycles ${f1(bankCycles)}: 32 B sectors (of lane x stride and one word on, half the loads each) to gpgpu_l1_banks ${banks} banks by gpgpu_l1_banks_byte_interleaving ${interleave}, up to one per bank per cycle in lane order, stopping at a conflict; the loop's instructions per load on ${unitFormula}: ${unitCycles.toFixed(2)} (${bind.unit})); here ${bankCycles >= unitCycles ? 'the banks bind' : `${bind.unit} binds`}`,
      detail: `${f1(requestsPerLoad)} L1D accesses per warp load; ${wps} warps per SM; ${(d('gpu_warp_insn') / cfg.numSms / loads).toFixed(2)} warp insts per load`,
    });
  }

  // --- RT unit: node-fetch latency (one ray, cold and in the L1D) and throughput (one SM, all warp
  //     slots tracing), on the rtnode workload (rt-node.ts). The RT unit has no L1 latency queue: its
  //     misses take the L1D's miss path without gpgpu_l1_latency.
  if (want('rt')) {
    const rtL2 = roundTrip + rop;
    const rtL2Formula = `${localXbar ? 'network_mode 2 round trip 3' : `2 x icnt_latency ${icnt}`} + ejection FIFO 1 + gpgpu_l2_rop_latency x core/L2 clock ${f1(rop)}`;
    await rtNodeRows({
      v, warpsPerSm: wps, add, l1Lines: cacheBytes(cfg.l1d) / lineBytes,
      l2Path: rtL2, l2Formula: rtL2Formula,
      memPath: rtL2 + (tRCD + tCL) * dramClk + burst + dramLat,
      memFormula: `${rtL2Formula} + (tRCD ${tRCD} + tCL ${tCL}) x core/DRAM clock ${dramClk.toFixed(3)} + burst ${f1(burst)} + dram_latency ${dramLat}, bank precharged`,
      run: async (push, warps) => run(config, [...overrides, 'gpgpu_n_clusters=1'], 'rtnode', push, cfg.warpSize, warps),
    });
  }
  return { config: cfg.source, rows };
}

/** The bijective block scramble of the stream shader's pattern 1 (must match raygen.rgen). */
function scramble(b: number, mask: number): number {
  let x = b & mask;
  x = (x ^ (x >>> 5)) & mask;
  x = Number((BigInt(x) * 2654435761n) & BigInt(mask));
  return x ^ (x >>> 7);
}

/**
 * Cycles one warp load of `stride`-spaced words takes at the L1D under GPGPU-Sim's banked L1
 * (Accel-Sim ldst_unit::memory_cycle: up to l1_banks accesses enter per cycle, each to its bank's
 * latency queue slot; the first one whose bank is taken this cycle waits for the next). Accesses
 * are the 32 B sectors the warp touches, in lane order; bank = (sector address / interleave) mod banks.
 */
export function l1BankCycles(stride: number, lanes: number, banks: number, interleave: number, offset = 0): number {
  const sectors: number[] = [];
  for (let l = 0; l < lanes; l++) {
    const s = Math.floor((l * stride + offset) / 32);
    if (!sectors.includes(s)) sectors.push(s);
  }
  let cycles = 0;
  let i = 0;
  while (i < sectors.length) {
    cycles++;
    const used = new Set<number>();
    while (i < sectors.length && used.size < banks) {
      const bank = Math.floor((sectors[i]! * 32) / interleave) % banks;
      if (used.has(bank)) break;
      used.add(bank);
      i++;
    }
  }
  return cycles;
}

/** A stride (a power of two times a channel-count factor) that keeps channel and bank and changes the row, under the mapping. */
function rowConflictStride(d: AddressDecoder, lineBytes: number): number | undefined {
  for (let j = Math.log2(lineBytes); j < 30; j++) {
    for (let m = 1; m <= d.channels; m++) {
      const s = m * 2 ** j;
      const ok = [0, 1, 2, 3, 4, 5, 6, 7].every((k) => {
        const a = decode(d, k * s);
        const b = decode(d, (k + 1) * s);
        return a.channel === b.channel && a.bank === b.bank && a.row !== b.row;
      });
      if (ok) return s;
    }
  }
  return undefined;
}

/** The smallest stride of 512-byte blocks whose blocks all fall in the same few channels (under the mapping). */
function channelCampStride(d: AddressDecoder): number | undefined {
  for (let s = 1024; s <= 1 << 20; s += 256) {
    const used = new Set<number>();
    for (let k = 0; k < 64; k++) for (let o = 0; o < 512; o += 256) used.add(decode(d, k * s + o).channel);
    if (used.size <= 2) return s;
  }
  return undefined;
}

/** The result as a markdown table: achieved beside expected, their ratio, and the formula. */
export function microbenchTable(r: MicrobenchResult): string {
  const fmt = (x: number): string => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(x >= 10 ? 1 : 2));
  const lines = [
    '| mechanism | figure | vvision | config implies | vvision / config | how the config implies it | run detail |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of r.rows) {
    const ratio = row.expected === undefined || row.expected === 0 ? '—' : (row.achieved / row.expected).toFixed(2);
    lines.push(`| ${row.mechanism} | ${row.figure} | ${fmt(row.achieved)} ${row.unit} | ${row.expected === undefined ? '—' : `${fmt(row.expected)} ${row.unit}`} | ${ratio} | ${row.formula} | ${row.detail} |`);
  }
  return lines.join('\n');
}
