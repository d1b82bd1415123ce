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

test('#included code is attributed to its own file: ref closesthit rows never land on #include or layout lines', async (t) => {
  const r = await instrumentWorkload('ref', 'simt', { width: 16, height: 8 });
  const meta = r.runs[0]!.metadata;
  const ch = meta.shaders.find((s) => s.stage === 'closestHit')!;
  const includes = (ch.files ?? []).slice(1).map((f) => f.path);
  t.true(includes.some((p) => p.endsWith('offset-ray.glsl')), includes.join(', '));
  const textOf = (file: string) => (file === ch.sourcePath ? ch.sourceText : ch.files!.find((f) => f.path === file)!.text!).split('\n');
  const rows = r.results.hotspots!.rows.filter((h) => h.shader === ch.index && h.threadCount > 0 && h.line > 0);
  t.true(rows.some((h) => h.file !== ch.sourcePath), 'closest-hit runs code of its includes');
  for (const h of rows) {
    const text = textOf(h.file)[h.line - 1] ?? '';
    t.false(/^\s*(#|layout\s*\(|$)/.test(text), `${h.file}:${h.line} '${text}' is not code`);
  }
  t.true(rows.some((h) => h.file === ch.sourcePath));
});

test('--config: instrumented and uninstrumented runs on the timing model; overhead > 0 cycles, fidelity holds', async (t) => {
  const opts = { width: 16, height: 16 };
  const timed = await instrumentWorkload('tri', 'simt', { ...opts, config: 'mobile' });
  const functional = await instrumentWorkload('tri', 'simt', opts);
  t.is(functional.timing, undefined);
  t.is(functional.runs[0]!.timing, undefined);
  const base = timed.timing!.baseline.values.gpu_sim_cycle!;
  const cycles = timed.runs[0]!.timing!.values.gpu_sim_cycle!;
  t.true(base > 0);
  t.true(cycles > base, `instrumented ${cycles} vs uninstrumented ${base} cycles`);
  // The instrumentation's stores went through the memory system.
  t.true(timed.runs[0]!.timing!.values.L1D_total_cache_accesses! > timed.timing!.baseline.values.L1D_total_cache_accesses!);
  t.deepEqual(timed.fidelity!.mismatches, []);
  t.true(timed.fidelity!.holds);
  // Same execution either way: the timing model only decides the order.
  t.is(timed.runs[0]!.counters.threadInsts, functional.runs[0]!.counters.threadInsts);
  t.is(timed.runs[0]!.dump.entryCount, functional.runs[0]!.dump.entryCount);
  // The timing model issued exactly what the functional core executed, instrumentation included.
  t.is(timed.runs[0]!.timing!.values.vvision_ir_thread_insn, timed.runs[0]!.counters.threadInsts);
  t.true(timed.timing!.baseline.values.vvision_ir_thread_insn! < timed.runs[0]!.counters.threadInsts);
});

test('--config with an unknown preset fails before simulating', async (t) => {
  const e = await t.throwsAsync(instrumentWorkload('tri', 'simt', { width: 8, height: 8, config: 'no-such-gpu' }));
  t.regex(e!.message, /no-such-gpu/);
});
