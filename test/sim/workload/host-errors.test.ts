// A buffer the host cannot pack is reported once, with the file and key once, and the values
// that take its address do not add "no buffer named" follow-ons.
import test from 'ava';
import { join } from 'node:path';
import { prepareRun, sharedPreparation } from '../../../src/driver/run-workload.js';
import { ManifestError, type WorkloadManifest } from '../../../src/sim/workload/manifest.js';

test('a struct member that does not pack: one message, one prefix, no follow-on', async (t) => {
  const shared = await sharedPreparation('models');
  const manifest: WorkloadManifest = {
    ...shared.manifest,
    buffers: shared.manifest.buffers!.map((b) => (b.name === 'vertices.0'
      ? { ...b, content: { ...b.content, fields: { pos: 'position', nrm: [1, 2] } } }
      : b)),
  };
  const e = await t.throwsAsync(prepareRun('models', { width: 8, height: 8 }, undefined, { ...shared, manifest }), { instanceOf: ManifestError });
  const problems = (e as ManifestError).problems;
  t.is(problems.length, 1, problems.join('\n'));
  t.is(problems[0]!.split(shared.manifest.path).length - 1, 1, problems[0]);
  // The constant is reported at its own key (fields.nrm), not as element 0's member.
  t.regex(problems[0]!, /buffers\[0\] \("vertices\.0"\)\.fields\.nrm: expected an array of 3 for vec3<f32>, found an array of 2/);
  t.false(problems.some((p) => p.includes('no buffer named')));
});

test('a named buffer a BLAS reads that does not pack: its own message only, no BLAS follow-ons, one key prefix', async (t) => {
  const APP = join(import.meta.dirname, '..', '..', '..', 'examples', 'apps', 'sascha-raytracingreflections', 'workload.json');
  const shared = await sharedPreparation(APP);
  const manifest: WorkloadManifest = {
    ...shared.manifest,
    descriptors: shared.manifest.descriptors.map((d) => (d.kind === 'storageBuffer' && d.id === 'vertices'
      ? { ...d, fields: { ...d.fields, tangent: [0, 0] } }
      : d)),
  };
  const e = await t.throwsAsync(prepareRun(APP, { width: 8, height: 8 }, undefined, { ...shared, manifest }), { instanceOf: ManifestError });
  const problems = (e as ManifestError).problems;
  t.is(problems.length, 1, problems.join('\n'));
  t.regex(problems[0]!, /descriptors\[3\] \(set=0, binding=3\)\.fields\.tangent: expected an array of 4 for vec4<f32>, found an array of 2$/);
});

test('a BLAS error is prefixed by the file and its key once', async (t) => {
  const APP = join(import.meta.dirname, '..', '..', '..', 'examples', 'apps', 'sascha-raytracingreflections', 'workload.json');
  const shared = await sharedPreparation(APP);
  const as = shared.manifest.accelerationStructures!;
  const manifest: WorkloadManifest = {
    ...shared.manifest,
    accelerationStructures: { ...as, blas: as.blas.map((b) => ({ geometries: b.geometries.map((g) => ({ ...g, primitiveCount: 1_000_000 })) })) },
  };
  const e = await t.throwsAsync(prepareRun(APP, { width: 8, height: 8 }, undefined, { ...shared, manifest }), { instanceOf: ManifestError });
  const problems = (e as ManifestError).problems;
  t.regex(problems[0]!, /workload\.json: accelerationStructures\.blas\[0\]\.geometries\[0\]\.indexData: 1000000 triangles/);
  t.false(problems[0]!.includes('accelerationStructures: accelerationStructures'));
});
