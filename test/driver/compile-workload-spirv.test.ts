/**
 * Manifests may name SPIR-V modules (`.spv`) under any stage: the SPIR-V reader reads them and the
 * stage comes from the module's entry point, checked against the list it is under. Here `tri` is
 * run from SPIR-V files (written by vvision's writer) and renders the GLSL build's image.
 */
import test from 'ava';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spirvBytes, writeSpirv } from '../../src/backend/spirv/write-spirv.js';
import { compileWorkload } from '../../src/driver/compile-workload.js';
import { runWorkload } from '../../src/driver/run-workload.js';
import { imageToPng } from '../../src/sim/host/image-png.js';
import { builtinWorkloadsDir, loadManifest } from '../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../src/sim/workload/manifest.js';
import { SpirvReadError } from '../../src/frontend/spirv/spirv-words.js';

const root = mkdtempSync(join(tmpdir(), 'vv-spv-workload-'));
cpSync(join(builtinWorkloadsDir(), 'common'), join(root, 'common'), { recursive: true });
const dir = join(root, 'tri');
cpSync(join(builtinWorkloadsDir(), 'tri'), dir, { recursive: true });
const compiled = compileWorkload(loadManifest(join(dir, 'workload.json')));
writeFileSync(join(dir, 'raygen.spv'), spirvBytes(writeSpirv(compiled.stages.raygen)));
writeFileSync(join(dir, 'closesthit.spv'), spirvBytes(writeSpirv(compiled.stages.hitGroups[0]!.closestHit!)));
writeFileSync(join(dir, 'miss.spv'), spirvBytes(writeSpirv(compiled.stages.miss[0]!)));
const manifest = JSON.parse(readFileSync(join(dir, 'workload.json'), 'utf8')) as Record<string, unknown>;

function writeManifest(name: string, patch: Record<string, unknown>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ ...manifest, ...patch }));
  return path;
}

test('a manifest naming .spv files runs them: same image as the GLSL build', async (t) => {
  const path = writeManifest('spirv.json', {
    shaders: { raygen: ['raygen.spv'], closestHit: ['closesthit.spv'], miss: ['miss.spv'] },
    hitGroups: [{ type: 'triangles', closestHit: 'closesthit.spv' }],
    miss: ['miss.spv'],
  });
  const a = await runWorkload(path, { width: 16, height: 16 });
  const b = await runWorkload('tri', { width: 16, height: 16 });
  t.deepEqual(imageToPng(a.image!), imageToPng(b.image!));
  t.is(a.rt.hits, b.rt.hits);
});

test('a .spv listed under the wrong stage, and a broken .spv, are refused by name', async (t) => {
  const wrong = writeManifest('wrong-stage.json', {
    shaders: { raygen: ['raygen.rgen'], closestHit: ['miss.spv'], miss: ['miss.rmiss'] },
    hitGroups: [{ type: 'triangles', closestHit: 'miss.spv' }],
  });
  const e = await t.throwsAsync(runWorkload(wrong, { width: 8, height: 8 }), { instanceOf: ManifestError });
  t.regex(e!.message, /miss\.spv is a miss module \(its OpEntryPoint\), but it is listed under shaders\.closestHit/);
  writeFileSync(join(dir, 'broken.spv'), readFileSync(join(dir, 'miss.spv')).subarray(0, 40));
  const broken = writeManifest('broken.json', { shaders: { raygen: ['raygen.rgen'], closestHit: ['closesthit.rchit'], miss: ['broken.spv'] }, miss: ['broken.spv'] });
  const b = await t.throwsAsync(runWorkload(broken, { width: 8, height: 8 }), { instanceOf: SpirvReadError });
  t.regex(b!.message, /broken\.spv: word \d+: Op\w+ has \d+ words but the module ends/);
});
