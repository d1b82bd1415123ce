import test from 'ava';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { lifetimes } from '../../../src/analytics/lifetimes.js';
import { workHeatmap } from '../../../src/analytics/work-heatmap.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { bounceLoopShader } from '../../primitives/ir-fixture.js';
import { bytesOf, runLaunch } from './run-instrumented.js';

test('trace: CreateWarpId at the raygen entry and ThreadUpdate() at every block', (t) => {
  const f = bounceLoopShader();
  const meta = instrumentModule(f.m, 'trace');
  t.deepEqual(verifyModule(f.m), []);
  t.deepEqual(meta.sites.map((s) => [s.kind, s.entryWords]), [
    ['warpId', 3], ['blockTrace', 2], ['blockTrace', 2], ['blockTrace', 2], ['blockTrace', 2], ['blockTrace', 2],
  ]);
});

test('trace end to end: lifetimes of a loop with per-lane trip counts (hand computed)', (t) => {
  const f = bounceLoopShader();
  const meta = instrumentModule(f.m, 'trace');
  const dump = readDump(bytesOf(runLaunch(f.m, 64)), meta);
  const r = lifetimes(dump, meta);
  // n = x % 4 trips: entry + (n + 1) headers + n bodies + n latches + exit = 3n + 3 blocks.
  t.deepEqual(Array.from(r.threadBlocks.subarray(0, 8)), [3, 6, 9, 12, 3, 6, 9, 12]);
  t.deepEqual(r.thread.histogram, [[3, 16], [6, 16], [9, 16], [12, 16]]);
  // A warp runs entry, 4 header, 3 body, 3 latch executions and the exit.
  t.deepEqual(Array.from(r.warpBlocks), [12, 12]);
  const h = workHeatmap(dump, meta, { width: 64, height: 1 });
  t.deepEqual(Array.from(h.values.subarray(0, 4)), [3, 6, 9, 12]);
});
