import test from 'ava';
import { loadConfig } from '../../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../../src/sim/timing/gpu.js';
import type { RtTransaction } from '../../../../src/sim/warp-step.js';
import { ScriptedWarp, rtStep, traversalWorkload } from '../synthetic-warp.js';

const ROOT: RtTransaction = { address: 0x4000_0000, size: 64, kind: 'internal' };
const cfgOf = (...o: string[]) => loadConfig('mobile', ['gpgpu_n_clusters=1', ...o]);

test('identical root-node requests of a warp merge into one request per 32 B chunk', (t) => {
  const s = simulate([new ScriptedWarp([rtStep(Array.from({ length: 32 }, () => [ROOT]))])], cfgOf());
  t.is(s.values.rt_total_requests, 2, 'a 64 B node is two 32 B chunks');
  t.is(s.values.rt_merged_in_warp, 62);
  t.is(s.values.rt_total_rays, 32);
  t.is(s.values.rt_avg_nodes_per_ray, 1);
});

test('different nodes are not merged, and chunks of one node are fetched separately', (t) => {
  const lanes = Array.from({ length: 4 }, (_, l) => [{ address: 0x4000_0000 + l * 64, size: 64, kind: 'internal' as const }]);
  const s = simulate([new ScriptedWarp([rtStep(lanes)])], cfgOf());
  t.is(s.values.rt_total_requests, 8);
  t.is(s.values.rt_merged_in_warp, 0);
});

test('gpgpu_rt_coalesce_warps merges identical requests across resident warps', (t) => {
  const warps = () => [0, 1].map((w) => new ScriptedWarp([rtStep(Array.from({ length: 32 }, () => [ROOT]))], w));
  const off = simulate(warps(), cfgOf());
  const on = simulate(warps(), cfgOf('gpgpu_rt_coalesce_warps=1'));
  t.is(off.values.rt_total_requests, 4);
  t.is(off.values.rt_merged_across_warps, 0);
  t.is(on.values.rt_total_requests, 2);
  t.is(on.values.rt_merged_across_warps, 64);
});

test('a warp completes when its last ray finishes; latency includes the operation units', (t) => {
  const lat = [4, 20, 20, 4, 31, 31, 4];
  const cfg = cfgOf('gpgpu_rt_perfect_mem=1', `gpgpu_rt_intersection_latency=${lat.join(',')}`);
  const short: RtTransaction[] = [ROOT];
  const long: RtTransaction[] = [ROOT, { address: 0x4000_1000, size: 64, kind: 'triangleLeaf' }];
  const s = simulate([new ScriptedWarp([rtStep([short, long])])], cfg);
  const w = s.values.rt_avg_warp_latency!;
  // Perfect BVH memory: each node is ~2 chunk responses plus its operation latency.
  t.true(w >= lat[1]! + lat[4]! && w <= lat[1]! + lat[4]! + 12, `warp latency ${w}`);
  t.true(s.values.rt_avg_thread_latency! < w, 'the short ray finishes first');
  t.true(s.values.rt_avg_efficiency! < 1 && s.values.rt_avg_efficiency! > 0);
});

test('more RT warps lower cycles on a traversal-heavy workload until memory saturates', (t) => {
  const cycles: number[] = [];
  for (const w of [1, 2, 4, 8]) {
    const s = simulate(traversalWorkload(24, 2, 10, 1 << 20, 5), cfgOf(`gpgpu_rt_max_warps=${w}`, 'gpgpu_rt_max_mshr=256', 'gpgpu_rt_mem_queue_size=256'));
    cycles.push(s.values.gpu_sim_cycle!);
    t.true(s.values.rt_avg_warp_occupancy! <= w + 1e-9);
  }
  t.true(cycles[0]! > cycles[1]! && cycles[1]! > cycles[2]!, `cycles by max warps 1,2,4,8: ${cycles.join(', ')}`);
  t.true(cycles[3]! <= cycles[2]! * 1.02, `8 warps no slower than 4: ${cycles.join(', ')}`);
  // Diminishing returns: the step 4 -> 8 gains less than 1 -> 2.
  t.true(cycles[2]! - cycles[3]! < cycles[0]! - cycles[1]!);
});

test('RT occupancy over time and the warp latency histogram cover the run', (t) => {
  const s = simulate(traversalWorkload(8, 2, 8, 1 << 18), cfgOf('gpgpu_stats_sample_interval=100'));
  const occ = s.distributions.rtOccupancy;
  t.is(occ.rays.length, Math.floor((s.values.gpu_sim_cycle! - 1) / 100));
  t.true(Math.max(...occ.warps) <= 4);
  t.is(s.distributions.rtWarpLatency.counts.reduce((a, b) => a + b, 0), 16);
  t.true(s.distributions.roofline.opIntensity > 0);
});

test('with gpgpu_rt_use_l1=0 the RT unit has its own cache: shader loads do not hit BVH lines', async (t) => {
  const { chaseStep } = await import('../synthetic-warp.js');
  const steps = [rtStep([[ROOT]]), chaseStep(ROOT.address)];
  const shared = simulate([new ScriptedWarp(steps)], cfgOf());
  const split = simulate([new ScriptedWarp(steps)], cfgOf('gpgpu_rt_use_l1=0'));
  t.is(shared.distributions.cacheBreakdown.L1D.shader.hit, 1, 'the node the RT unit fetched is in the L1D');
  t.is(split.distributions.cacheBreakdown.L1D.shader.hit, 0);
  t.is(split.distributions.cacheBreakdown.L1D.shader.miss_compulsory, 1);
  // The 64 B node is two 32 B chunks: in the sectored RT cache each takes its own MSHR entry and misses.
  t.is(split.distributions.cacheBreakdown.L1D.rt.miss_compulsory, 2);
});

test('operation units are pipelined: more rays than units start over several cycles', (t) => {
  // 32 rays fetch the same node (one response), then all need a box test at once.
  const lanes = Array.from({ length: 32 }, () => [ROOT]);
  const latency = (units: number) =>
    simulate([new ScriptedWarp([rtStep(lanes)])], cfgOf('gpgpu_rt_perfect_mem=1', `gpgpu_rt_op_units=${units}`)).values.rt_avg_warp_latency!;
  t.is(latency(4) - latency(32), 32 / 4 - 1);
  t.is(latency(1) - latency(32), 32 - 1);
});

test('a smaller response FIFO limits RT requests in flight', (t) => {
  const run = (fifo: number) => simulate(traversalWorkload(8, 1, 8, 1 << 20, 9), cfgOf(`gpgpu_rt_response_fifo_size=${fifo}`)).values.gpu_sim_cycle!;
  t.true(run(2) > run(64) * 1.5);
});

test('the Response FIFO is unbounded by default, as Vulkan-Sim\'s: triangle-hit stores leave one per cycle, not 64 at a time', (t) => {
  // Every ray of 4 warps hits 6 triangles at once (one cached leaf each): 768 result stores, whose
  // acks take the L2 round trip. A bound on requests in flight would hold them in the RT unit.
  const leaf = (k: number): RtTransaction => ({ address: 0x4000_0000 + k * 64, size: 64, kind: 'triangleLeafHit' });
  const warps = () => Array.from({ length: 4 }, (_, w) =>
    new ScriptedWarp([rtStep(Array.from({ length: 32 }, () => [ROOT, ...Array.from({ length: 6 }, (_, k) => leaf(k))]))], w));
  const run = (...o: string[]) => simulate(warps(), cfgOf(...o)).values;
  const unbounded = run();
  t.is(unbounded.rt_writes, 4 * 32 * 6);
  t.is(unbounded.gpu_sim_cycle, run('gpgpu_rt_response_fifo_size=1048576').gpu_sim_cycle);
  t.true(unbounded.gpu_sim_cycle! < run('gpgpu_rt_response_fifo_size=64').gpu_sim_cycle!);
});

test('a ray\'s cycles split into memory waits, operations and the rest; operations are the configured latencies', (t) => {
  const lat = [4, 20, 20, 4, 31, 31, 4];
  const cfg = cfgOf(`gpgpu_rt_intersection_latency=${lat.join(',')}`);
  const one: RtTransaction[] = [ROOT, { address: 0x4000_1000, size: 64, kind: 'triangleLeaf' }];
  // 32 rays with different second nodes: they queue at the one-request-per-cycle port.
  const lanes = Array.from({ length: 32 }, (_, l) => [ROOT, { address: 0x4000_1000 + l * 64, size: 64, kind: 'triangleLeaf' as const }]);
  const single = simulate([new ScriptedWarp([rtStep([one])])], cfg).values;
  // One ray: an internal node's test, then a triangle leaf's (no queued starts).
  t.is(single.rt_avg_ray_op_cycles, lat[1]! + lat[4]!);
  t.true(single.rt_avg_ray_memory_cycles! > 0);
  t.is(single.rt_avg_ray_memory_cycles! + single.rt_avg_ray_op_cycles! + single.rt_avg_ray_wait_cycles!, single.rt_avg_ray_latency!);
  const many = simulate([new ScriptedWarp([rtStep(lanes)])], cfg).values;
  // 64 chunk requests through one port: rays wait to be scheduled, which one ray never does as long.
  t.true(many.rt_avg_ray_wait_cycles! > single.rt_avg_ray_wait_cycles!, `wait ${many.rt_avg_ray_wait_cycles} vs ${single.rt_avg_ray_wait_cycles}`);
  t.true(Math.abs(many.rt_avg_ray_memory_cycles! + many.rt_avg_ray_op_cycles! + many.rt_avg_ray_wait_cycles! - many.rt_avg_ray_latency!) < 1e-6);
});

test('gpgpu_rt_max_mshr binds on the RT cache path only, as Vulkan-Sim checks it on the L0 complet', (t) => {
  const cyclesWith = (...o: string[]) => simulate(traversalWorkload(8, 2, 8, 1 << 20, 5), cfgOf(...o)).values.gpu_sim_cycle!;
  // Through the L1D (gpgpu_rt_use_l1 1): the limit is never checked, so one MSHR changes nothing.
  t.is(cyclesWith('gpgpu_rt_max_mshr=1'), cyclesWith('gpgpu_rt_max_mshr=64'));
  // Through the RT cache: one outstanding unique request serialises the unit's memory accesses.
  const one = cyclesWith('gpgpu_rt_use_l1=0', 'gpgpu_rt_max_mshr=1');
  const many = cyclesWith('gpgpu_rt_use_l1=0', 'gpgpu_rt_max_mshr=64');
  t.true(one > many * 1.2, `RT cache path: ${one} cycles with 1 MSHR, ${many} with 64`);
});
