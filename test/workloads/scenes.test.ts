// The built-in manifests against the scenes they name: every scene loads with the manifest's
// instances, and the numbers the manifests hard-code about their scenes (texture order, the
// boxes' custom index, the light, triangle counts) are true of the loaded scene.
import test from 'ava';
import { loadScene } from '../../src/sim/host/load-scene.js';
import { sceneRecords } from '../../src/sim/host/scene-records.js';
import { sceneTriangleCount } from '../../src/sim/rt/scene.js';
import { listBuiltinWorkloads, loadManifest, resolveWorkload } from '../../src/sim/workload/load-manifest.js';

const load = async (name: string) => {
  const m = loadManifest(resolveWorkload(name));
  return { m, scene: await loadScene(m.scene, m.path) };
};

test('every built-in scene loads and its instances name existing meshes', async (t) => {
  for (const w of listBuiltinWorkloads()) {
    const m = loadManifest(w.manifest);
    const scene = await loadScene(m.scene, m.path);
    t.true(scene.instances.length >= 1, w.name);
    t.true(sceneTriangleCount(scene) > 0 || scene.procedurals.length > 0, `${w.name} has geometry`);
  }
});

test('rtv6: the box instance custom index skips exactly the spheres in the aabbs buffer', async (t) => {
  const { m, scene } = await load('rtv6');
  const spheres = sceneRecords(scene, 'spheres').length;
  const boxes = m.scene!.instances.find((i) => i.mesh === 'boxes');
  t.is(boxes?.customIndex, spheres);
  t.is(sceneRecords(scene, 'aabbs').length, spheres + scene.procedurals[1]!.materialIds.length);
  t.deepEqual(m.scene!.instances.map((i) => i.sbtOffset), [0, 2], 'hit groups come in (primary, shadow) pairs');
  t.is(m.hitGroups.length, 4);
});

test('alpha: the sampled image files are in the order the MTL assigns texture ids', async (t) => {
  const { m, scene } = await load('alpha');
  const textures = m.descriptors.find((d) => d.kind === 'sampledImages');
  if (textures?.kind !== 'sampledImages') return t.fail('alpha binds a texture array');
  t.deepEqual(scene.textures.map((x) => x.path), textures.files);
  const used = new Set(sceneRecords(scene, 'materials').map((r) => r.textureId as number));
  t.deepEqual([...used].sort(), [0, 1, 2]);
  t.false(m.scene!.opaque, 'non-opaque geometry, so any-hit shaders run');
});

test('cornell and ao: the Cornell box has an emissive light material; ref has a mirror', async (t) => {
  const { scene: cornell } = await load('cornell');
  const emissive = sceneRecords(cornell, 'materials').filter((r) => (r.emission as number[]).some((x) => x > 0));
  t.is(emissive.length, 1);
  t.is(sceneTriangleCount(cornell), 36);
  const { scene: ref } = await load('ref');
  t.true(sceneRecords(ref, 'materials').some((r) => r.illum === 3), 'an illum 3 (mirror) material');
});

test('bunny: the full 69,451-triangle Stanford bunny', async (t) => {
  const { scene } = await load('bunny');
  t.is(sceneTriangleCount(scene), 69451);
});

test('pt: the WKND scene has all three material models', async (t) => {
  const { scene } = await load('pt');
  const types = new Set(sceneRecords(scene, 'materials').map((r) => r.type));
  t.deepEqual([...types].sort(), [0, 1, 2]);
  t.true(sceneRecords(scene, 'spheres').length > 400);
});
