// Sampled images created as R8G8B8A8_SRGB: the sampler decodes colour channels to linear before
// filtering, so the host stores the decoded texels; alpha and UNORM images stay as stored.
import test from 'ava';
import { prepareRun, sharedPreparation } from '../../../src/driver/run-workload.js';
import { srgbToLinear } from '../../../src/sim/host/scene-conversions.js';
import type { WorkloadManifest } from '../../../src/sim/workload/manifest.js';

test('R8G8B8A8_SRGB textures hold the decoded linear texels; the default UNORM keeps the bytes', async (t) => {
  const shared = await sharedPreparation('models');
  const plain = await prepareRun('models', { width: 8, height: 8 }, undefined, shared);
  const srgbManifest: WorkloadManifest = {
    ...shared.manifest,
    descriptors: shared.manifest.descriptors.map((d) => (d.kind === 'sampledImages' ? { ...d, format: 'R8G8B8A8_SRGB' as const } : d)),
  };
  const srgb = await prepareRun('models', { width: 8, height: 8 }, undefined, { ...shared, manifest: srgbManifest });
  const unorm = plain.host.resources.images!.find((i) => i.arrayIndex === 0 && i.image.format === 'rgba8')!.image;
  const decoded = srgb.host.resources.images!.find((i) => i.set === 1 && i.binding === 2)!.image;
  t.is(decoded.format, 'rgba32f');
  const bytes = unorm.levels[0]!.data as Uint8Array;
  const floats = decoded.levels[0]!.data as Float32Array;
  for (const i of [0, 1, 2, 3, 401, 1002, 1003]) {
    const want = i % 4 === 3 ? bytes[i]! / 255 : srgbToLinear(bytes[i]! / 255);
    t.true(Math.abs(floats[i]! - want) < 1e-6, `texel component ${i}`);
  }
  t.true(srgbToLinear(0.5) > 0.2139 && srgbToLinear(0.5) < 0.2141);
});
