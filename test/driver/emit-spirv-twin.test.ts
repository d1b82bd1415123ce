/**
 * The `--emit-spirv` modules themselves, not only their IR twins: read back by the SPIR-V reader
 * and run on the simulator with a zero-filled buffer bound where instrumentation-buffer.json says
 * (as a Vulkan host would), they write byte for byte the dump the twins wrote, in every mode; the
 * `report` path reads those dumps with the emitted metadata and gives the same analytics.
 * (ao's raygen returns early, so `its` exercises the run-once loop the writer adds.)
 */
import test from 'ava';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { portablePath } from '../../src/report/portable-path.js';
import { OutputDir } from '../../src/cli/output-dir.js';
import { emitInstrumentedSpirv } from '../../src/driver/emit-spirv.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { loadRunDir, saveInstrumentRun } from '../../src/driver/run-dir.js';
import { launchOptionsOf, prepareRun, sharedPreparation, type SharedPreparation } from '../../src/driver/run-workload.js';
import { readSpirv } from '../../src/frontend/spirv/read-module.js';
import type { Module } from '../../src/ir/module.js';
import { runFunctional } from '../../src/sim/functional/launch.js';

/**
 * `shared` with each stage module replaced by the module of the same source read from `spirv`
 * (whose OpString names the file relative to the manifest, as metadata.json does).
 */
function withModules(shared: SharedPreparation, spirv: Module[]): SharedPreparation {
  const byPath = new Map(spirv.map((m) => [m.sources[0]!.path, m]));
  const manifestDir = dirname(shared.manifest.path);
  const c = (m: Module): Module => byPath.get(portablePath(m.sources[0]!.path, manifestDir))!;
  const s = shared.compiled.stages;
  return {
    ...shared,
    compiled: {
      modules: shared.compiled.modules.map(c),
      stages: {
        raygen: c(s.raygen), miss: s.miss.map(c), callables: s.callables.map(c),
        hitGroups: s.hitGroups.map((g) => ({
          ...(g.closestHit ? { closestHit: c(g.closestHit) } : {}), ...(g.anyHit ? { anyHit: c(g.anyHit) } : {}),
          ...(g.intersection ? { intersection: c(g.intersection) } : {}),
        })),
      },
    },
  };
}

test('ao, every mode: the emitted SPIR-V run as a host would writes the twin\'s dump; report gives the same analytics', async (t) => {
  const opts = { width: 16, height: 16 };
  const r = await instrumentWorkload('ao', 'all', opts);
  const spirvOut = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vv-twin-')), 'spirv'));
  const d = emitInstrumentedSpirv(spirvOut, r);
  const spirvDir = spirvOut.commit();
  const runOut = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vv-twin-run-')), 'run'));
  const saved = saveInstrumentRun(runOut, r);
  const runDir = runOut.commit();
  const shared = await sharedPreparation('ao');
  for (const mode of d.modes) {
    const modules = mode.shaders.map((s) => readSpirv(s.file, new Uint8Array(readFileSync(join(spirvDir, s.file)))));
    const p = await prepareRun('ao', opts, undefined, withModules(shared, modules));
    const twin = r.runs.find((x) => x.mode === mode.mode)!;
    const buffer = new Uint8Array(Math.max(mode.requiredWords, twin.dump.capacityWords) * 4);
    p.host.resources.buffers!.push({ set: d.set, binding: d.binding, data: buffer });
    runFunctional(p.program, p.host.resources, launchOptionsOf(p, undefined));
    const words = new DataView(buffer.buffer).getUint32(4, true);
    t.is(2 + words, mode.requiredWords, `${mode.mode}: words written`);
    const dump = buffer.subarray(0, twin.dumpBytes.length);
    t.true(Buffer.from(dump).equals(Buffer.from(twin.dumpBytes)), `${mode.mode}: the same dump, byte for byte`);
    // As the GPU host would hand it back: the dump beside the emitted metadata.
    writeFileSync(join(runDir, 'runs', mode.mode, 'dump.bin'), dump);
    copyFileSync(join(spirvDir, mode.metadata), join(runDir, 'runs', mode.mode, 'metadata.json'));
  }
  const named = (file: string) => portablePath(file, saved.manifestDir!);
  t.deepEqual(loadRunDir(runDir).results, { ...saved.results, hotspots: { ...saved.results.hotspots!, rows: saved.results.hotspots!.rows.map((h) => ({ ...h, file: named(h.file) })) } });
});
