import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { hotspots, opcodeCounts } from '../../src/analytics/hotspots.js';
import { DumpWriter, FixtureMeta, FULL, lanes } from './dump-fixture.js';

function fixture() {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const ch = f.shader('closestHit', 'ch');
  const a = f.site({ kind: 'block', shader: rg, opcodes: ['binary.add', 'compare.lt', 'condBranch'], lines: [2, 3, 3] });
  const b = f.site({ kind: 'shaderEntry', shader: ch, opcodes: ['load', 'binary.add', 'return'], lines: [5, 6, 7] });
  const w = new DumpWriter(f.meta);
  w.warpBallot(0, FULL, a);
  w.warpBallot(32, FULL, a);
  w.warpBallot(0, lanes(0, 8), b);
  return { meta: f.meta, dump: readDump(w.bytes(), f.meta) };
}

test('hotspots: active threads per instruction, normalised to the pipeline maximum', (t) => {
  const { meta, dump } = fixture();
  const h = hotspots(dump, meta);
  t.is(h.maxThreadCount, 64);
  t.deepEqual(
    h.rows.map((r) => [r.shaderName, r.opcode, r.line, r.threadCount, r.warpCount, r.normalized]),
    [
      ['rg', 'binary.add', 2, 64, 2, 1],
      ['rg', 'compare.lt', 3, 64, 2, 1],
      ['rg', 'condBranch', 3, 64, 2, 1],
      ['ch', 'load', 5, 8, 1, 0.125],
      ['ch', 'binary.add', 6, 8, 1, 0.125],
      ['ch', 'return', 7, 8, 1, 0.125],
    ],
  );
  t.deepEqual(h.perShader.map((s) => [s.name, s.threadInstructions, s.warpInstructions]), [['rg', 192, 6], ['ch', 24, 3]]);
});

test('dynamic opcode counts sum over blocks, most executed first', (t) => {
  const { meta, dump } = fixture();
  t.deepEqual(opcodeCounts(dump, meta), [
    { opcode: 'binary.add', threadCount: 72, warpCount: 3 },
    { opcode: 'compare.lt', threadCount: 64, warpCount: 2 },
    { opcode: 'condBranch', threadCount: 64, warpCount: 2 },
    { opcode: 'load', threadCount: 8, warpCount: 1 },
    { opcode: 'return', threadCount: 8, warpCount: 1 },
  ]);
});

test('hotspots: instructions of an #included file are attributed to that file, not the shader', (t) => {
  const f = new FixtureMeta();
  const ch = f.shader('closestHit', 'ch', 'line1\nline2\nline3');
  const common = f.include(ch, 'common.glsl', 'c1\nc2\nc3');
  // main's block: line 2 of ch.glsl, then a call; the callee's block lives in common.glsl lines 2-3.
  const a = f.site({ kind: 'block', shader: ch, opcodes: ['load', 'call'], lines: [2, 3] });
  const b = f.site({ kind: 'block', shader: ch, opcodes: ['binary.mul', 'return'], lines: [2, 3], files: [common, common], file: 'common.glsl' });
  const w = new DumpWriter(f.meta);
  w.warpBallot(0, lanes(0, 4), a);
  w.warpBallot(0, lanes(0, 4), b);
  w.warpBallot(32, FULL, b);
  const h = hotspots(readDump(w.bytes(), f.meta), f.meta);
  t.deepEqual(
    h.rows.map((r) => [r.file, r.line, r.opcode, r.threadCount]),
    [['ch.glsl', 2, 'load', 4], ['ch.glsl', 3, 'call', 4], ['common.glsl', 2, 'binary.mul', 36], ['common.glsl', 3, 'return', 36]],
  );
});
