/**
 * Manifests may ask for glslc's conventions (`"compiler": "glslc"`, for the workload or per shader):
 * the built-in `tri` workload rewritten as a glslc-built project would ship it (`.glsl` files,
 * `#include` without GL_GOOGLE_include_directive) renders the same image; with the default
 * (glslangValidator) conventions the same files are rejected.
 */
import test from 'ava';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageToPng } from '../../src/sim/host/image-png.js';
import { runWorkload } from '../../src/driver/run-workload.js';
import { builtinWorkloadsDir } from '../../src/sim/workload/load-manifest.js';

const root = mkdtempSync(join(tmpdir(), 'vv-glslc-workload-'));
cpSync(join(builtinWorkloadsDir(), 'common'), join(root, 'common'), { recursive: true });
const dir = join(root, 'tri');
cpSync(join(builtinWorkloadsDir(), 'tri'), dir, { recursive: true });
for (const [from, to] of [['raygen.rgen', 'raygen.glsl'], ['closesthit.rchit', 'closesthit.glsl'], ['miss.rmiss', 'miss.glsl']] as const) {
  const text = readFileSync(join(dir, from), 'utf8').replace(/#extension GL_GOOGLE_include_directive : require\n/, '');
  writeFileSync(join(dir, to), text);
}
const manifest = JSON.parse(readFileSync(join(dir, 'workload.json'), 'utf8')) as Record<string, unknown>;

function writeManifest(name: string, patch: Record<string, unknown>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ ...manifest, ...patch }));
  return path;
}

const glslcFiles = {
  shaders: { raygen: ['raygen.glsl'], closestHit: ['closesthit.glsl'], miss: ['miss.glsl'] },
  hitGroups: [{ type: 'triangles', closestHit: 'closesthit.glsl' }],
  miss: ['miss.glsl'],
};

test('"compiler": "glslc" for the workload: same image as the glslangValidator build', async (t) => {
  const path = writeManifest('glslc.json', { ...glslcFiles, compiler: 'glslc' });
  const a = await runWorkload(path, { width: 32, height: 32 });
  const b = await runWorkload('tri', { width: 32, height: 32 });
  t.deepEqual(imageToPng(a.image!), imageToPng(b.image!));
  t.is(a.counters.threadInsts, b.counters.threadInsts);
});

test('"compiler" per shader: only the raygen (the one with #include) needs glslc', async (t) => {
  const path = writeManifest('per-shader.json', {
    shaders: { raygen: [{ file: 'raygen.glsl', compiler: 'glslc' }], closestHit: ['closesthit.rchit'], miss: ['miss.rmiss'] },
  });
  const a = await runWorkload(path, { width: 16, height: 16 });
  t.truthy(a.image);
});

test('default conventions: .glsl names are refused by stage, #include without the extension by line', async (t) => {
  const names = await t.throwsAsync(runWorkload(writeManifest('default-names.json', glslcFiles), { width: 8, height: 8 }));
  t.regex(names!.message, /shaders\.raygen\[0\].*needs the \.rgen extension/);
  writeFileSync(join(dir, 'plain.rgen'), readFileSync(join(dir, 'raygen.glsl'), 'utf8'));
  const include = await t.throwsAsync(runWorkload(writeManifest('default-include.json', {
    shaders: { raygen: ['plain.rgen'], closestHit: ['closesthit.rchit'], miss: ['miss.rmiss'] },
  }), { width: 8, height: 8 }));
  t.regex(include!.message, /plain\.rgen:\d+:1: error: '#include' requires '#extension GL_GOOGLE_include_directive/);
  const bad = await t.throwsAsync(runWorkload(writeManifest('bad-compiler.json', { compiler: 'clang' }), { width: 8, height: 8 }));
  t.regex(bad!.message, /compiler.*expected one of "glslangValidator", "glslc", found "clang"/);
});
