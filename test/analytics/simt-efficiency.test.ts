import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { formatHistogram, simtEfficiency, simtEfficiencyByInvocation } from '../../src/analytics/simt-efficiency.js';
import { AnalysisInputError } from '../../src/analytics/site-table.js';
import { DumpWriter, FixtureMeta, FULL, lanes } from './dump-fixture.js';

/** Two warps through entry(5) -> then(3, lanes 0-11) / else(4, lanes 12-31) -> merge(2). */
function branch12of20() {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const entry = f.site({ kind: 'block', shader: rg, insts: 5 });
  const then = f.site({ kind: 'block', shader: rg, insts: 3 });
  const els = f.site({ kind: 'block', shader: rg, insts: 4 });
  const merge = f.site({ kind: 'block', shader: rg, insts: 2 });
  const w = new DumpWriter(f.meta);
  for (const base of [0, 32]) {
    w.warpBallot(base, FULL, entry);
    w.warpBallot(base, lanes(0, 12), then);
    w.warpBallot(base, lanes(12, 32), els);
    w.warpBallot(base, FULL, merge);
  }
  return { f, w, entry, then, els, merge };
}

test('2-way branch with 12/20 lanes: efficiency and histograms', (t) => {
  const { f, w, then, els, entry } = branch12of20();
  const r = simtEfficiency(readDump(w.bytes(), f.meta), f.meta);
  t.is(r.overall.warpExecutions, 8);
  t.is(r.overall.activeThreads, 192);
  t.is(r.overall.efficiency, 0.75); // 96 / (4 * 32) per warp
  t.is(r.overall.warpInstructions, 28);
  t.is(r.overall.threadInstructions, 680); // 32*5 + 12*3 + 20*4 + 32*2 = 340 per warp
  t.is(r.overall.instructionEfficiency, 680 / (28 * 32));
  const site = (s: number) => r.perSite.find((p) => p.site === s)!;
  t.is(site(then).histogram[12], 2);
  t.is(site(then).executions, 2);
  t.is(formatHistogram(site(then).histogram), '12:2');
  t.is(formatHistogram(site(els).histogram), '20:2');
  t.is(formatHistogram(site(entry).histogram), '32:2');
  t.is(r.perShader[0]!.efficiency, 0.75);
});

test('per-shader split and per-invocation rows', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const ch = f.shader('closestHit', 'ch');
  const a = f.site({ kind: 'shaderEntry', shader: rg, insts: 2 });
  const b = f.site({ kind: 'shaderEntry', shader: ch, insts: 1 });
  const w1 = new DumpWriter(f.meta);
  w1.warpBallot(0, FULL, a);
  w1.warpBallot(0, lanes(0, 8), b);
  w1.warpBallot(0, lanes(8, 16), b);
  const w2 = new DumpWriter(f.meta);
  w2.warpBallot(0, lanes(0, 16), a);
  const r = simtEfficiency(readDump(w1.bytes(), f.meta), f.meta);
  t.is(r.perShader[0]!.efficiency, 1);
  t.is(r.perShader[1]!.efficiency, 0.25);
  t.is(r.overall.efficiency, 48 / 96);
  const rows = simtEfficiencyByInvocation(
    [{ name: 'primary', dump: readDump(w1.bytes(), f.meta) }, { name: 'shadow', dump: readDump(w2.bytes(), f.meta) }],
    f.meta,
  );
  t.deepEqual(rows.map((x) => [x.invocation, x.efficiency]), [['primary', 0.5], ['shadow', 0.5]]);
});

test('formatHistogram lists buckets from most active down', (t) => {
  const h = new Array(33).fill(0);
  h[32] = 22072;
  h[3] = 5;
  t.is(formatHistogram(h), '32:22072,3:5');
});

test('a dump without block sites is rejected with the mode to use', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  f.site({ kind: 'pipelineEntry', shader: rg });
  const w = new DumpWriter(f.meta);
  const err = t.throws(() => simtEfficiency(readDump(w.bytes(), f.meta), f.meta), { instanceOf: AnalysisInputError });
  t.regex(err.message, /--mode simt/);
});
