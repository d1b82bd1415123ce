import test from 'ava';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadObjScene, ObjParseError } from '../../../src/sim/rt/load-obj.js';

const SCENES = '/work/shared/scenes';

function objFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? objFiles(p) : p.endsWith('.obj') ? [p] : [];
  });
}

/** Triangle counts from the scenes README (and fan triangulation of their quads). */
const EXPECTED_TRIANGLES: Record<string, number> = {
  'common-3d-test-models/stanford-bunny.obj': 69451,
  'common-3d-test-models/teapot.obj': 6320,
  'common-3d-test-models/spot.obj': 5856,
  'common-3d-test-models/suzanne.obj': 968,
  'mcguire-CornellBox-Original/CornellBox-Original.obj': 36,
  'tinyobjloader-cornell_box/cornell_box.obj': 36,
  'vk_raytracing_tutorial_KHR/Medieval_building/Medieval_building.obj': 16715,
  'RayTracingInVulkan-models/cube.obj': 12,
};

test('every OBJ in the shared scenes loads with consistent arrays', (t) => {
  const files = objFiles(SCENES);
  t.true(files.length >= 14);
  for (const f of files) {
    const s = loadObjScene(f);
    const m = s.meshes[0]!;
    const nv = m.positions.length / 3;
    const nt = m.indices.length / 3;
    t.true(nt > 0, f);
    t.is(m.materialIds.length, nt, f);
    t.true(m.indices.every((i) => i < nv), f);
    t.true(m.materialIds.every((i) => i < s.materials.length), f);
    if (m.normals) t.is(m.normals.length, 3 * nv);
    if (m.uvs) t.is(m.uvs.length, 2 * nv);
    t.true(s.materials.every((mat) => mat.textureIndex < s.textures.length), f);
    const rel = f.slice(SCENES.length + 1);
    if (EXPECTED_TRIANGLES[rel] !== undefined) t.is(nt, EXPECTED_TRIANGLES[rel], rel);
  }
});

test('materials: Kd/Ke/Ka/Ns/Ni, lights and map_Kd textures', (t) => {
  const mc = loadObjScene(`${SCENES}/mcguire-CornellBox-Original/CornellBox-Original.obj`);
  const left = mc.materials.find((m) => m.name === 'leftWall')!;
  t.deepEqual(left.kd, [0.63, 0.065, 0.05]);
  t.is(left.ior, 1.5);
  t.is(left.shininess, 10);
  const light = mc.materials.find((m) => m.name === 'light')!;
  t.is(light.type, 'diffuseLight');
  t.deepEqual(light.ke, [1, 1, 1]);
  const tiny = loadObjScene(`${SCENES}/tinyobjloader-cornell_box/cornell_box.obj`);
  t.deepEqual(tiny.materials.find((m) => m.name === 'light')!.ka, [20, 20, 20]);
  const medieval = loadObjScene(`${SCENES}/vk_raytracing_tutorial_KHR/Medieval_building/Medieval_building.obj`);
  t.true(medieval.textures.length > 0);
  t.true(medieval.textures.every((x) => x.path.startsWith(`${SCENES}/vk_raytracing_tutorial_KHR/Medieval_building/`)));
  t.truthy(medieval.meshes[0]!.uvs);
  t.truthy(medieval.meshes[0]!.normals);
  t.is(loadObjScene(`${SCENES}/common-3d-test-models/stanford-bunny.obj`).meshes[0]!.normals, undefined);
});

function writeObj(text: string, mtl?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-obj-'));
  if (mtl !== undefined) writeFileSync(join(dir, 'm.mtl'), mtl);
  const p = join(dir, 'x.obj');
  writeFileSync(p, text);
  return p;
}

test('fan triangulation, negative indices, v//vn and v/vt corners, usemtl', (t) => {
  const p = writeObj([
    'mtllib m.mtl',
    'v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0.5 2 0',
    'vt 0 0', 'vt 1 0', 'vt 1 1',
    'vn 0 0 1',
    'usemtl red # comment after a statement',
    'f 1//1 2//1 3//1 4//1 5//1',
    'usemtl blue',
    'f -5/-3 -4/-2 -3/-1',
  ].join('\n'), 'newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\nd 0.5\nNi 1.3\n');
  const s = loadObjScene(p);
  const m = s.meshes[0]!;
  t.is(m.indices.length / 3, 4);
  // Fan (v0, vi, vi+1) over the pentagon.
  const pos = (i: number): number[] => Array.from(m.positions.subarray(3 * i, 3 * i + 3));
  t.deepEqual([0, 1, 2].map((k) => pos(m.indices[3 * 1 + k]!)), [[0, 0, 0], [1, 1, 0], [0, 1, 0]]);
  t.deepEqual([0, 1, 2].map((k) => pos(m.indices[9 + k]!)), [[0, 0, 0], [1, 0, 0], [1, 1, 0]]);
  const red = s.materials.findIndex((x) => x.name === 'red'), blue = s.materials.findIndex((x) => x.name === 'blue');
  t.deepEqual(Array.from(m.materialIds), [red, red, red, blue]);
  t.is(s.materials[blue]!.type, 'dielectric');
  t.truthy(m.normals);
  t.truthy(m.uvs);
  // Corners with different (v, vt, vn) are distinct vertices even at the same position.
  t.is(m.positions.length / 3, 8);
});

test('malformed OBJ/MTL raise ObjParseError with file:line:column', (t) => {
  const cases: [string, RegExp][] = [
    ['v 0 0 0\nv 1 0 0\nf 1 2\n', /x\.obj:3:1: face needs at least 3 vertices/],
    ['v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n', /x\.obj:4:7: vertex index 4 out of range/],
    ['v 0 0 0\nv 1 zero 0\n', /x\.obj:2:5: expected a number for y, got 'zero'/],
    ['v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n', /x\.obj:4:7: bad vertex index '0'/],
    ['v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2 3\n', /x\.obj:4:3: texture coordinate index 1 out of range/],
  ];
  for (const [text, re] of cases) {
    const e = t.throws(() => loadObjScene(writeObj(text)), { instanceOf: ObjParseError });
    t.regex(e!.message, re);
  }
  const bad = t.throws(() => loadObjScene(writeObj('mtllib m.mtl\n', 'newmtl a\nKd 1 x 0\n')), { instanceOf: ObjParseError });
  t.regex(bad!.message, /m\.mtl:2:6: expected a number/);
  t.throws(() => loadObjScene('/nonexistent/file.obj'), { instanceOf: ObjParseError, message: /cannot read file/ });
  t.throws(() => loadObjScene(writeObj('v 0 0 0\nmtllib  missing.mtl\n')), { instanceOf: ObjParseError, message: /x\.obj:2:9: mtllib 'missing\.mtl' not found/ });
});
