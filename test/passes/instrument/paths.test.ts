import test from 'ava';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { threadCompaction } from '../../../src/analytics/thread-compaction.js';
import { threadPaths } from '../../../src/analytics/thread-paths.js';
import { buildCfg } from '../../../src/ir/cfg.js';
import { dominatorTree } from '../../../src/ir/dominators.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { naturalLoops } from '../../../src/passes/instrument/paths.js';
import { bounceLoopShader } from '../../primitives/ir-fixture.js';
import { bytesOf, runLaunch } from './run-instrumented.js';

test('paths: pre-traceRay in the loop, sync point at the loop exit (Fig. 9)', (t) => {
  const f = bounceLoopShader();
  const meta = instrumentModule(f.m, 'paths');
  t.deepEqual(verifyModule(f.m), []);
  t.deepEqual(meta.sites.map((s) => [s.kind, s.block, s.traceRay]), [
    ['warpId', f.blocks.entry, undefined],
    ['pipelineEntry', f.blocks.entry, undefined],
    ['preTraceRay', f.blocks.body, 0],
    ['syncPoint', f.blocks.exit, 0],
  ]);
  t.is(meta.sites[2]!.loc.line, 4);
});

test('paths end to end: per-lane bounce counts give the hand-computed paths and compaction', (t) => {
  const f = bounceLoopShader();
  const meta = instrumentModule(f.m, 'paths');
  const dump = readDump(bytesOf(runLaunch(f.m, 64)), meta);
  t.is(dump.warpIdCount, 2);
  // lane x bounces x % 4 times: paths '', '1', '11', '111', 16 threads each.
  const p = threadPaths(dump, meta);
  t.is(p.threads, 64);
  t.is(p.uniquePaths, 4);
  t.deepEqual(p.top.map((x) => [x.path, x.fraction]), [['', 0.25], ['1', 0.25], ['11', 0.25]]);
  // Each warp: 24, 16, 8 active lanes over 3 executions. Window 2: 48 -> 2, 32 -> 1, 16 -> 1.
  const c = threadCompaction(dump, meta);
  t.is(c[0]!.warpsCompacted, 0);
  t.is(c[1]!.warpExecutions, 6);
  t.is(c[1]!.compactedExecutions, 4);
  t.is(c[1]!.warpsCompacted, 1 - 4 / 6);
});

test('naturalLoops finds the bounce loop body', (t) => {
  const f = bounceLoopShader();
  const cfg = buildCfg(f.fn);
  const loops = naturalLoops(cfg, dominatorTree(cfg));
  t.is(loops.length, 1);
  t.deepEqual([...loops[0]!].sort(), [f.blocks.header, f.blocks.body, f.blocks.latch].sort());
});
