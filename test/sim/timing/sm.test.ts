import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../src/sim/timing/gpu.js';
import { OpClass, type WarpStep } from '../../../src/sim/warp-step.js';
import { IssueUnit, PtxOp } from '../../../src/sim/ptx-op.js';
import { IssuePipeline } from '../../../src/sim/timing/operand-collector.js';
import { FULL_MASK, ScriptedWarp, aluStep, withPtx } from './synthetic-warp.js';
import { packStepDeps } from '../../../src/sim/step-deps-layout.js';

/** Warps of independent ALU instructions; `ops`: the PTX ops they issue as (none: untyped ALU ops, e.g. movs, on the INT units). */
function aluKernel(warps: number, steps: number, insts: number, ops?: readonly PtxOp[]): ScriptedWarp[] {
  const step = () => (ops === undefined ? aluStep(insts) : withPtx(aluStep(insts), ops));
  return Array.from({ length: warps }, (_, w) => new ScriptedWarp(Array.from({ length: steps }, step), w));
}

function warpIpc(overrides: string[], warps = 32, ops?: readonly PtxOp[]): number {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1', ...overrides]);
  const s = simulate(aluKernel(warps, 20, 50, ops), cfg);
  return s.values.gpu_warp_insn! / s.values.gpu_sim_cycle!;
}

test('an ALU-only kernel reaches the configured issue rate (schedulers per SM)', (t) => {
  for (const n of [1, 2, 4]) {
    const ipc = warpIpc([`gpgpu_num_sched_per_core=${n}`]);
    t.true(ipc > 0.95 * n && ipc <= n, `${n} schedulers: ${ipc.toFixed(3)} warp insts/cycle`);
  }
});

test('SP units and their initiation interval bound fp throughput', (t) => {
  const fp = [PtxOp.FpAdd];
  const oneUnit = warpIpc(['gpgpu_num_sp_units=1', 'ptx_opcode_initiation_fp=1,2,2,2,4'], 32, fp);
  t.true(oneUnit > 0.95 && oneUnit <= 1, `1 SP unit, II 1: ${oneUnit}`);
  const ii2 = warpIpc(['gpgpu_num_sp_units=4', 'ptx_opcode_initiation_fp=2,2,2,2,4'], 32, fp);
  t.true(ii2 > 1.9 && ii2 <= 2, `4 SP units, II 2: ${ii2}`);
  const intToo = warpIpc(['gpgpu_num_sp_units=4', 'ptx_opcode_initiation_fp=2,2,2,2,4'], 32, [PtxOp.FpAdd, PtxOp.Other]);
  t.true(intToo > 3.5, `fp on the SP units beside untyped ops on the INT units: ${intToo}`);
});

test('IPC counts thread instructions: partially active warps issue fewer', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1']);
  const half = { ...aluStep(10), activeMask: 0x0000ffff };
  const s = simulate([new ScriptedWarp([half, half])], cfg);
  t.is(s.values.gpu_warp_insn, 20);
  t.is(s.values.gpu_sim_insn, 20 * 16);
  t.is(s.distributions.simtHistogram[16], 20);
  t.is(s.values.gpu_simt_efficiency, 50);
});

test('SFU latency separates dependent blocks; the scoreboard waits at block boundaries', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1', 'ptx_opcode_latency_sfu=50']);
  const sfu: Omit<WarpStep, 'done' | 'warp'> = {
    fn: 0, block: 5, activeMask: FULL_MASK, insts: 1, opClasses: new Uint8Array([OpClass.Sfu]), memory: [],
  };
  const run = (n: number) => simulate([new ScriptedWarp(Array.from({ length: n }, () => sfu))], cfg).values.gpu_sim_cycle!;
  // A replayed step (no register information, so no operand reads) starts once the one before is
  // written back: the SFU latency plus the issue-to-writeback pipeline.
  const pipe = new IssuePipeline(cfg);
  pipe.reserve(0, IssueUnit.Sfu, 0, 0, new Int32Array(0), 0, 0, -1, 50, 1);
  t.is(pipe.writebackAt, 54);
  t.is((run(20) - run(10)) / 10, pipe.writebackAt);
});

test('GTO and LRR both finish the same work at about the same rate on independent ALU warps', (t) => {
  const gto = loadConfig('mobile', ['gpgpu_n_clusters=1', 'gpgpu_num_sched_per_core=1']);
  const lrr = loadConfig('mobile', ['gpgpu_n_clusters=1', 'gpgpu_num_sched_per_core=1', 'gpgpu_scheduler=lrr']);
  const a = simulate(aluKernel(4, 5, 20), gto);
  const b = simulate(aluKernel(4, 5, 20), lrr);
  t.is(a.values.gpu_warp_insn, 400);
  t.is(b.values.gpu_warp_insn, 400);
  t.true(Math.abs(a.values.gpu_sim_cycle! - b.values.gpu_sim_cycle!) < 40);
});

test('a branch away from the fall-through block costs one issue cycle (GPGPU-Sim\'s control-hazard flush)', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1']);
  // One warp; each step is one independent instruction, so issue alone decides the cycles.
  const step = withPtx(aluStep(1), [PtxOp.Other]);
  const run = (redirect: boolean) => simulate([new ScriptedWarp(Array.from({ length: 41 }, (_, i) => ({ ...step, redirect: redirect && i > 0 })))], cfg).values.gpu_sim_cycle!;
  const straight = run(false);
  const jumping = run(true);
  t.is(jumping - straight, 40, `straight-line ${straight} cycles, every step a taken branch's target ${jumping}`);
});

test('instruction cache: a block is fetched once, a miss costs the configured latency', (t) => {
  const run = (lat: number, perfect = 0) =>
    simulate([new ScriptedWarp([aluStep(8, 1)])], loadConfig('mobile', ['gpgpu_n_clusters=1', `gpgpu_perfect_inst_const_cache=${perfect}`, `gpgpu_icache_miss_latency=${lat}`]));
  const a = run(20);
  const b = run(120);
  t.is(a.values.L1I_total_cache_accesses, 1);
  t.is(a.values.L1I_total_cache_miss_rate, 1);
  t.is(b.values.gpu_sim_cycle! - a.values.gpu_sim_cycle!, 100);
  // gpgpu_perfect_inst_const_cache 1 (Vulkan-Sim's configs): no lookup, no miss cost.
  const p = run(120, 1);
  t.is(p.values.L1I_total_cache_accesses, 0);
  t.is(p.values.gpu_sim_cycle, a.values.gpu_sim_cycle! - 20);
});

test('CTA limits: more warps than slots run in waves; occupancy reflects resident warps', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1', 'gpgpu_shader_cta=2']);
  const s = simulate(aluKernel(8, 4, 20), cfg, { ctaSize: 2 });
  t.is(s.values.gpu_warp_insn, 8 * 4 * 20);
  // At most 2 CTAs x 2 warps of 32 slots are resident.
  t.true(s.values.gpu_occupancy! <= (4 / 32) * 100 + 1e-9);
  t.true(s.values.gpu_occupancy! > 5);
});

test('gpgpu_max_insn_issue_per_warp lets one warp dual-issue when units allow', (t) => {
  // Alternating fp and untyped ops: with gpgpu_dual_issue_diff_exec_units the second instruction must use another unit.
  const mix = [PtxOp.FpAdd, PtxOp.Other];
  const one = warpIpc(['gpgpu_num_sched_per_core=1'], 1, mix);
  const two = warpIpc(['gpgpu_num_sched_per_core=1', 'gpgpu_max_insn_issue_per_warp=2'], 1, mix);
  const same = warpIpc(['gpgpu_num_sched_per_core=1', 'gpgpu_max_insn_issue_per_warp=2'], 1, [PtxOp.FpAdd]);
  t.true(same / one < 1.1, `one unit class: no dual issue (${same} vs ${one})`);
  // A lone warp also pays cold instruction-cache misses and block-boundary latency, so compare.
  t.true(one <= 1, `single issue: ${one}`);
  t.true(two / one > 1.6 && two <= 2, `dual issue ${two} vs single ${one}`);
});

test('a forwarding entry (an inlined call\'s argument) carries an earlier step\'s ready cycle to the key the next step reads', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1', 'ptx_opcode_latency_sfu=60']);
  const entry = (count: number, ptx: PtxOp, xsrc: number[], wkeys: number[], regs: number[] = []) =>
    ({ ptx, count, dst: -1, deps: [], chain: [], regs, xsrc, wkeys });
  // Step 1: an SFU op writing key 7. Step 2: a forwarding entry from key 7 to key 9 (or nothing), then an op reading key 9.
  const sfu = { ...aluStep(1, 1), opClasses: new Uint8Array([OpClass.Sfu]), deps: packStepDeps([entry(1, PtxOp.Sfu, [], [7])]) };
  // The reader is an SFU op too: without the forwarding entry the two overlap, with it they run one after the other.
  const reader = (forward: boolean) => ({
    ...aluStep(2, 2),
    opClasses: new Uint8Array([OpClass.Alu, OpClass.Sfu]),
    deps: packStepDeps([entry(0, PtxOp.Other, forward ? [7] : [], forward ? [9] : []), entry(1, PtxOp.Sfu, [9], [])]),
  });
  const run = (forward: boolean) => simulate([new ScriptedWarp([sfu, reader(forward)])], cfg).values;
  const without = run(false);
  const withForward = run(true);
  t.is(withForward.gpu_warp_insn, 2, 'the forwarding entry issues nothing');
  t.true(withForward.gpu_sim_cycle! - without.gpu_sim_cycle! >= 55, `the reader waits for the SFU result: ${without.gpu_sim_cycle} -> ${withForward.gpu_sim_cycle}`);
});
