/**
 * V-Vision on the SPIR-V an application ships: a manifest naming glslang-compiled `.spv` modules
 * (`-g`: OpSource / OpLine) is instrumented and simulated like GLSL; the simt fidelity check holds
 * and the annotated sources (the main file from OpSource, #included files from disk) carry
 * execution counts. Skipped without glslangValidator.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotatedSources } from '../../src/driver/run-dir.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { builtinWorkloadsDir } from '../../src/sim/workload/load-manifest.js';
import { hasGlslang } from '../backend/spirv/spirv-tools.js';

(hasGlslang ? test : test.skip)('instrument --mode simt on glslang SPIR-V: fidelity holds, sources are annotated', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'vv-instrument-spv-'));
  for (const d of ['ao', 'common', 'scenes']) cpSync(join(builtinWorkloadsDir(), d), join(root, d), { recursive: true });
  const dir = join(root, 'ao');
  const spv = (src: string) => {
    const out = src.replace(/\.\w+$/, '.spv');
    const r = spawnSync('glslangValidator', ['-V', '-g', '--target-env', 'vulkan1.2', '-I../common', src, '-o', out], { cwd: dir, encoding: 'utf8' });
    t.is(r.status, 0, r.stdout);
    return out;
  };
  const manifest = JSON.parse(readFileSync(join(dir, 'workload.json'), 'utf8')) as Record<string, unknown>;
  const [rgen, rchit, miss, occlusion] = ['raygen.rgen', 'closesthit.rchit', 'miss.rmiss', 'occlusion.rmiss'].map(spv);
  writeFileSync(join(dir, 'spv.json'), JSON.stringify({
    ...manifest,
    shaders: { raygen: [rgen], closestHit: [rchit], miss: [miss, occlusion] },
    hitGroups: [{ type: 'triangles', closestHit: rchit }],
    miss: [miss, occlusion],
  }));
  const r = await instrumentWorkload(join(dir, 'spv.json'), 'simt', { width: 16, height: 16 });
  t.deepEqual(r.fidelity!.mismatches, []);
  t.true(r.fidelity!.sitesCompared > 0);
  const annotated = annotatedSources(r.results, r.runs[0]!.metadata, true);
  t.regex(annotated['raygen.rgen'] ?? '', /\/\* execution count = \d+ histo=/);
  t.truthy(Object.keys(annotated).find((k) => k.startsWith('raygen.rgen+')), 'an #included file read from disk is annotated too');
});
