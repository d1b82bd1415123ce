import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { lifetimes } from '../../src/analytics/lifetimes.js';
import { DumpWriter, FixtureMeta, lanes } from './dump-fixture.js';

test('loop with per-lane trip counts: thread and warp lifetimes (hand computed)', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'blockTrace', shader: rg });
  const body = f.site({ kind: 'blockTrace', shader: rg });
  const exit = f.site({ kind: 'blockTrace', shader: rg });
  const w = new DumpWriter(f.meta);
  // warp 0: 4 lanes with trip counts 1, 2, 3, 0; warp 1: 2 lanes that skip the loop.
  w.createWarpId(0, lanes(0, 4), wid);
  w.createWarpId(32, lanes(0, 2), wid);
  w.threadsUpdate(0, lanes(0, 4), entry);
  w.threadsUpdate(32, lanes(0, 2), entry); // another warp in between
  w.threadsUpdate(0, 0b0111, body); // iteration 1
  w.threadsUpdate(0, 0b0110, body); // iteration 2 follows directly: lane 1 repeats -> new warp execution
  w.threadsUpdate(0, 0b0100, body); // iteration 3
  w.threadsUpdate(32, lanes(0, 2), exit);
  w.threadsUpdate(0, lanes(0, 4), exit);
  const r = lifetimes(readDump(w.bytes(), f.meta), f.meta);
  t.deepEqual(Array.from(r.threadBlocks.subarray(0, 4)), [3, 4, 5, 2]);
  t.deepEqual([r.threadBlocks[32], r.threadBlocks[33]], [2, 2]);
  t.deepEqual(Array.from(r.warpBlocks), [5, 2]);
  t.deepEqual(r.thread.histogram, [[2, 3], [3, 1], [4, 1], [5, 1]]);
  t.deepEqual(r.thread.normalized, [[2, 1], [3, 1 / 3], [4, 1 / 3], [5, 1 / 3]]);
  t.is(r.thread.count, 6);
  t.is(r.thread.mean, 18 / 6);
  t.deepEqual(r.warp.histogram, [[2, 1], [5, 1]]);
  t.is(r.warp.max, 5);
});
