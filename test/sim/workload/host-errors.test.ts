// A buffer the host cannot pack is reported once, with the file and key once, and the values
// that take its address do not add "no buffer named" follow-ons.
import test from 'ava';
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
  t.regex(problems[0]!, /buffers\[0\] \("vertices\.0"\)\[0\]\.nrm: expected an array of 3 for vec3<f32>, found an array of 2/);
  t.false(problems.some((p) => p.includes('no buffer named')));
});
