import test from 'ava';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { listBuiltinWorkloads } from '../../src/sim/workload/load-manifest.js';
import { InstrumentationBufferTooSmallError } from '../../src/analytics/dump-reader.js';

// The fidelity requirement: on every built-in workload the SIMT efficiency computed
// from the simt dump equals the simulator's own active-lane counters (per block histograms too).
for (const w of listBuiltinWorkloads()) {
  test(`simt fidelity holds on ${w.name}`, async (t) => {
    const r = await instrumentWorkload(w.name, 'simt', { width: 16, height: 8 });
    const f = r.fidelity!;
    t.truthy(f);
    t.true(f.sitesCompared > 0);
    t.deepEqual(f.mismatches, []);
    t.is(f.fromDump, f.fromSimulator);
    t.true(f.fromDump > 0 && f.fromDump <= 1);
  });
}

test('all modes run and feed every analysis', async (t) => {
  const r = await instrumentWorkload('ref', 'all', { width: 16, height: 16 });
  t.deepEqual(r.runs.map((x) => x.mode), ['simt', 'divergence', 'paths', 'trace', 'its']);
  const res = r.results;
  t.truthy(res.simt && res.hotspots && res.opcodes && res.divergence && res.compaction && res.paths && res.lifetimes && res.its);
  t.truthy(r.heatmap);
  // Under the SIMT stack every warp leaves the pipeline once per entry (V-Vision Fig. 11).
  t.is(res.its![0]!.evidence.exitPerEntry, 1);
  // Every thread is accounted for in the trace: one lifetime per launched thread.
  t.is(res.lifetimes!.thread.count, 16 * 16);
  // Slots add up.
  const d = res.divergence!;
  t.true(d.activeSlots + d.controlFlow + d.indirectFunctionCall + d.earlyReturn <= d.totalSlots);
});

test('auto buffer size reruns once with the exact size; a fixed size too small is reported with that size', async (t) => {
  const auto = await instrumentWorkload('tri', 'trace', { width: 32, height: 32, bufferSize: 'auto' });
  t.is(auto.runs[0]!.rerunFrom, undefined, 'the first auto size suffices here');
  const needed = auto.runs[0]!.dump.requiredWords;
  const e = await t.throwsAsync(instrumentWorkload('tri', 'trace', { width: 32, height: 32, bufferSize: 64 }));
  t.true(e instanceof InstrumentationBufferTooSmallError);
  t.regex(e!.message, new RegExp(`--buffer-size ${needed}`));
  const exact = await instrumentWorkload('tri', 'trace', { width: 32, height: 32, bufferSize: needed });
  t.is(exact.runs[0]!.dump.entryCount, auto.runs[0]!.dump.entryCount);
});
