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
