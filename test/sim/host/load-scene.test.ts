// scene.models: several model files in one scene, one BLAS and one instance per model, materials
// and textures concatenated with per-model offsets; per-model scene records use model-local indices.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { runWorkload } from '../../../src/driver/run-workload.js';
import { imageToPng } from '../../../src/sim/host/image-png.js';
import { loadScene } from '../../../src/sim/host/load-scene.js';
import { sceneRecords } from '../../../src/sim/host/scene-records.js';
import type { SceneSpec } from '../../../src/sim/workload/manifest.js';

function files(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vv-models-'));
  writeFileSync(join(dir, 'a.mtl'), 'newmtl red\nKd 1 0 0\nnewmtl textured\nKd 1 1 1\nmap_Kd a.png\n');
  writeFileSync(join(dir, 'a.obj'), 'mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nusemtl red\nf 1 2 3\nusemtl textured\nf 2 4 3\n');
  writeFileSync(join(dir, 'b.mtl'), 'newmtl blue\nKd 0 0 1\nmap_Kd b.jpg\n');
  // Vertex colours on the second model.
  writeFileSync(join(dir, 'b.obj'), 'mtllib b.mtl\nv 0 0 0 1 0 0\nv 2 0 0 0 1 0\nv 0 2 0 0 0 1\nusemtl blue\nf 1 2 3\n');
  return dir;
}

const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

test('two models: concatenated meshes, offset material ids and texture indices, one instance each', async (t) => {
  const dir = files();
  const spec: SceneSpec = {
    models: [
      { name: 'a', source: { kind: 'obj', file: join(dir, 'a.obj') }, transform: identity, mask: 255, sbtOffset: 0, flags: [] },
      { name: 'b', source: { kind: 'obj', file: join(dir, 'b.obj') }, transform: [1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0], mask: 255, sbtOffset: 1, flags: ['forceOpaque'] },
    ],
    instances: [],
    opaque: true,
  };
  const scene = await loadScene(spec, 'w.json');
  t.deepEqual(scene.meshes.map((m) => m.name), ['a', 'b']);
  t.deepEqual(scene.materials.map((m) => m.name), ['red', 'textured', 'blue']);
  t.deepEqual([...scene.meshes[1]!.materialIds], [2], 'b uses the third scene material');
  t.deepEqual(scene.materials.map((m) => m.textureIndex), [-1, 0, 1], 'b.jpg follows a.png');
  t.deepEqual(scene.models!.map((m) => [m.firstMesh, m.firstMaterial, m.materialCount, m.firstTexture]), [[0, 0, 2, 0], [1, 2, 1, 1]]);
  t.deepEqual(scene.instances.map((i) => [i.geometryIndex, i.customIndex, i.sbtOffset, i.flags, i.transform[3]]), [[0, 0, 0, 0, 0], [1, 1, 1, 4, 5]]);

  // Per-model records: local indices, materials and texture ids; the scene-wide ones are global.
  t.deepEqual(sceneRecords(scene, 'materialIndices', undefined, 1), [{ '': 0 }]);
  t.deepEqual(sceneRecords(scene, 'materialIndices').map((r) => r['']), [0, 1, 2]);
  t.deepEqual(sceneRecords(scene, 'materials', undefined, 1).map((r) => r.textureId), [0]);
  t.deepEqual(sceneRecords(scene, 'indices', undefined, 1), [{ '': [0, 1, 2] }]);
  t.deepEqual(sceneRecords(scene, 'vertices', undefined, 1).map((r) => r.color), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
  t.deepEqual(sceneRecords(scene, 'vertices', undefined, 0).map((r) => r.color), [[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]], 'white without colours');
  const models = sceneRecords(scene, 'models');
  t.deepEqual(models.map((r) => [r.firstVertex, r.firstIndex, r.firstMaterial, r.firstTexture, r.vertexCount, r.triangleCount, r.textureCount]),
    [[0, 0, 0, 0, 4, 2, 1], [4, 6, 2, 1, 3, 1, 1]]);
  t.deepEqual(sceneRecords(scene, 'instanceDescriptions').map((r) => [r.model, r.firstMaterial]), [[0, 0], [1, 0]], 'scene-wide buffers need no offsets');
});

test('a model customIndex overrides the model index', async (t) => {
  const dir = files();
  const scene = await loadScene({
    models: [{ name: 'b', source: { kind: 'obj', file: join(dir, 'b.obj') }, transform: identity, customIndex: 7, mask: 3, sbtOffset: 0, flags: [] }],
    instances: [], opaque: true,
  }, 'w.json');
  t.deepEqual(scene.instances.map((i) => [i.customIndex, i.mask]), [[7, 3]]);
});

// `"files": "scene"`: the sampler array is the scene's textures in texture-id order, so the
// models workload renders the same frame with its explicit list replaced.

test('"files": "scene" gives the sampler array the explicit list gives', async (t) => {
  const src = resolve(import.meta.dirname, '../../../workloads/models');
  const json = JSON.parse(readFileSync(join(src, 'workload.json'), 'utf8'));
  const abs = (p: string) => resolve(src, p);
  for (const stage of Object.keys(json.shaders)) json.shaders[stage] = json.shaders[stage].map(abs);
  json.hitGroups = json.hitGroups.map((g: { closestHit: string }) => ({ ...g, closestHit: abs(g.closestHit) }));
  json.miss = json.miss.map(abs);
  json.scene.models = json.scene.models.map((m: { obj: string }) => ({ ...m, obj: abs(m.obj) }));
  const textures = json.descriptors.find((d: { kind: string }) => d.kind === 'sampledImages');
  t.deepEqual(textures.files, ['../scenes/wood-planks.jpg']);
  textures.files = 'scene';
  const dir = mkdtempSync(join(tmpdir(), 'vv-scene-textures-'));
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(json));
  const fromScene = await runWorkload(join(dir, 'workload.json'), { width: 16, height: 12 });
  const explicit = await runWorkload('models', { width: 16, height: 12 });
  t.deepEqual(imageToPng(fromScene.image!, { keepAlpha: true }), imageToPng(explicit.image!, { keepAlpha: true }));
});


test('a glTF model: its node transforms compose with the model transform; its meshes follow the OBJ model', async (t) => {
  const dir = files();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer);
  const idx = doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 1, 2])).setBuffer(buffer);
  const mat = doc.createMaterial('green').setBaseColorFactor([0, 1, 0, 1]);
  const mesh = doc.createMesh('tri').addPrimitive(doc.createPrimitive().setAttribute('POSITION', pos).setIndices(idx).setMaterial(mat));
  doc.createScene('s').addChild(doc.createNode('n').setMesh(mesh).setTranslation([0, 0, 1]));
  await new NodeIO().write(join(dir, 'c.gltf'), doc);
  const scene = await loadScene({
    models: [
      { name: 'a', source: { kind: 'obj', file: join(dir, 'a.obj') }, transform: identity, mask: 255, sbtOffset: 0, flags: [] },
      { name: 'c', source: { kind: 'gltf', file: join(dir, 'c.gltf') }, transform: [2, 0, 0, 5, 0, 2, 0, 0, 0, 0, 2, 0], mask: 255, sbtOffset: 0, flags: [] },
    ],
    instances: [], opaque: true,
  }, 'w.json');
  t.deepEqual(scene.meshes.map((m) => m.name), ['a', 'c']);
  t.deepEqual(scene.materials.map((m) => m.name), ['red', 'textured', 'green']);
  t.deepEqual([...scene.meshes[1]!.materialIds], [2]);
  const inst = scene.instances[1]!;
  t.deepEqual([inst.geometryIndex, inst.customIndex], [1, 1]);
  t.deepEqual([...inst.transform], [2, 0, 0, 5, 0, 2, 0, 0, 0, 0, 2, 2], 'scale 2 and x + 5 after the node\'s z + 1');
});

test('with preTransformVertices, `instances` describe the merged mesh the loader returns (mesh 0), not the file\'s meshes', async (t) => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute('POSITION', pos);
  const mesh = doc.createMesh('tri').addPrimitive(prim);
  const other = doc.createMesh('other').addPrimitive(doc.createPrimitive().setAttribute('POSITION', pos));
  doc.createScene('s').addChild(doc.createNode('a').setMesh(mesh).setTranslation([0, 5, 0])).addChild(doc.createNode('b').setMesh(other));
  const file = join(mkdtempSync(join(tmpdir(), 'vv-pretransform-')), 'two.gltf');
  await new NodeIO().write(file, doc);
  const spec: SceneSpec = {
    source: { kind: 'gltf', file }, opaque: true, conversions: ['preTransformVertices'],
    instances: [{ mesh: 0, transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], customIndex: 0, mask: 255, sbtOffset: 0, flags: ['triangleFacingCullDisable'] }],
  } as unknown as SceneSpec;
  const scene = await loadScene(spec, join(file, '..', 'workload.json'));
  t.is(scene.meshes.length, 1);
  t.is(scene.meshes[0]!.positions.length, 18, 'both nodes baked into the one mesh');
  t.is(scene.instances.length, 1);
  t.is(scene.instances[0]!.geometryIndex, 0);
  t.true(scene.meshes[0]!.positions.includes(5), 'node a\'s translation is baked in');
});
