import test from 'ava';
import { GltfLoadError, loadGltfScene } from '../../../src/sim/rt/load-gltf.js';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { traverse } from '../../../src/sim/rt/traversal.js';
import { sceneTriangleCount } from '../../../src/sim/rt/scene.js';

const SCENES = '/work/shared/scenes';

test('Vulkan-Samples-Assets glTFs (embedded buffers) load as meshes with instances', async (t) => {
  for (const name of ['teapot', 'torusknot', 'geosphere']) {
    const s = await loadGltfScene(`${SCENES}/Vulkan-Samples-Assets/${name}.gltf`);
    t.true(s.meshes.length >= 1, name);
    t.true(s.instances.length >= 1, name);
    for (const m of s.meshes) {
      const nv = m.positions.length / 3;
      t.true(m.indices.every((i) => i < nv));
      t.is(m.materialIds.length, m.indices.length / 3);
      if (m.normals) t.is(m.normals.length, 3 * nv);
    }
    t.true(sceneTriangleCount(s) >= 1280, name);
  }
  const prims = await loadGltfScene(`${SCENES}/Vulkan-Samples-Assets/primitives/primitives.gltf`);
  t.true(prims.meshes.length > 1);
});

test('cornellBox.gltf: 16,720 triangles, node transforms, emissive light material; rays hit it', async (t) => {
  const s = await loadGltfScene(`${SCENES}/vk_raytracing_tutorial_KHR/cornellBox.gltf`);
  t.is(sceneTriangleCount(s), 16720);
  // One mesh is referenced by two nodes: instances, not copies.
  t.is(s.meshes.length, 9);
  t.is(s.instances.length, 10);
  t.true(s.instances.some((i) => Array.from(i.transform).some((v, k) => v !== [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0][k])));
  t.true(s.materials.some((m) => m.type === 'diffuseLight' && m.ke.some((x) => x > 0)));
  const as = buildAccelerationStructure(s);
  const root = as.nodeBounds.subarray(6 * as.tlasRoot, 6 * as.tlasRoot + 6);
  const c: [number, number, number] = [0.5 * (root[0]! + root[3]!), 0.5 * (root[1]! + root[4]!), 0.5 * (root[2]! + root[5]!)];
  // From the centre of the box, rays in the six axis directions hit a wall, except the open front.
  let hits = 0;
  for (const d of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as [number, number, number][]) {
    const r = traverse(as, { origin: c, direction: d, tmin: 0, tmax: Infinity, flags: 0, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 1 });
    if (r.committed) hits++;
  }
  t.is(hits, 5);
});

test('a missing file raises GltfLoadError naming it', async (t) => {
  const e = await t.throwsAsync(loadGltfScene('/nonexistent/scene.gltf'), { instanceOf: GltfLoadError });
  t.regex(e!.message, /nonexistent\/scene\.gltf/);
});
