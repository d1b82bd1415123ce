// The built-in workload manifests: every one loads, names resolve, the default is small. (Their
// agreement with the shaders' declared interfaces is checked in glslang.test.ts, which has the
// SPIR-V at hand.)
import test from 'ava';
import { join } from 'node:path';
import {
  builtinWorkloadsDir, DEFAULT_WORKLOAD, listBuiltinWorkloads, loadManifest, resolveWorkload,
} from '../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../src/sim/workload/manifest.js';

const EXPECTED = ['alpha', 'ao', 'bindless', 'bunny', 'call', 'cornell', 'its-shapes', 'models', 'pt', 'ref', 'rtv6', 'tri'];

test('the twelve built-in workloads are listed with descriptions and load without problems', (t) => {
  const list = listBuiltinWorkloads();
  t.deepEqual(list.map((w) => w.name), EXPECTED);
  for (const w of list) {
    t.true(w.description.length > 20, `${w.name} has a description`);
    const m = loadManifest(w.manifest);
    t.is(m.name, w.name);
    t.true(m.launch.width <= 128 && m.launch.height <= 128, `${w.name} launches a small frame by default`);
  }
});

test('resolveWorkload maps names, folders and manifest paths, and names the built-ins when lost', (t) => {
  t.is(resolveWorkload('pt'), join(builtinWorkloadsDir(), 'pt', 'workload.json'));
  t.is(resolveWorkload(join(builtinWorkloadsDir(), 'ao')), join(builtinWorkloadsDir(), 'ao', 'workload.json'));
  t.is(resolveWorkload(join(builtinWorkloadsDir(), 'tri', 'workload.json')), join(builtinWorkloadsDir(), 'tri', 'workload.json'));
  const e = t.throws(() => resolveWorkload('sponza'), { instanceOf: ManifestError });
  t.regex(e!.message, /^sponza: unknown workload \(built-in workloads: alpha, ao, bindless, bunny, call, cornell, its-shapes, models, pt, ref, rtv6, tri;/);
  t.throws(() => resolveWorkload(builtinWorkloadsDir()), { message: /folder has no workload\.json/ });
});

test('the default workload is a small built-in', (t) => {
  const m = loadManifest(resolveWorkload(DEFAULT_WORKLOAD));
  t.true(m.launch.width * m.launch.height * m.spp <= 64 * 64);
});
