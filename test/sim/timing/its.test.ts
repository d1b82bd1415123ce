/**
 * Independent thread scheduling on the timing model (Vulkan-Sim IV-B): a split issues while
 * another split of the same warp waits for memory or the RT unit.
 */
import test from 'ava';
import { launchOptionsOf, prepareRun } from '../../../src/driver/run-workload.js';
import { countersOf, createWarps } from '../../../src/sim/functional/launch.js';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../src/sim/timing/gpu.js';
import type { WarpStep } from '../../../src/sim/warp-step.js';
import { compileGlslProgram, entryOf, fromU32, u32s, words } from '../functional/run-ir.js';

// Lanes 0-15 chase a chain of dependent loads through DRAM; lanes 16-31 run a long ALU loop.
const CHASE_OR_ALU = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Chain { uint next[]; } c;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint l = gl_LocalInvocationID.x;
  uint r;
  if (l < 16u) {
    uint p = l;
    for (int i = 0; i < 6; i++) p = c.next[p];
    r = p;
  } else {
    r = l;
    for (int i = 0; i < 120; i++) r = r * 1664525u + 1013904223u;
  }
  o.v[l] = r;
}`;

const N = 1 << 16;

function runChase(reconvergence: 'ipdom' | 'its') {
  const program = compileGlslProgram(CHASE_OR_ALU);
  // 4 KiB apart: every hop is a different line, far beyond what one step's coalescing merges.
  const chain = fromU32(Array.from({ length: N }, (_, i) => (i + 1024) % N));
  const out = words(32);
  const steps: WarpStep[] = [];
  const warps = createWarps(program, { buffers: [{ set: 0, binding: 0, data: chain }, { set: 0, binding: 1, data: out }] }, {
    entry: entryOf(program), size: [1, 1, 1], reconvergence,
  });
  const w = warps[0]!;
  const spy = { get done() { return w.done; }, independentSplits: w.independentSplits, runnableSplits: () => w.runnableSplits(),
    waitsAtJoin: (a: number, b: number) => w.waitsAtJoin(a, b),
    step: (s?: number) => { const x = w.step(s); steps.push(x); return x; } };
  const stats = simulate([spy], loadConfig('mobile', ['gpgpu_n_clusters=1']));
  return { cycles: stats.values.gpu_sim_cycle!, out: u32s(out), steps, counters: countersOf(warps, program)! };
}

test('ITS: the ALU split issues while the other split waits for its loads', (t) => {
  const ipdom = runChase('ipdom');
  const its = runChase('its');
  t.deepEqual(its.out, ipdom.out);
  t.true(ipdom.steps.every((s) => s.split === undefined));
  t.deepEqual([...new Set(its.steps.map((s) => s.split))].sort(), [0, 1]);
  // Under ITS the step order interleaves the two splits; the SIMT stack runs one path, then the other.
  const switches = (xs: WarpStep[]) => xs.slice(1).filter((s, i) => s.activeMask !== xs[i]!.activeMask).length;
  t.true(switches(its.steps) > switches(ipdom.steps) + 4, `split switches: its ${switches(its.steps)}, ipdom ${switches(ipdom.steps)}`);
  t.true(its.cycles < 0.8 * ipdom.cycles, `cycles: its ${its.cycles}, ipdom ${ipdom.cycles}`);
  // The split that reaches the join first waits there while the other is stalled (not in the RT
  // unit), so the store after the join runs merged.
  const last = its.steps[its.steps.length - 1]!;
  t.is(last.activeMask, 0xffffffff);
  t.true(last.done);
  t.is(its.counters.threadInsts, ipdom.counters.threadInsts);
});

async function timedRun(workload: string, width: number, height: number, its: boolean) {
  const p = await prepareRun(workload, { width, height, spp: 1, its }, { shortStackSize: 8 });
  const warps = createWarps(p.program, p.host.resources, launchOptionsOf(p, 'rows'));
  const stats = simulate(warps, loadConfig('mobile', ['gpgpu_n_clusters=2']));
  const image = Buffer.from(p.host.output!.levels[0]!.data.buffer).toString('base64');
  return { stats, counters: countersOf(warps, p.program)!, image };
}

test('ITS changes nothing on a workload without divergence (tri, 32x2: every ray hits)', async (t) => {
  const a = await timedRun('tri', 32, 2, false);
  const b = await timedRun('tri', 32, 2, true);
  t.deepEqual(b.counters, a.counters);
  for (const k of Object.keys(a.stats.values)) {
    if (k.endsWith('_rate') || k.includes('wall')) continue;
    t.is(b.stats.values[k], a.stats.values[k], k);
  }
  t.is(b.image, a.image);
});

test('ITS on ao: different cycles from the SIMT stack, the same image, deterministic', async (t) => {
  const ipdom = await timedRun('ao', 16, 4, false);
  const its = await timedRun('ao', 16, 4, true);
  const again = await timedRun('ao', 16, 4, true);
  t.not(its.stats.values.gpu_sim_cycle, ipdom.stats.values.gpu_sim_cycle);
  t.is(its.image, ipdom.image);
  t.is(again.stats.values.gpu_sim_cycle, its.stats.values.gpu_sim_cycle);
  t.deepEqual(again.counters, its.counters);
  // Every instruction the functional core executed is issued exactly once.
  t.is(its.stats.values.vvision_ir_warp_insn, its.counters.warpInsts);
  t.is(its.stats.values.vvision_ir_thread_insn, its.counters.threadInsts);
});
