import test from 'ava';
import { analyse, compileWorkload, instrument, simulate } from '../../src/api/pipeline.js';
import { LaunchLimitError } from '../../src/sim/workload/launch-limits.js';
import { InstrumentationBufferTooSmallError } from '../../src/analytics/dump-reader.js';
import { INSTRUMENTATION_BUFFER_NAME } from '../../src/primitives/buffer-layout.js';
import { fidelityCheck } from '../../src/driver/fidelity-check.js';
import { prepareRun } from '../../src/driver/run-workload.js';

const size = { width: 32, height: 8 };

test('compile -> instrument -> simulate -> analyse: simt from the dump matches the simulator per block', async (t) => {
  const w = await compileWorkload('tri');
  const i = instrument(w, 'simt');
  // The compiled workload is left as it was: instrument works on copies.
  t.false(w.modules.some((m) => m.globals.some((g) => g.name === INSTRUMENTATION_BUFFER_NAME)));
  t.true(i.modules.some((m) => m.globals.some((g) => g.name === INSTRUMENTATION_BUFFER_NAME)));
  t.deepEqual(i.metadata.modes, ['simt']);
  const run = await simulate(i, size);
  t.is(run.params.width, 32);
  t.is(run.counters.threads, 256);
  const a = analyse(run);
  t.truthy(a.results.simt);
  t.deepEqual(Object.keys(a.utilities), ['simt']);
  // The same check the CLI prints: the dump's per-block histograms equal the core's counters.
  const prepared = await prepareRun('tri', { ...size, instrumented: i.metadata, bufferWords: run.instrumentation!.dump.capacityWords }, undefined, i.preparation);
  const check = fidelityCheck(a.results.simt!, i.metadata, prepared.linked, prepared.program, run.counters);
  t.true(check.holds, JSON.stringify(check.mismatches.slice(0, 3)));
});

test('utilities sharing one dump each read their own sites: simt alone equals simt beside trace', async (t) => {
  const w = await compileWorkload('tri');
  const alone = analyse(await simulate(instrument(w, 'simt'), size));
  const both = analyse(await simulate(instrument(w, ['trace', 'simt']), size));
  t.deepEqual(both.results.simt!.overall, alone.results.simt!.overall);
  t.truthy(both.results.lifetimes);
  t.truthy(both.heatmap);
  t.is(both.heatmap!.width, 32);
});

test('an uninstrumented run has no dump; analysing it is a clear error', async (t) => {
  const w = await compileWorkload('tri');
  const run = await simulate(w, size);
  t.is(run.instrumentation, undefined);
  t.truthy(run.image);
  t.throws(() => analyse(run), { message: /not instrumented/ });
});

test('a fixed buffer that is too small names the size needed; bad utility names are refused', async (t) => {
  const w = await compileWorkload('tri');
  const e = await t.throwsAsync(simulate(instrument(w, 'trace'), { ...size, bufferWords: 64 }), { instanceOf: InstrumentationBufferTooSmallError });
  t.true(e!.requiredWords > 64);
  t.throws(() => instrument(w, 'nope' as 'simt'), { message: /unknown built-in utility 'nope'/ });
  t.throws(() => instrument(instrument(w, 'simt'), 'trace'), { message: /already instrumented/ });
});

test('simulate with a GPU configuration runs the timing model and still returns the dump', async (t) => {
  const w = await compileWorkload('tri');
  const i = instrument(w, 'its');
  const timed = await simulate(i, { ...size, config: 'mobile' });
  t.true((timed.timing!.values.gpu_sim_cycle ?? 0) > 0);
  const functional = await simulate(i, size);
  // The same warps execute either way: the same dump entries and the same ITS evidence.
  t.is(timed.instrumentation!.dump.entryCount, functional.instrumentation!.dump.entryCount);
  t.deepEqual(analyse(timed).results.its, analyse(functional).results.its);
  await t.throwsAsync(simulate(i, { ...size, config: 'no-such-preset' }), { message: /no-such-preset/ });
});

test('simulate refuses a launch past the memory budget with LaunchLimitError before running', async (t) => {
  const w = await compileWorkload('tri');
  const e = await t.throwsAsync(simulate(w, { width: 64, height: 64, memoryBudgetBytes: 1 << 20 }), { instanceOf: LaunchLimitError });
  t.regex(e!.message, /^--width\/--height: launch 64x64 needs about 0\.00 GiB .*over the memory budget of 0\.00 GiB/);
});
