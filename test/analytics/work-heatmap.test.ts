import test from 'ava';
import { PNG } from 'pngjs';
import { readDump } from '../../src/analytics/dump-reader.js';
import { heatmapPng, workHeatmap } from '../../src/analytics/work-heatmap.js';
import { AnalysisInputError } from '../../src/analytics/site-table.js';
import { DumpWriter, FixtureMeta } from './dump-fixture.js';

function fixture() {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const small = f.site({ kind: 'blockTrace', shader: rg, insts: 2 });
  const big = f.site({ kind: 'blockTrace', shader: rg, insts: 10 });
  const w = new DumpWriter(f.meta);
  // 4x2 launch: every thread runs `small`; thread (1, 1) (twi 5) also runs `big` twice.
  for (let twi = 0; twi < 8; twi++) w.threadUpdate(twi, small);
  w.threadUpdate(5, big);
  w.threadUpdate(5, big);
  return { meta: f.meta, dump: readDump(w.bytes(), f.meta) };
}

test('blocks and instructions per pixel', (t) => {
  const { meta, dump } = fixture();
  const blocks = workHeatmap(dump, meta, { width: 4, height: 2 });
  t.deepEqual(Array.from(blocks.values), [1, 1, 1, 1, 1, 3, 1, 1]);
  t.is(blocks.max, 3);
  const insts = workHeatmap(dump, meta, { width: 4, height: 2, unit: 'instructions' });
  t.deepEqual(Array.from(insts.values), [2, 2, 2, 2, 2, 22, 2, 2]);
  t.is(insts.total, 36);
});

test('PNG has the launch size and the busiest pixel is the brightest', (t) => {
  const { meta, dump } = fixture();
  const png = PNG.sync.read(Buffer.from(heatmapPng(workHeatmap(dump, meta, { width: 4, height: 2 }))));
  t.is(png.width, 4);
  t.is(png.height, 2);
  const lum = (i: number) => png.data[i * 4]! + png.data[i * 4 + 1]! + png.data[i * 4 + 2]!;
  t.is(lum(5), 255 * 3);
  t.true(lum(0) < lum(5));
});

test('a bad launch size is a clear error', (t) => {
  const { meta, dump } = fixture();
  t.throws(() => workHeatmap(dump, meta, { width: 0, height: 2 }), { instanceOf: AnalysisInputError, message: /positive integer/ });
});
