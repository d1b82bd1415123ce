import test from 'ava';
import { annotateSource, simtLineData } from '../../../src/analytics/annotate-source.js';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { hotspots } from '../../../src/analytics/hotspots.js';
import { formatHistogram, simtEfficiency } from '../../../src/analytics/simt-efficiency.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { branchShader } from '../../primitives/ir-fixture.js';
import { bytesOf, runLaunch } from './run-instrumented.js';

test('simt: one block site per original block, metadata describes the original blocks', (t) => {
  const f = branchShader(12);
  const originalSizes = f.fn.blocks.map((b) => b.insts.length);
  const meta = instrumentModule(f.m, 'simt');
  t.deepEqual(verifyModule(f.m), []);
  t.deepEqual(meta.modes, ['simt']);
  t.deepEqual(meta.sites.map((s) => [s.kind, s.primitive, s.entryWords, s.block]), [
    ['block', 'WarpUpdate', 3, f.blocks.entry],
    ['block', 'WarpUpdate', 3, f.blocks.then],
    ['block', 'WarpUpdate', 3, f.blocks.else],
    ['block', 'WarpUpdate', 3, f.blocks.merge],
  ]);
  t.deepEqual(meta.sites.map((s) => s.blockInstCount), originalSizes);
  t.deepEqual(meta.sites.map((s) => s.loc.line), [2, 4, 6, 8]);
  t.deepEqual(meta.sites[0]!.fields, ['thread_work_id', 'inst_id', 'active_mask']);
  const sh = meta.shaders[0]!;
  t.is(sh.name, 'branch.rgen');
  t.is(sh.stage, 'raygen');
  t.deepEqual(sh.cfg[0]!.blocks.map((b) => b.successors), [[f.blocks.then, f.blocks.else], [f.blocks.merge], [f.blocks.merge], []]);
  t.true(f.fn.blocks.length > 4, 'the primitives split blocks');
});

test('simt end to end: 2-way branch with 12/20 lanes gives the hand-computed histograms', (t) => {
  const f = branchShader(12);
  const meta = instrumentModule(f.m, 'simt');
  const dump = readDump(bytesOf(runLaunch(f.m, 64)), meta);
  t.is(dump.entryCount, 8);
  const simt = simtEfficiency(dump, meta);
  t.deepEqual(simt.perSite.map((s) => formatHistogram(s.histogram)), ['32:2', '12:2', '20:2', '32:2']);
  t.is(simt.overall.efficiency, (32 + 12 + 20 + 32) / 128);
  const h = hotspots(dump, meta);
  t.is(h.maxThreadCount, 64);
  t.is(h.rows.find((r) => r.line === 4)!.normalized, 24 / 64);
  const annotated = annotateSource(meta.shaders[0]!.sourceText, simtLineData(simt, meta, 0)).split('\n');
  t.is(annotated[1], '  /* execution count = 2 histo=32:2 */');
  t.is(annotated[2], '  work();');
  t.is(annotated[4], '    /* execution count = 2 histo=12:2 */');
  t.is(annotated[5], '    a();');
});

test('simt: a partial last warp records only its live lanes', (t) => {
  const f = branchShader(12);
  const meta = instrumentModule(f.m, 'simt');
  const simt = simtEfficiency(readDump(bytesOf(runLaunch(f.m, 40)), meta), meta);
  // warp 1 holds launch ids 32..39 (lanes 0-7): all take the then branch.
  t.deepEqual(simt.perSite.map((s) => formatHistogram(s.histogram)), ['32:1,8:1', '12:1,8:1', '20:1', '32:1,8:1']);
});

test('simt: a too-small buffer is reported with the exact size needed', (t) => {
  const f = branchShader(12);
  const meta = instrumentModule(f.m, 'simt');
  const full = runLaunch(f.m, 64);
  const needed = 2 + full[1]!;
  const err = t.throws(() => readDump(bytesOf(runLaunch(f.m, 64, 10)), meta));
  t.is(err.message, `instrumentation buffer too small: ${needed} words written, 10 available (${needed - 10} words dropped); rerun with --buffer-size ${needed}`);
  t.is(readDump(bytesOf(runLaunch(f.m, 64, needed)), meta).entryCount, 8);
});
