import test from 'ava';
import { simulateWorkload } from '../../../../src/driver/simulate-workload.js';

/**
 * 16x16 on one cluster: ao's 2,048 occlusion rays give 29 predictions (11 verified) with the table,
 * about 400 under the oracles, and a 10x longer lookup queue with one port: every assertion below
 * has its margin at this size (32x32 simulated four times the rays for the same outcomes).
 */
const SIZE = { width: 16, height: 16 };
/**
 * One simulation per distinct (workload, overrides), shared by the tests that ask for it (the
 * simulator is deterministic and the tests only read the results): the default predictor on ao is
 * used by three tests.
 */
const runs = new Map<string, ReturnType<typeof simulateWorkload>>();
const run = (overrides: string[], workload = 'ao') => {
  const key = `${workload} ${overrides.join(' ')}`;
  let r = runs.get(key);
  if (!r) runs.set(key, (r = simulateWorkload(workload, { ...SIZE, config: 'mobile', overrides: ['gpgpu_n_clusters=1', ...overrides] })));
  return r;
};

test('the predictor changes timing, never results: same image and rays; off by default with no predictor stats', async (t) => {
  const base = await run([]);
  const pred = await run(['gpgpu_rt_predictor=1']);
  t.deepEqual(Buffer.from(pred.prepared.host.output!.levels[0]!.data.buffer), Buffer.from(base.prepared.host.output!.levels[0]!.data.buffer));
  t.is(pred.stats.values.rt_total_rays, base.stats.values.rt_total_rays);
  t.false('rt_predictor_lookups' in base.stats.values);
  t.false(base.stats.groups.some((g) => g.name === 'rt_predictor'));
  const v = pred.stats.values;
  t.is(v.rt_predictor_table_bytes, 5504);
  // Only the occlusion rays (terminate-on-first-hit) are looked up; the primary rays are not.
  t.true(v.rt_predictor_lookups! > 0 && v.rt_predictor_lookups! < v.rt_total_rays!);
  // The paper's terms partition the predicted rays; only rays that hit can be verified.
  t.is(v.rt_predictor_predicted!, v.rt_predictor_verified! + v.rt_predictor_mispredicted!);
  t.true(v.rt_predictor_predicted! > 0, 'the table predicts some rays');
  t.true(v.rt_predictor_verified! <= v.rt_predictor_hit_rays!);
  t.is(v.rt_predictor_updates, v.rt_predictor_hit_rays, 'every hit ray updates the table');
  // Verified rays save their full traversal, predictions cost their own fetches.
  t.true(v.rt_predictor_nodes! - v.rt_predictor_baseline_nodes! <= v.rt_predictor_prediction_nodes!);
  t.true(v.rt_predictor_misprediction_nodes! <= v.rt_predictor_prediction_nodes!);
});

test('repacking moves predicted rays into collector warps; without it there are none', async (t) => {
  const on = (await run(['gpgpu_rt_predictor=1'])).stats.values;
  const off = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_repack=0'])).stats.values;
  t.true(on.rt_predictor_repacked_warps! > 0);
  t.true(on.rt_predictor_repacked_warps! <= Math.ceil(on.rt_predictor_predicted! / 1));
  t.is(off.rt_predictor_repacked_warps, 0);
});

test('lookup ports: one port makes rays wait longer in the lookup queue than 32', async (t) => {
  const one = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_ports=1'])).stats.values;
  const many = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_ports=32'])).stats.values;
  t.true(one.rt_predictor_avg_lookup_queue_cycles! > many.rt_predictor_avg_lookup_queue_cycles!);
  // A ray accepted in one cycle is looked up in the next at the earliest (paper 002 Sec. 5.1.5: one cycle to queue).
  // With 32 ports only a cycle with more than 32 new rays makes some wait a second cycle.
  t.true(many.rt_predictor_avg_lookup_queue_cycles! >= 1 && many.rt_predictor_avg_lookup_queue_cycles! < 1.05);
});

test('oracles: lookup never mispredicts; unbounded training verifies at least as many rays as the table', async (t) => {
  const real = (await run(['gpgpu_rt_predictor=1'])).stats.values;
  const ol = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=lookup'])).stats.values;
  const ot = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=training'])).stats.values;
  const ou = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=update'])).stats.values;
  for (const o of [ol, ot, ou]) {
    t.is(o.rt_predictor_mispredicted, 0);
    t.is(o.rt_predictor_predicted, o.rt_predictor_verified);
  }
  t.true(ot.rt_predictor_verified! >= ol.rt_predictor_verified!);
  t.true(ot.rt_predictor_node_fetch_savings! > real.rt_predictor_node_fetch_savings!);
  t.true(ou.rt_predictor_verified! >= ot.rt_predictor_verified!);
});

test('closest-hit prediction (tmax trimming) also leaves the image unchanged', async (t) => {
  const base = await run([], 'cornell');
  const pred = await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_closest_hit=1'], 'cornell');
  t.deepEqual(Buffer.from(pred.prepared.host.output!.levels[0]!.data.buffer), Buffer.from(base.prepared.host.output!.levels[0]!.data.buffer));
  t.is(pred.stats.values.rt_predictor_lookups, pred.stats.values.rt_total_rays, 'every ray is looked up');
});

test('a bad predictor knob is a config error naming it', (t) => {
  return t.throwsAsync(() => run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_hash=crc32']), { message: /gpgpu_rt_predictor_hash/ });
});

test('requests and merges by class of ray add up to the RT unit\'s when every ray is looked up', async (t) => {
  const v = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_closest_hit=1'], 'cornell')).stats.values;
  const sum = (kind: string) =>
    ['not_predicted', 'verified', 'mispredicted_prediction', 'mispredicted_restart'].reduce((a, c) => a + v[`rt_predictor_${kind}_${c}`]!, 0);
  t.is(sum('requests'), v.rt_total_requests);
  t.is(sum('merged'), v.rt_merged_in_warp! + v.rt_merged_across_warps!);
  t.true(v.rt_predictor_requests_not_predicted! > 0);
});

test('class stats: a ray waits for its lookup before traversing; repacked rays wait in the collector; each class has a latency', async (t) => {
  const v = (await run(['gpgpu_rt_predictor=1'])).stats.values;
  t.true(v.rt_predictor_avg_pretraversal_cycles! >= v.rt_predictor_avg_lookup_queue_cycles!);
  t.true(v.rt_predictor_repacked_rays! > 0 && v.rt_predictor_repacked_rays! <= v.rt_predictor_predicted!);
  t.true(v.rt_predictor_avg_collector_cycles! > 0);
  for (const c of ['not_predicted', 'verified', 'mispredicted']) t.true(v[`rt_predictor_latency_${c}`]! > 0, c);
  // Only mispredicted rays restart from the root.
  t.true(v.rt_predictor_requests_mispredicted_restart! > 0);
  const off = (await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_repack=0'])).stats.values;
  t.is(off.rt_predictor_repacked_rays, 0);
  t.is(off.rt_predictor_avg_collector_cycles, 0);
});

test('oracle never: every occlusion ray is looked up and none predicted, so node fetches are the full traversals\'', async (t) => {
  const base = await run([]);
  const never = await run(['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=never']);
  t.deepEqual(Buffer.from(never.prepared.host.output!.levels[0]!.data.buffer), Buffer.from(base.prepared.host.output!.levels[0]!.data.buffer));
  const v = never.stats.values;
  t.true(v.rt_predictor_lookups! > 0);
  t.is(v.rt_predictor_predicted, 0);
  t.is(v.rt_predictor_nodes, v.rt_predictor_baseline_nodes);
  t.is(v.rt_predictor_repacked_warps, 0);
  t.is(v.rt_total_transactions, base.stats.values.rt_total_transactions);
});
