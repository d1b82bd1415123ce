/**
 * `instrument --emit-spirv` (src/driver/emit-spirv.ts): the instrumented stage modules the
 * simulator ran, written as valid SPIR-V with their metadata and the buffer description; and the
 * reader side of the real-GPU path: a dump of those modules' twins (written by the simulator),
 * read through the same `report` path with the emitted metadata, gives the same analytics.
 */
import test from 'ava';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OutputDir } from '../../src/cli/output-dir.js';
import { parseSpirvBinding } from '../../src/cli/commands/instrument.js';
import { emitInstrumentedSpirv, SpirvBindingError, type InstrumentationBufferDescription } from '../../src/driver/emit-spirv.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { loadRunDir, namingDir, runDataFiles, saveInstrumentRun } from '../../src/driver/run-dir.js';
import { portableMetadata } from '../../src/driver/portable-metadata.js';
import { portablePath } from '../../src/report/portable-path.js';
import { hasSpirvTools, spirvDis, spirvVal } from '../backend/spirv/spirv-tools.js';

const maybe = hasSpirvTools ? test : test.skip;

function emitTo(result: Awaited<ReturnType<typeof instrumentWorkload>>, ...rest: [] | [{ set: number; binding: number }]): { dir: string; d: InstrumentationBufferDescription } {
  const out = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vv-emit-')), 'spirv-out'));
  const d = emitInstrumentedSpirv(out, result, ...rest);
  return { dir: out.commit(), d };
}

test('every mode: one .spv per stage module, the run\'s metadata, and the buffer description', async (t) => {
  const r = await instrumentWorkload('ref', 'all', { width: 16, height: 16 });
  const { dir, d } = emitTo(r);
  t.deepEqual(d.modes.map((m) => m.mode), ['simt', 'divergence', 'paths', 'trace', 'its']);
  t.is(d.set, 7);
  t.is(d.binding, 0);
  t.is(d.requiredSubgroupSize, 32);
  t.deepEqual(d.words, { warpIdCount: 0, wordsWritten: 1, firstEntry: 2 });
  t.deepEqual(d.requiredFeatures, ['rayTracingPipeline', 'scalarBlockLayout', 'subgroupSizeControl']);
  for (const m of d.modes) {
    const run = r.runs.find((x) => x.mode === m.mode)!;
    t.is(m.shaders.length, run.prepared.instrumentedModules!.length);
    t.is(m.shaders[0]!.stage, 'raygen');
    t.is(m.requiredWords, 2 + run.dump.wordsWritten);
    // The metadata beside the SPIR-V is the run's (same contract, same inst ids), its files named relative to the manifest.
    t.is(readFileSync(join(dir, m.metadata), 'utf8'), JSON.stringify(portableMetadata(run.metadata, dirname(run.prepared.manifest.path))));
    if (hasSpirvTools) for (const s of m.shaders) t.is(spirvVal(new Uint8Array(readFileSync(join(dir, s.file))), true), '', s.file);
  }
  t.deepEqual(JSON.parse(readFileSync(join(dir, 'instrumentation-buffer.json'), 'utf8')), d);
  // No file written (SPIR-V OpString included) carries this machine's paths.
  const root = join(import.meta.dirname, '..', '..');
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
    t.false(readFileSync(join(f.parentPath, f.name)).toString('latin1').includes(root), f.name);
  }
});

test('reader side: the simulator\'s dump of the emitted modules\' twins, read with the emitted metadata through `report`, gives the same analytics', async (t) => {
  const r = await instrumentWorkload('ao', 'all', { width: 16, height: 16 });
  const { dir: spirvDir, d } = emitTo(r);
  // A run directory as a GPU host would complete it: the dump beside the emitted metadata.
  const runDir = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vv-gpu-run-')), 'run'));
  const saved = saveInstrumentRun(runDir, r);
  const path = runDir.commit();
  for (const m of d.modes) copyFileSync(join(spirvDir, m.metadata), join(path, 'runs', m.mode, 'metadata.json'));
  const reread = loadRunDir(path);
  // Hotspot rows name their file as the saved metadata does: relative to the manifest.
  const named = (file: string) => portablePath(file, saved.manifestDir!);
  t.deepEqual(reread.results, { ...saved.results, hotspots: { ...saved.results.hotspots!, rows: saved.results.hotspots!.rows.map((h) => ({ ...h, file: named(h.file) })) } });
  t.deepEqual(runDataFiles(reread.results, namingDir(reread)), runDataFiles(saved.results, namingDir(saved)));
  t.deepEqual(reread.annotated, saved.annotated);
  t.true((reread.results.simt?.overall.efficiency ?? 0) > 0);
});

maybe('--spirv-binding moves the buffer in the SPIR-V and the metadata; a binding the shader uses is refused', async (t) => {
  const r = await instrumentWorkload('tri', 'simt', { width: 8, height: 8 });
  const { dir, d } = emitTo(r, { set: 3, binding: 5 });
  const raygen = new Uint8Array(readFileSync(join(dir, d.modes[0]!.shaders[0]!.file)));
  const dis = spirvDis(raygen);
  const id = /%(\d+) = OpVariable %\d+ StorageBuffer/.exec(dis)![1];
  t.regex(dis, new RegExp(`OpDecorate %${id} DescriptorSet 3\\b`));
  t.regex(dis, new RegExp(`OpDecorate %${id} Binding 5\\b`));
  t.is(spirvVal(raygen, false), '');
  const meta = JSON.parse(readFileSync(join(dir, d.modes[0]!.metadata), 'utf8')) as { layout: { set: number; binding: number } };
  t.deepEqual([meta.layout.set, meta.layout.binding], [3, 5]);
  t.deepEqual(readdirSync(join(dir, 'spirv', 'simt')).sort(), ['closesthit.rchit.spv', 'miss.rmiss.spv', 'raygen.rgen.spv']);
  const e = t.throws(() => emitTo(r, { set: 0, binding: 1 }), { instanceOf: SpirvBindingError });
  t.regex(e!.message, /raygen\.rgen:\d+:\d+: 'image' already uses set 0 binding 1/);
});

test('--spirv-binding syntax', (t) => {
  t.deepEqual(parseSpirvBinding('2:9'), { set: 2, binding: 9 });
  t.throws(() => parseSpirvBinding('2'), { message: /expected SET:BINDING/ });
});
