/**
 * Multi-frame runs on the timing model (issue 24): launches back to back on one GPU, per-frame
 * statistics that add up to the total, warm caches between frames unless gpgpu_flush_l1_cache /
 * gpgpu_flush_l2_cache say otherwise, and functional memory carried between frames exactly as in
 * the functional run.
 */
import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simulateWorkload, type SimulationResult } from '../../src/driver/simulate-workload.js';
import { runWorkload } from '../../src/driver/run-workload.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'multi-frame', 'workload.json');

const v = (r: SimulationResult, f: number, k: string): number => r.frames[f]!.stats.values[k]!;

test('frames run back to back: cycles and counters of the frames add up to the total', async (t) => {
  const r = await simulateWorkload(FIXTURE, { config: 'mobile', frames: 3 });
  t.is(r.frames.length, 3);
  t.is(r.frames.reduce((n, f) => n + f.stats.values.gpu_sim_cycle!, 0), r.stats.values.gpu_sim_cycle);
  t.is(r.frames.reduce((n, f) => n + f.stats.values.gpu_sim_insn!, 0), r.stats.values.gpu_sim_insn);
  t.is(r.frames.reduce((n, f) => n + f.stats.values.L1D_total_cache_accesses!, 0), r.stats.values.L1D_total_cache_accesses);
  t.is(r.counters!.threads, 3 * 64);
  t.is(r.prepared.rt.counters.rays, r.frames.reduce((n, f) => n + f.rt.rays, 0));
  // Same device memory afterwards as the functional run: the accumulation image.
  const fn = await runWorkload(FIXTURE, { frames: 3 });
  t.deepEqual(fn.counters.threadInsts, r.counters!.threadInsts);
  const acc = r.prepared.host.resources.images!.find((i) => i.binding === 1)!.image.levels[0]!.data;
  t.deepEqual([...acc.subarray(0, 4)], [3, 12, 50, 6]);
});

test('warm caches make the next frame cheaper; flushing L1 and L2 between launches undoes it', async (t) => {
  const warm = await simulateWorkload(FIXTURE, { config: 'mobile', frames: 2 });
  const cold = await simulateWorkload(FIXTURE, { config: 'mobile', frames: 2, overrides: ['gpgpu_flush_l1_cache=1', 'gpgpu_flush_l2_cache=1'] });
  // Frame 0 is the same launch either way.
  t.is(v(warm, 0, 'gpu_sim_cycle'), v(cold, 0, 'gpu_sim_cycle'));
  t.true(v(warm, 1, 'L2_total_cache_misses') < v(cold, 1, 'L2_total_cache_misses'), 'warm L2 misses less');
  t.true(v(warm, 1, 'gpu_sim_cycle') < v(cold, 1, 'gpu_sim_cycle'), 'warm frame is faster');
  // After a full flush the second frame misses like the first one.
  t.is(v(cold, 1, 'L1D_total_cache_misses'), v(cold, 0, 'L1D_total_cache_misses'));
  t.is(cold.frames[1]!.flush !== undefined, true);
  t.is(warm.frames[1]!.flush!.l1DirtyLines + warm.frames[1]!.flush!.l2DirtyLines, 0, 'no flush, nothing dropped');
});

test('a one-frame run has one frame whose statistics are the total', async (t) => {
  const r = await simulateWorkload(FIXTURE, { config: 'mobile', frames: 1 });
  t.is(r.frames.length, 1);
  const { gpu_sim_wall_seconds: _a, gpu_total_sim_rate: _b, gpu_sim_cycle_rate: _c, gpu_warp_insn_rate: _d, ...total } = r.stats.values;
  const { gpu_sim_wall_seconds: _e, gpu_total_sim_rate: _f, gpu_sim_cycle_rate: _g, gpu_warp_insn_rate: _h, ...frame } = r.frames[0]!.stats.values;
  t.deepEqual(frame, total);
});

test('a frame range fast-forwards the frames before it on the functional core and times the rest', async (t) => {
  const r = await simulateWorkload(FIXTURE, { config: 'mobile', frames: 3, firstFrame: 1 });
  t.deepEqual(r.frames.map((f) => f.frame), [1, 2]);
  t.is(r.counters!.threads, 2 * 64);
  // Memory is the same as after all three frames.
  const acc = r.prepared.host.resources.images!.find((i) => i.binding === 1)!.image.levels[0]!.data;
  t.deepEqual([...acc.subarray(0, 4)], [3, 12, 50, 6]);
  t.is(r.frames.reduce((n, f) => n + f.stats.values.gpu_sim_cycle!, 0), r.stats.values.gpu_sim_cycle);
  await t.throwsAsync(simulateWorkload(FIXTURE, { config: 'mobile', frames: 2, firstFrame: 2 }), { message: /firstFrame 2: the run has frames 0\.\.1/ });
});
