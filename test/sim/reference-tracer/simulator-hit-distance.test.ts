// A disagreement the reference check found (now fixed, kept as a regression test):
// gl_HitTEXT is a `float` in GLSL, but the simulator's RT runtime handed shaders traversal's
// double-precision t. On ao at 32x32, pixel (27,27) hits the floor/right-wall edge at
// t = 4.280979384225137 (f32: 4.2809791565); origin + dir * t then lands exactly on (1, 0, z)
// instead of (0.99999994, 5.96e-8, z), the occlusion rays start on the floor plane and two more
// of eight were occluded at t = 0 (visibility 0.25 instead of 0.5).
import test from 'ava';
import { RtRuntime } from '../../../src/sim/pipeline/rt-runtime.js';
import { loadManifest, resolveWorkload } from '../../../src/sim/workload/load-manifest.js';
import { loadScene } from '../../../src/sim/host/load-scene.js';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { cameraBlock, primaryRay } from '../../../src/sim/reference-tracer/camera.js';
import { RAY_FLAG } from '../../../src/sim/rt/ray-query.js';

test('simulator: gl_HitTEXT of a committed triangle hit is an f32 value', async (t) => {
  const manifest = loadManifest(resolveWorkload('ao'));
  const scene = await loadScene(manifest.scene, manifest.path);
  const as = buildAccelerationStructure(scene);
  const camera = manifest.descriptors.find((d) => d.kind === 'uniformBuffer' && d.camera);
  if (!camera || camera.kind !== 'uniformBuffer' || !camera.camera) return t.fail('ao has no camera');
  const ray = primaryRay(cameraBlock(camera.camera, 32, 32), 27, 27, 32, 32, [0.5, 0.5]);
  const rt = new RtRuntime({ accels: [as], maxRecursionDepth: 1 });
  const lane = { hitAttributes: new Uint8Array(32) };
  // traceRayEXT(tlas, opaque, 0xFF, 0, 0, 0, origin, 0.001, direction, 10000.0, 0) as the lowering calls it.
  rt.call('traverse', 0, [0, RAY_FLAG.opaque, 0xff, 0, 0, 0, ...ray.origin, Math.fround(0.001), ...ray.direction, 10000], lane);
  rt.call('restoreCommitted', 0, [], lane);
  const [hitT] = rt.builtin('HitT', 0);
  t.true(hitT! > 4 && hitT! < 5, `the primary ray hits the box at t ${hitT}`);
  t.is(hitT, Math.fround(hitT!), 'HitT must be representable as f32');
});
