import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { executionTraces, threadTrace, warpTrace } from '../../src/analytics/execution-traces.js';
import { DumpWriter, FixtureMeta, lanes } from './dump-fixture.js';

test('per-thread and per-warp traces of a loop with per-lane trip counts', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'blockTrace', shader: rg });
  const body = f.site({ kind: 'blockTrace', shader: rg });
  const exit = f.site({ kind: 'blockTrace', shader: rg });
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, lanes(0, 4), wid);
  w.createWarpId(32, lanes(0, 2), wid);
  w.threadsUpdate(0, lanes(0, 4), entry);
  w.threadsUpdate(32, lanes(0, 2), entry);
  w.threadsUpdate(0, 0b0111, body);
  w.threadsUpdate(0, 0b0110, body);
  w.threadsUpdate(0, 0b0100, body);
  w.threadsUpdate(32, lanes(0, 2), exit);
  w.threadsUpdate(0, lanes(0, 4), exit);
  const tr = executionTraces(readDump(w.bytes(), f.meta), f.meta);
  t.deepEqual(Array.from(threadTrace(tr, 2)), [entry, body, body, body, exit]);
  t.deepEqual(Array.from(threadTrace(tr, 3)), [entry, exit]);
  t.deepEqual(Array.from(threadTrace(tr, 33)), [entry, exit]);
  t.deepEqual(Array.from(threadTrace(tr, 5)), []);
  const w0 = warpTrace(tr, 0);
  t.deepEqual(Array.from(w0.sites), [entry, body, body, body, exit]);
  t.deepEqual(Array.from(w0.lanes), [0b1111, 0b0111, 0b0110, 0b0100, 0b1111]);
  t.deepEqual(Array.from(warpTrace(tr, 1).sites), [entry, exit]);
});

test('warp executions follow the warp ids, not buffer adjacency (GPU atomics interleave warps)', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'blockTrace', shader: rg });
  const exit = f.site({ kind: 'blockTrace', shader: rg });
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, lanes(0, 4), wid);
  w.createWarpId(32, lanes(0, 4), wid);
  // Lanes of warp 0 and warp 1 alternate in the buffer, as on the H100.
  for (let l = 0; l < 4; l++) {
    w.threadUpdate(l, entry);
    w.threadUpdate(32 + l, entry);
  }
  for (let l = 0; l < 4; l++) {
    w.threadUpdate(32 + l, exit);
    w.threadUpdate(l, exit);
  }
  const tr = executionTraces(readDump(w.bytes(), f.meta), f.meta);
  for (const warp of [0, 1]) {
    const x = warpTrace(tr, warp);
    t.deepEqual(Array.from(x.sites), [entry, exit], `warp ${warp}`);
    t.deepEqual(Array.from(x.lanes), [0b1111, 0b1111], `warp ${warp}`);
  }
});
