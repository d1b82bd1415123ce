import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { threadCompaction } from '../../src/analytics/thread-compaction.js';
import { bounceLoopDump } from './dump-fixture.js';

test('compaction: % warps compacted per window (hand computed)', (t) => {
  // warp 0: lane l bounces l % 4 times -> 24, 16, 8 active; warp 1: lanes 0-7 bounce twice -> 8, 8.
  const { meta, words } = bounceLoopDump([(l) => l % 4, (l) => (l < 8 ? 2 : 0)]);
  const r = threadCompaction(readDump(words, meta), meta);
  const byWindow = Object.fromEntries(r.map((x) => [String(x.window), x]));
  t.is(byWindow['1']!.warpExecutions, 5);
  t.is(byWindow['1']!.compactedExecutions, 5);
  t.is(byWindow['1']!.warpsCompacted, 0);
  // window of 2: iteration 0: 24+8 -> 1 warp, iteration 1: 16+8 -> 1, iteration 2: 8 -> 1.
  t.is(byWindow['2']!.compactedExecutions, 3);
  t.is(byWindow['2']!.warpsCompacted, 1 - 3 / 5);
  t.is(byWindow['all']!.warpsCompacted, 1 - 3 / 5);
  t.deepEqual(r.map((x) => x.window), [1, 2, 4, 8, 16, 'all']);
});

test('compaction windows only merge consecutive warps', (t) => {
  // Four warps with 8 lanes each bouncing once: window 2 packs pairs, window 4 packs all.
  const { meta, words } = bounceLoopDump([0, 1, 2, 3].map(() => (l: number) => (l < 8 ? 1 : 0)));
  const r = threadCompaction(readDump(words, meta), meta);
  t.deepEqual(r.map((x) => [x.window, x.compactedExecutions]), [[1, 4], [2, 2], [4, 1], [8, 1], [16, 1], ['all', 1]]);
  t.is(r[1]!.warpsCompacted, 0.5);
  t.is(r[2]!.warpsCompacted, 0.75);
});

test('compaction windows follow launch order, not the order warps drew their ids', (t) => {
  // Launch order: warps of 16, 16, 24, 24 active lanes. Pairs in launch order: 16+16 -> 1, 24+24 -> 2.
  const trips = [16, 16, 24, 24].map((n) => (l: number) => (l < n ? 1 : 0));
  const inOrder = threadCompaction(readDump(bounceLoopDump(trips).words, bounceLoopDump(trips).meta), bounceLoopDump(trips).meta);
  // A GPU may run them 0, 2, 1, 3: warp ids then pair 16+24 and 16+24 (2 + 2) if windows used id order.
  const shuffled = bounceLoopDump(trips, [0, 2, 1, 3]);
  const r = threadCompaction(readDump(shuffled.words, shuffled.meta), shuffled.meta);
  t.is(r[1]!.compactedExecutions, 3);
  t.deepEqual(r.map((x) => x.compactedExecutions), inOrder.map((x) => x.compactedExecutions));
});
