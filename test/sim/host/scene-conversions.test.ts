// What an application's model loader does before upload (vkglTF FileLoadingFlags), on a glTF
// made here with vertex colours (COLOR_0) and two nodes: pre-transform merges the instances into
// one mesh, FlipY negates y, colours are multiplied by the material's base colour.
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { loadGltfScene } from '../../../src/sim/rt/load-gltf.js';
import { convertScene, srgbToLinear } from '../../../src/sim/host/scene-conversions.js';

async function twoNodeGltf(): Promise<string> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer);
  const nrm = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1])).setBuffer(buffer);
  const col = doc.createAccessor().setType('VEC4').setArray(new Float32Array([1, 0.5, 0.5, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 1])).setBuffer(buffer);
  const mat = doc.createMaterial('m').setBaseColorFactor([0.5, 1, 1, 1]);
  const prim = doc.createPrimitive().setAttribute('POSITION', pos).setAttribute('NORMAL', nrm).setAttribute('COLOR_0', col).setMaterial(mat);
  const mesh = doc.createMesh('tri').addPrimitive(prim);
  const a = doc.createNode('a').setMesh(mesh).setTranslation([0, 2, 0]);
  const b = doc.createNode('b').setMesh(mesh).setTranslation([5, 0, 0]);
  doc.createScene('s').addChild(a).addChild(b);
  const file = join(mkdtempSync(join(tmpdir(), 'vv-gltf-')), 'two.gltf');
  await new NodeIO().write(file, doc);
  return file;
}

test('COLOR_0 is read; preTransformVertices, flipY and preMultiplyVertexColors as vkglTF applies them', async (t) => {
  const scene = await loadGltfScene(await twoNodeGltf());
  t.deepEqual([...scene.meshes[0]!.colors!], [1, 0.5, 0.5, 1, 1, 1, 0.5, 0.5, 0.5]);
  t.is(scene.instances.length, 2);
  const c = convertScene(scene, ['flipY', 'preMultiplyVertexColors', 'preTransformVertices']);
  t.is(c.meshes.length, 1);
  t.is(c.instances.length, 1);
  const m = c.meshes[0]!;
  t.deepEqual([...m.indices], [0, 1, 2, 3, 4, 5]);
  // Node a at y = 2, flipped after pre-transforming: its first vertex is at y = -2; node b's at x = 5.
  t.deepEqual([...m.positions.slice(0, 3)], [0, -2, 0]);
  t.deepEqual([...m.positions.slice(9, 12)], [5, -0, 0]);
  t.deepEqual([...m.colors!.slice(0, 3)], [0.5, 0.5, 0.5]);
  t.true(Math.abs(srgbToLinear(1) - 1) < 1e-12 && srgbToLinear(0) === 0);
  const lin = convertScene(scene, ['srgbToLinear']);
  t.true(Math.abs(lin.materials[0]!.kd[0] - srgbToLinear(0.5)) < 1e-7);
});

test('materialColorsPow22: Ka, Kd, Ks raised to 2.2 in float (nvpro loadModel); emission and vertex colours kept', async (t) => {
  const scene = await loadGltfScene(await twoNodeGltf());
  const base = { ...scene, materials: scene.materials.map((m) => ({ ...m, ka: [0.5, 0.25, 1] as [number, number, number], ks: [0.5, 0.5, 0.5] as [number, number, number], ke: [0.5, 0, 0] as [number, number, number] })) };
  const out = convertScene(base, ['materialColorsPow22']);
  const m = out.materials[0]!;
  t.deepEqual(m.kd, [Math.fround(0.5 ** 2.2), 1, 1]);
  t.deepEqual(m.ka, [Math.fround(0.5 ** 2.2), Math.fround(0.25 ** 2.2), 1]);
  t.deepEqual(m.ks, [Math.fround(0.5 ** 2.2), Math.fround(0.5 ** 2.2), Math.fround(0.5 ** 2.2)]);
  t.deepEqual(m.ke, [0.5, 0, 0]);
  t.deepEqual(out.meshes[0]!.colors, base.meshes[0]!.colors);
});
