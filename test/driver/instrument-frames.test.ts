/**
 * Instrumented multi-frame runs (issue 24): one dump per frame (the buffer emptied between frames),
 * per-frame figures in the run record, the analysed frame chosen by analyseFrame, and SIMT
 * efficiency summed over frames equal to the per-frame counts added.
 */
import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { runRecord } from '../../src/driver/run-dir.js';
import { simtEfficiency, sumSimtEfficiency } from '../../src/analytics/index.js';
import { frameCharts } from '../../src/report/frame-charts.js';
import { compileWorkload, instrument, simulate } from '../../src/api/pipeline.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'multi-frame', 'workload.json');

test('one dump per frame; the analysed frame; per-frame figures; the sum over frames', async (t) => {
  const r = await instrumentWorkload(FIXTURE, 'simt', { frames: 3, analyseFrame: 1 });
  const run = r.runs[0]!;
  t.is(run.frames!.length, 3);
  t.is(run.analysedFrame, 1);
  t.is(run.dump, run.frames![1]!.dump);
  // Each frame's dump holds that frame alone: the same launch, the same words.
  const words = run.frames!.map((f) => f.dump.wordsWritten);
  t.true(words[0]! > 0);
  t.deepEqual(words, [words[0], words[0], words[0]]);
  t.is(run.frames![2]!.dump.warpIdCount, run.frames![0]!.dump.warpIdCount);
  const record = runRecord(r);
  t.deepEqual(record.modes[0]!.perFrame!.map((f) => f.frame), [0, 1, 2]);
  t.is(record.modes[0]!.perFrame![0]!.rays, 64);
  t.truthy(record.modes[0]!.perFrame![0]!.dumpSimtEfficiency);
  t.is(frameCharts(record.modes).length, 4);
  const per = run.frames!.map((f) => simtEfficiency(f.dump, run.metadata));
  const sum = sumSimtEfficiency(per, run.metadata);
  t.is(sum.overall.warpExecutions, per.reduce((n, p) => n + p.overall.warpExecutions, 0));
  t.is(sum.overall.efficiency, per[0]!.overall.efficiency);
});

test('the SDK runs every frame and returns each frame\'s dump', async (t) => {
  const w = instrument(await compileWorkload(FIXTURE), 'simt');
  const s = await simulate(w, { frames: 2, config: 'mobile' });
  t.is(s.frames.length, 2);
  t.truthy(s.frames[1]!.dump);
  t.is(s.timing!.values.gpu_sim_cycle, s.frames[0]!.timing!.values.gpu_sim_cycle! + s.frames[1]!.timing!.values.gpu_sim_cycle!);
  t.is(s.counters.threads, 128);
  t.is(s.instrumentation!.dump, s.frames[1]!.dump!);
});
