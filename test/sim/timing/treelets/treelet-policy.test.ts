import test from 'ava';
import { loadConfig } from '../../../../src/sim/config/gpu-config.js';
import type { TreeletMap } from '../../../../src/sim/rt/treelets.js';
import { simulate } from '../../../../src/sim/timing/gpu.js';
import { STAT_META } from '../../../../src/sim/timing/stats.js';
import type { RtTransaction, WarpStep } from '../../../../src/sim/warp-step.js';
import { ScriptedWarp, aluStep, rng, rtStep } from '../synthetic-warp.js';

const BVH = 0x4000_0000;
const TREELET_BYTES = 8192;
const node = (treelet: number, k: number, kind: RtTransaction['kind'] = 'internal'): RtTransaction =>
  ({ address: BVH + treelet * TREELET_BYTES + k * 64, size: 64, kind });

/** `treelets` treelets of 128 64-byte nodes, laid out one after another. */
function syntheticMap(treelets: number): TreeletMap {
  const treeletOfAddress = new Map<number, number>();
  for (let t = 0; t < treelets; t++) for (let k = 0; k < TREELET_BYTES / 64; k++) treeletOfAddress.set(node(t, k).address, t);
  return {
    treeletOfAddress,
    treeletStart: Array.from({ length: treelets }, (_, t) => BVH + t * TREELET_BYTES),
    treeletBytes: Array.from({ length: treelets }, () => TREELET_BYTES),
    budget: TREELET_BYTES,
  };
}

/**
 * Rays that start in the root treelet 0, go down into one of `children` child treelets (by lane and
 * warp), come back to the root once (as a nearest-first traversal does) and end in the child:
 * `depth` nodes in the child, the last a triangle leaf; `jitter` varies the depth per ray.
 */
function treeletWorkload(warps: number, children: number, depth: number, jitter = 0, seed = 1): ScriptedWarp[] {
  const rand = rng(seed);
  return Array.from({ length: warps }, (_, w) => {
    const lanes: RtTransaction[][] = [];
    for (let l = 0; l < 32; l++) {
      const c = 1 + ((l + w) % children);
      const d = depth + Math.floor(rand() * (jitter + 1));
      const tx = [node(0, 0), node(0, 1 + (l % 4)), node(c, 0), node(0, 5)];
      for (let k = 1; k < d; k++) tx.push(node(c, 1 + ((k * 7 + l) % 100), k === d - 1 ? 'triangleLeaf' : 'internal'));
      lanes.push(tx);
    }
    const steps: Omit<WarpStep, 'done' | 'warp'>[] = [aluStep(4, 10), rtStep(lanes), aluStep(4, 11)];
    return new ScriptedWarp(steps, w);
  });
}

const treeletCfg = (...o: string[]) => loadConfig('treelet', ['gpgpu_n_clusters=1', ...o]);
const ON = ['rt_ray_virtualization=1', 'rt_treelet_queues=1', 'rt_treelet_divergence_threshold=2', 'rt_treelet_queue_threshold=64'];
const nodeCount = (warps: ScriptedWarp[]) => {
  let n = 0;
  for (const w of warps) for (const s of (w as unknown as { steps: WarpStep[] }).steps) for (const lw of s.rt ?? []) n += lw.transactions.length;
  return n;
};

test('diverged warps feed the treelet queues and full queues are traversed treelet-stationary', (t) => {
  const warps = treeletWorkload(24, 4, 6);
  const total = nodeCount(warps);
  const s = simulate(warps, treeletCfg(...ON), { treelets: syntheticMap(5) });
  const v = s.values;
  t.is(v.rt_total_rays, 24 * 32);
  t.true(v.treelet_diverged_warps! > 0);
  t.true(v.treelet_warps_treelet! > 0, 'treelet warps were formed');
  t.true(v.treelet_activated! > 0);
  t.true(v.treelet_line_loads! >= TREELET_BYTES / 128, 'a whole treelet was loaded into the L1D');
  t.true(v.treelet_tests_treelet! > 0);
  t.true(v.treelet_ray_data_loads! > 0, 'treelet warps load their rays\' data');
  t.is(v.treelet_ray_data_stores, 24 * 32 * 32 / 128, 'each traceRay stores its rays\' 32 B data, 4 rays per line');
  // Every node test happens in exactly one mode.
  t.is(v.treelet_tests_initial! + v.treelet_tests_treelet! + v.treelet_tests_ray!, total, 'tests per mode add up to the nodes replayed');
  const again = simulate(treeletWorkload(24, 4, 6), treeletCfg(...ON), { treelets: syntheticMap(5) });
  t.is(again.values.gpu_sim_cycle, v.gpu_sim_cycle, 'deterministic');
});

test('without a treelet queue threshold everything diverged is grouped ray-stationary (Sec. 4.4)', (t) => {
  const warps = treeletWorkload(12, 4, 6);
  const s = simulate(warps, treeletCfg(...ON, 'rt_treelet_queue_threshold=0'), { treelets: syntheticMap(5) });
  t.is(s.values.treelet_warps_treelet, 0);
  t.true(s.values.treelet_warps_ray! > 0);
  t.is(s.values.rt_total_rays, 12 * 32);
});

test('ray virtualization terminates CTAs at their traceRay, saves and restores their state, and lets more rays in flight than CTA slots', (t) => {
  const warps = treeletWorkload(48, 4, 6);
  const cfg = treeletCfg(...ON);
  const s = simulate(warps, cfg, { treelets: syntheticMap(5) });
  const v = s.values;
  for (const k of Object.keys(v)) t.truthy(STAT_META[k], `no metadata for ${k}`);
  t.is(v.virt_ctas_suspended, 48);
  t.is(v.virt_ctas_resumed, 48);
  // Without liveness from the driver, gpgpu_registers_per_thread registers per thread (the paper's ptxas count).
  const perWarp = 32 * cfg.registersPerThread * 4 + cfg.treelet.simtStackBytes;
  t.is(v.virt_saved_registers, cfg.registersPerThread);
  t.is(v.virt_saved_bytes, 48 * perWarp);
  t.is(v.virt_restored_bytes, 48 * perWarp);
  t.true(v.virt_peak_suspended! > cfg.maxCtasPerSm, `peak ${v.virt_peak_suspended} terminated CTAs > ${cfg.maxCtasPerSm} CTA slots`);
  t.is(s.values.gpu_sim_insn, 48 * 32 * 9, 'every warp ran all its instructions after resuming');
  const queuesOnly = simulate(treeletWorkload(48, 4, 6), treeletCfg(...ON, 'rt_ray_virtualization=0'), { treelets: syntheticMap(5) });
  t.false('virt_ctas_suspended' in queuesOnly.values, 'no virtualization stats without it');
  t.is(queuesOnly.values.rt_total_rays, 48 * 32);
});

test('warp repacking refills ray-stationary warps and raises RT SIMT efficiency (Sec. 4.5, Fig. 13b)', (t) => {
  const run = (repack: number) =>
    simulate(treeletWorkload(24, 4, 3, 20, 7), treeletCfg(...ON, 'rt_treelet_queue_threshold=0', `rt_treelet_repack_threshold=${repack}`), { treelets: syntheticMap(5) });
  const off = run(0);
  const on = run(22);
  t.is(off.values.treelet_repacks, 0);
  t.true(on.values.treelet_repacks! > 0);
  t.true(on.values.treelet_repacked_rays! > 0);
  t.is(on.values.rt_total_rays, off.values.rt_total_rays);
  t.true(on.values.rt_simt_efficiency! > off.values.rt_simt_efficiency!, `SIMT efficiency ${on.values.rt_simt_efficiency} with repacking vs ${off.values.rt_simt_efficiency}`);
});

test('treelet queues need the BVH\'s treelet map', (t) => {
  t.throws(() => simulate(treeletWorkload(1, 2, 3), treeletCfg(...ON)), { message: /treelets/ });
});

test('naive treelet queues (no grouping, Fig. 12): every queued ray is traversed treelet-stationary', (t) => {
  const warps = treeletWorkload(12, 4, 6);
  const total = nodeCount(warps);
  const s = simulate(warps, treeletCfg(...ON, 'rt_treelet_group_underpopulated=0'), { treelets: syntheticMap(5) });
  t.is(s.values.treelet_warps_ray, 0);
  t.is(s.values.treelet_tests_ray, 0);
  t.true(s.values.treelet_tests_treelet! > 0);
  t.is(s.values.treelet_tests_initial! + s.values.treelet_tests_treelet!, total);
});

test('the treelet policy refuses the predictor\'s warp repacking (paper 002) rather than ignoring it: the treelet controller forms the warps', (t) => {
  t.throws(() => simulate(treeletWorkload(1, 2, 3), treeletCfg(...ON, 'gpgpu_rt_predictor=1'), { treelets: syntheticMap(3) }), { message: /gpgpu_rt_predictor_repack cannot be combined/ });
  t.throws(() => simulate(treeletWorkload(1, 2, 3), treeletCfg(...ON, 'gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_repack=0', 'gpgpu_rt_predictor_extra_warps=4'), { treelets: syntheticMap(3) }),
    { message: /gpgpu_rt_predictor_extra_warps cannot be combined/ });
  // Without lookups (synthetic rays carry no ray record) the lookup stage changes nothing.
  const off = simulate(treeletWorkload(8, 4, 6), treeletCfg(...ON), { treelets: syntheticMap(5) }).values;
  const on = simulate(treeletWorkload(8, 4, 6), treeletCfg(...ON, 'gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_repack=0'), { treelets: syntheticMap(5) }).values;
  t.is(on.gpu_sim_cycle, off.gpu_sim_cycle);
  t.is(on.rt_predictor_lookups, 0);
});

test('predictor and treelet queues together: rays are looked up before they enter the treelet policy; images and rays as without the predictor', async (t) => {
  const { simulateWorkload } = await import('../../../../src/driver/simulate-workload.js');
  const TREELETS = ['rt_ray_virtualization=1', 'rt_treelet_queues=1'];
  const run = (o: string[]) => simulateWorkload('ao', { width: 16, height: 16, config: 'treelet', overrides: [...TREELETS, ...o] });
  const base = await run([]);
  const both = await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_repack=0']);
  const image = (r: typeof base) => Buffer.from(r.prepared.host.output!.levels[0]!.data.buffer);
  t.deepEqual(image(both), image(base));
  const b = base.stats.values, v = both.stats.values;
  t.is(v.rt_total_rays, b.rt_total_rays);
  t.false('rt_predictor_lookups' in b);
  // Only the occlusion rays are looked up; the paper's terms partition the predicted rays.
  t.true(v.rt_predictor_lookups! > 0 && v.rt_predictor_lookups! < v.rt_total_rays!);
  t.is(v.rt_predictor_predicted!, v.rt_predictor_verified! + v.rt_predictor_mispredicted!);
  t.true(v.rt_predictor_predicted! > 0);
  t.is(v.rt_predictor_table_bytes, 5504);
  t.is(v.rt_predictor_repacked_warps, 0, 'the treelet controller forms the warps');
  t.true(v.treelet_warps_initial! > 0, 'the treelet policy ran');
});

test('treelet queues on pt 48x48 (1 spp, 3 bounces) complete: a ray-data load over several sectors of which some are in the L2 gets its reply', async (t) => {
  // Regression: the L2 keyed a fetch's MSHR entry by the request's first sector but looked it up
  // on the DRAM return by the first *missing* sector, so such a load never got its reply and its
  // rays stayed LOADING (every treelet-queue bench run deadlocked).
  const { simulateWorkload } = await import('../../../../src/driver/simulate-workload.js');
  const r = await simulateWorkload('pt', { width: 48, height: 48, spp: 1, bounces: 3, config: 'treelet', overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=1'] });
  t.true(r.stats.values.gpu_sim_cycle! > 0);
  t.true(r.stats.values.rt_total_rays! > 48 * 48);
});
