import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { threadPaths } from '../../src/analytics/thread-paths.js';
import { bounceLoopDump, DumpWriter, FixtureMeta, lanes } from './dump-fixture.js';

test('thread paths: unique count and top-3 frequencies (hand computed)', (t) => {
  const { meta, words } = bounceLoopDump([(l) => l % 4, (l) => (l < 8 ? 2 : 0)]);
  const p = threadPaths(readDump(words, meta), meta);
  t.is(p.threads, 64);
  t.is(p.uniquePaths, 4); // '', '1', '11', '111'
  t.deepEqual(p.top, [
    { path: '', threads: 32, fraction: 0.5 },
    { path: '11', threads: 16, fraction: 0.25 },
    { path: '1', threads: 8, fraction: 0.125 },
  ]);
});

test('thread paths: three distinct paths with rounds separated by the sync point', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'pipelineEntry', shader: rg });
  const pre = f.site({ kind: 'preTraceRay', shader: rg, traceRay: 0 });
  const sync = f.site({ kind: 'syncPoint', shader: rg, traceRay: 0 });
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, lanes(0, 10), wid);
  w.warpBallot(0, lanes(0, 10), entry);
  // round 0: lanes 0-9 bounce once, lanes 0-4 twice
  w.warpBallot(0, lanes(0, 10), pre);
  w.warpBallot(0, lanes(0, 5), pre);
  w.warpBallot(0, lanes(0, 10), sync);
  // round 1: lanes 0-1 once
  w.warpBallot(0, lanes(0, 2), pre);
  w.warpBallot(0, lanes(0, 10), sync);
  const p = threadPaths(readDump(w.bytes(), f.meta), f.meta);
  t.is(p.threads, 10);
  t.is(p.uniquePaths, 3);
  t.deepEqual(p.top.map((x) => [x.path, x.fraction]), [
    ['t0.r0:1', 0.5],
    ['t0.r0:11', 0.3],
    ['t0.r0:11 t0.r1:1', 0.2],
  ]);
});

test('a thread that skips an iteration keeps its zero inside the path', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'pipelineEntry', shader: rg });
  const pre = f.site({ kind: 'preTraceRay', shader: rg, traceRay: 0 });
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, lanes(0, 2), wid);
  w.warpBallot(0, lanes(0, 2), entry);
  w.warpBallot(0, lanes(0, 2), pre);
  w.warpBallot(0, lanes(1, 2), pre); // lane 0 skips this one (e.g. a conditional traceRay)
  w.warpBallot(0, lanes(0, 2), pre);
  const p = threadPaths(readDump(w.bytes(), f.meta), f.meta);
  t.deepEqual(p.top.map((x) => x.path).sort(), ['101', '111']);
});
