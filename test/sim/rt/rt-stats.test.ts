import test from 'ava';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { proceduralScene } from '../../../src/sim/rt/procedural-scenes.js';
import { traverse } from '../../../src/sim/rt/traversal.js';
import { RAY_FLAG } from '../../../src/sim/rt/ray-query.js';
import { TransactionRecord } from '../../../src/sim/rt/transaction-record.js';
import { accelerationStructureSummary, accumulateTraversal, createRtStats, maxTreeDepth, rtStatsSummary } from '../../../src/sim/rt/rt-stats.js';

test('stats over a cornell frame: rays, nodes per ray, hits, candidates, transactions', (t) => {
  const as = buildAccelerationStructure(proceduralScene('cornell', 0));
  const stats = createRtStats();
  const rec = new TransactionRecord();
  let nodes = 0, committed = 0, candidates = 0, tx = 0;
  for (let j = 0; j < 16; j++) {
    for (let i = 0; i < 16; i++) {
      const dir: [number, number, number] = [(i - 7.5) / 16 * 0.7, (j - 7.5) / 16 * 0.7, 1];
      // Half the rays treat geometry as non-opaque: they produce any-hit candidates instead of commits.
      const flags = (i + j) % 2 ? RAY_FLAG.noOpaque : 0;
      const r = traverse(as, { origin: [278, 278, -800], direction: dir, tmin: 0, tmax: Infinity, flags, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 1 }, { recordInto: rec });
      nodes += r.nodesVisited;
      if (r.committed) committed++;
      candidates += r.candidates.length;
      tx += rec.count;
      accumulateTraversal(stats, r);
    }
  }
  const s = rtStatsSummary(stats, as);
  t.is(s.rays, 256);
  t.is(s.avgNodesVisitedPerRay, nodes / 256);
  t.is(s.closestHitCandidates, committed);
  t.is(s.anyHitCandidates, candidates);
  t.is(s.intersectionCandidates, 0);
  t.true(committed > 100 && candidates > 100);
  t.is(s.avgTransactionsPerRay, tx / 256);
  t.is(s.maxTreeDepth, maxTreeDepth(as));
  t.is(s.hitRate, 1);
  let hist = 0;
  for (const c of stats.nodesVisitedHistogram) hist += c;
  t.is(hist, 256);
});

test('acceleration structure summary counts nodes by kind', (t) => {
  const scene = proceduralScene('cornell', 0);
  const as = buildAccelerationStructure(scene);
  const s = accelerationStructureSummary(as);
  t.is(s.instanceLeaves, 3);
  t.is(s.triangleLeaves, 24);
  t.is(s.proceduralLeaves, 0);
  t.is(s.internalNodes + s.instanceLeaves + s.triangleLeaves, as.nodeCount);
  t.is(s.totalBytes, as.totalBytes);
  t.true(s.totalBytes >= 64 * s.internalNodes + 128 * s.instanceLeaves + 64 * s.triangleLeaves);
  t.is(s.blasCount, 2);
  t.true(s.treelets >= 3);
});
