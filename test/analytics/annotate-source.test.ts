import test from 'ava';
import { annotatedFiles, annotateSource, simtLineData } from '../../src/analytics/annotate-source.js';
import { readDump } from '../../src/analytics/dump-reader.js';
import { simtEfficiency } from '../../src/analytics/simt-efficiency.js';
import { DumpWriter, FixtureMeta, FULL, lanes } from './dump-fixture.js';

test('Fig. 7 form: comments above the lines that have data, indented like them', (t) => {
  const histo = new Array(33).fill(0);
  histo[32] = 22072;
  const src = 'void main() {\n  if(gl_LaunchIDNV.z != 0){\n    x();\n  }\n}';
  const out = annotateSource(src, new Map([[2, { executionCount: 22072, histogram: histo }], [3, { executionCount: 11036 }]]));
  t.is(
    out,
    'void main() {\n  /* execution count = 22072 histo=32:22072 */\n  if(gl_LaunchIDNV.z != 0){\n    /* execution count = 11036 */\n    x();\n  }\n}',
  );
});

test('simtLineData merges sites on one line and skips other shaders', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const ch = f.shader('closestHit', 'ch');
  f.meta.shaders[rg]!.sourcePath = '';
  const a = f.site({ kind: 'block', shader: rg, line: 3 });
  const b = f.site({ kind: 'block', shader: rg, line: 3 });
  const c = f.site({ kind: 'block', shader: ch, line: 3 });
  const w = new DumpWriter(f.meta);
  w.warpBallot(0, FULL, a);
  w.warpBallot(0, lanes(0, 12), b);
  w.warpBallot(0, lanes(0, 12), c);
  const simt = simtEfficiency(readDump(w.bytes(), f.meta), f.meta);
  const data = simtLineData(simt, f.meta, rg);
  t.deepEqual([...data.keys()], [3]);
  t.is(data.get(3)!.executionCount, 2);
  t.is(annotateSource('a\nb\nc', data).split('\n')[2], '/* execution count = 2 histo=32:1,12:1 */');
});

test('a line that never ran says so without an empty histogram', (t) => {
  t.is(annotateSource('x', new Map([[1, { executionCount: 0, histogram: new Array(33).fill(0) }]])), '/* execution count = 0 */\nx');
});

test('simtLineData keeps each file to its own lines: an include line 2 never lands on the shader line 2', (t) => {
  const f = new FixtureMeta();
  const ch = f.shader('closestHit', 'ch', '#include "common.glsl"\nvoid main() {\n  shade();\n}');
  const common = f.include(ch, 'common.glsl', 'void shade() {\n  x = 1;\n}');
  const own = f.site({ kind: 'block', shader: ch, line: 3 });
  const inc = f.site({ kind: 'block', shader: ch, line: 2, files: [common], file: 'common.glsl' });
  const w = new DumpWriter(f.meta);
  w.warpBallot(0, FULL, own);
  w.warpBallot(0, lanes(0, 12), inc);
  const simt = simtEfficiency(readDump(w.bytes(), f.meta), f.meta);
  t.deepEqual([...simtLineData(simt, f.meta, ch).entries()].map(([l, a]) => [l, a.executionCount]), [[3, 1]]);
  const included = simtLineData(simt, f.meta, ch, 'common.glsl');
  t.deepEqual([...included.keys()], [2]);
  t.is(annotateSource('void shade() {\n  x = 1;\n}', included).split('\n')[1], '  /* execution count = 1 histo=12:1 */');
  const files = annotatedFiles(simt, f.meta);
  t.deepEqual(files.map((x) => [x.name, x.path, x.included]), [['ch', 'ch.glsl', false], ['ch+common.glsl', 'common.glsl', true]]);
});

test('annotatedFiles leaves out an include whose code never ran', (t) => {
  const f = new FixtureMeta();
  const ch = f.shader('closestHit', 'ch', 'a\nb');
  const common = f.include(ch, 'common.glsl', 'c');
  const own = f.site({ kind: 'block', shader: ch, line: 1 });
  f.site({ kind: 'block', shader: ch, line: 1, files: [common], file: 'common.glsl' });
  const w = new DumpWriter(f.meta);
  w.warpBallot(0, FULL, own);
  const simt = simtEfficiency(readDump(w.bytes(), f.meta), f.meta);
  t.deepEqual(annotatedFiles(simt, f.meta).map((x) => x.name), ['ch']);
});
