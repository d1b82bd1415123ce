/**
 * The rtnode microbenchmark's workload (bench/microbench/rtnode/) holds the property its expected
 * figures rest on (bench/microbench/rt-node.ts): one ray makes one fixed chain of 10 transactions
 * (TLAS header, TLAS root, 128 B instance leaf, BLAS header, 4 BLAS internal nodes, 8 B leaf
 * descriptor, triangle leaf = 7 nodes, 21 chunks of 32 B) on every trace, and misses (no hit shader, no intersection-table store); lanes of a warp tracing the same
 * ray share each fetch. Not a check of the timing: the achieved-vs-expected ratios are the bench's.
 */
import test from 'ava';
import { join } from 'node:path';
import { simulateWorkload } from '../../../src/driver/simulate-workload.js';

const workload = join(import.meta.dirname, '..', '..', '..', 'bench', 'microbench', 'rtnode');
const push = (traces: number, activeLanes: number) => ({ traces, activeLanes, triBase: 600, triStride: 0, laneStride: 0, triCount: 1296, evictLines: 0 });

test('one ray fetches the same 7-node, 10-transaction, 21-chunk chain on each trace and misses', async (t) => {
  const r = await simulateWorkload(workload, { config: 'rtx2060', overrides: ['gpgpu_n_clusters=1'], push: push(2, 1), width: 32, height: 1, spp: 1 });
  const s = r.stats.values;
  t.is(s.rt_total_rays, 2);
  t.is(s.rt_avg_nodes_per_ray, 7);
  t.is(s.rt_total_transactions, 2 * 10);
  t.is(s.rt_total_requests, 2 * 21);
  t.is(s.rt_stack_spills, 0);
  t.is(s.rt_writes, 0);
  t.is(r.prepared.rt.counters.hits, 0);
});

test('lanes of a warp tracing the same ray share its fetches', async (t) => {
  const r = await simulateWorkload(workload, { config: 'rtx2060', overrides: ['gpgpu_n_clusters=1'], push: push(1, 32), width: 32, height: 1, spp: 1 });
  t.is(r.stats.values.rt_total_rays, 32);
  t.is(r.stats.values.rt_total_requests, 21);
});
