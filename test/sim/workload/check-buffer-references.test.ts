// The static layout check: a buffer whose address a shader reads through a buffer_reference type
// must be laid out as that type's elements. Reproduces the case of issue 16 (a 44-byte vertex
// read from vvision's 32-byte scene vertices) and the manifest that fixes it.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileWorkload } from '../../../src/driver/compile-workload.js';
import { addressUses, checkBlasVertexStrides } from '../../../src/sim/workload/check-buffer-references.js';
import { loadManifest } from '../../../src/sim/workload/load-manifest.js';

const RCHIT = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
struct VertexObj { vec3 pos; vec3 nrm; vec3 color; vec2 texCoord; };
struct ObjDesc { uint64_t vertexAddress; uint64_t indexAddress; };
layout(buffer_reference, scalar) readonly buffer Vertices { VertexObj v[]; };
layout(buffer_reference, scalar) readonly buffer Indices { ivec3 i[]; };
// Same size as VertexObj, members in another order (another application's vertex).
struct VertexSwapped { vec3 nrm; vec3 pos; vec3 color; vec2 texCoord; };
layout(buffer_reference, scalar) readonly buffer VerticesSwapped { VertexSwapped v[]; };
layout(set = 0, binding = 1, scalar) readonly buffer ObjDesc_ { ObjDesc i[]; } objDesc;
layout(location = 0) rayPayloadInEXT vec3 hitValue;
void main() {
  ObjDesc d = objDesc.i[gl_InstanceCustomIndexEXT];
  Vertices vertices = Vertices(d.vertexAddress);
  Indices indices = Indices(objDesc.i[0].indexAddress);
  ivec3 ind = indices.i[gl_PrimitiveID];
  hitValue = vertices.v[ind.x].color;
}
`;
const RGEN = `#version 460
#extension GL_EXT_ray_tracing : require
void main() {}
`;
const RMISS = `#version 460
#extension GL_EXT_ray_tracing : require
void main() {}
`;
const OBJ = resolve(import.meta.dirname, '../../../workloads/scenes/CornellBox-Original.obj');

function manifest(vertices: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'vv-bufref-'));
  writeFileSync(join(dir, 'hit.rchit'), RCHIT);
  writeFileSync(join(dir, 'main.rgen'), RGEN);
  writeFileSync(join(dir, 'miss.rmiss'), RMISS);
  writeFileSync(join(dir, 'workload.json'), JSON.stringify({
    name: 'bufref',
    shaders: { raygen: ['main.rgen'], closestHit: ['hit.rchit'], miss: ['miss.rmiss'] },
    hitGroups: [{ closestHit: 'hit.rchit' }],
    miss: ['miss.rmiss'],
    descriptors: [
      { set: 0, binding: 1, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'instanceDescriptions' },
      { set: 0, binding: 4, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'indices' },
      { set: 0, binding: 5, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'vertices', ...vertices },
    ],
    scene: { obj: OBJ },
    launch: { width: 1, height: 1 },
    ...extra,
  }));
  return join(dir, 'workload.json');
}

function warnings(path: string): string[] {
  const out: string[] = [];
  compileWorkload(loadManifest(path), (w) => out.push(w));
  return out;
}

test('the shader sites that turn a struct member into a buffer_reference are found, through a local copy too', (t) => {
  const m = compileWorkload(loadManifest(manifest({ struct: 'VertexObj', fields: { pos: 'position', nrm: 'normal' } })), () => {}).modules;
  const uses = m.flatMap(addressUses).map((u) => `${u.struct}.${u.member} ${u.where.replace(/^.*\//, '')}`);
  t.deepEqual(uses.sort(), ['ObjDesc.indexAddress hit.rchit:18', 'ObjDesc.vertexAddress hit.rchit:17']);
});

test("scene vertices in vvision's 32-byte layout read as a 44-byte VertexObj: a warning with the key and file:line", (t) => {
  const w = warnings(manifest({}));
  t.is(w.length, 1, w.join('\n'));
  t.regex(w[0]!, /descriptors\[2\]: its elements are 32 bytes \(vvision's fixed vertices layout .*\) and the shader's VertexObj elements 44 bytes, but .*hit\.rchit:17 reads it through ObjDesc\.vertexAddress as Vertices \(descriptors\[0\] holds the address\)/);
});

test('the same vertices packed in the shader struct give no warning', (t) => {
  t.deepEqual(warnings(manifest({ struct: 'VertexObj', fields: { pos: 'position', nrm: 'normal' } })), []);
});

test('same element size but members at other offsets: a warning naming them', (t) => {
  const w = warnings(manifest({ struct: 'VertexSwapped', fields: { pos: 'position', nrm: 'normal' } }));
  t.is(w.length, 1, w.join('\n'));
  t.regex(w[0]!, /descriptors\[2\]: member offsets differ from the shader's VertexObj: pos at 12 vs 0, nrm at 0 vs 12, but .*hit\.rchit:17/);
});

test('a named buffer whose address is given by value is checked too', (t) => {
  const path = manifest({ id: 'verts', struct: 'VertexObj', fields: { pos: 'position', nrm: 'normal' } }, {
    buffers: [{ name: 'descs', struct: 'ObjDesc', value: [{ vertexAddress: { addressOf: 'verts' }, indexAddress: { addressOf: 'idx' } }] },
      { name: 'idx', element: 'uint64_t', value: [0, 1, 2] }],
  });
  const w = warnings(path);
  t.is(w.length, 1, w.join('\n'));
  t.regex(w[0]!, /buffers\[1\] \("idx"\): its elements are 8 bytes \(uint64_t\) and the shader's vec3<i32> elements 12 bytes, but .*hit\.rchit:18 reads it through ObjDesc\.indexAddress as Indices \(buffers\[0\] holds the address\)/);
});

test('indices given as scalars where the shader reads vectors of the same component: identical bytes, no warning', (t) => {
  // int or uint written, ivec3 read (nvpro's `ivec3 i[]` over a uint32 index buffer): the same bits.
  for (const element of ['int', 'uint']) {
    const path = manifest({ id: 'verts', struct: 'VertexObj', fields: { pos: 'position', nrm: 'normal' } }, {
      buffers: [{ name: 'descs', struct: 'ObjDesc', value: [{ vertexAddress: { addressOf: 'verts' }, indexAddress: { addressOf: 'idx' } }] },
        { name: 'idx', element, value: [0, 1, 2] }],
    });
    t.deepEqual(warnings(path), [], element);
  }
});

test("the bindless workload without its struct: vvision's vertex layout has the same size but normal elsewhere", (t) => {
  const m = loadManifest(resolve(import.meta.dirname, '../../../workloads/bindless/workload.json'));
  t.deepEqual((() => { const w: string[] = []; compileWorkload(m, (x) => w.push(x)); return w; })(), [], 'as shipped: no warning');
  const buffers = m.buffers!.map((b) => (b.name === 'crate.vertices' ? { ...b, content: { ...b.content, struct: undefined, fields: undefined } } : b))
    .map((b) => { const c = { ...b.content }; if (c.struct === undefined) delete c.struct; if (c.fields === undefined) delete c.fields; return { ...b, content: c }; });
  const w: string[] = [];
  compileWorkload({ ...m, buffers }, (x) => w.push(x));
  t.is(w.length, 1, w.join('\n'));
  t.regex(w[0]!, /buffers\[0\] \("crate\.vertices"\): member offsets differ from the shader's Vertex: normal at 12 vs 20, but .*closesthit\.rchit:19 reads it through Object\.vertices as VertexBuffer \(buffers\[4\] holds the address\)/);
});

test('a struct member declared with a buffer_reference type is checked at its declaration', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-bufref-typed-'));
  writeFileSync(join(dir, 'main.rgen'), `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
struct VertexObj { vec3 pos; vec3 nrm; vec3 color; vec2 texCoord; };
layout(buffer_reference, scalar) readonly buffer Verts { VertexObj v[]; };
struct Mesh { Verts verts; uint count; };
layout(buffer_reference, scalar) readonly buffer Meshes { Mesh m[]; };
layout(push_constant) uniform Push { Meshes meshes; } pc;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
void main() {
  Mesh mesh = pc.meshes.m[0];
  imageStore(img, ivec2(0), vec4(mesh.verts.v[0].color, 1.0));
}
`);
  writeFileSync(join(dir, 'miss.rmiss'), RMISS);
  writeFileSync(join(dir, 'workload.json'), JSON.stringify({
    name: 'typed',
    shaders: { raygen: ['main.rgen'], miss: ['miss.rmiss'] },
    miss: ['miss.rmiss'],
    descriptors: [{ set: 0, binding: 0, kind: 'storageImage', format: 'rgba8', role: 'output' }],
    buffers: [
      { name: 'meshes', layout: 'scalar', struct: 'Mesh', value: [{ verts: { addressOf: 'positions' }, count: 3 }] },
      { name: 'positions', element: 'vec3', value: [[0, 0, 0], [1, 0, 0], [0, 1, 0]] },
    ],
    pushConstants: { meshes: { addressOf: 'meshes' } },
    scene: { obj: OBJ },
    launch: { width: 1, height: 1 },
  }));
  const w = warnings(join(dir, 'workload.json'));
  t.is(w.length, 1, w.join('\n'));
  t.regex(w[0]!, /buffers\[1\] \("positions"\): its elements are 12 bytes \(vec3\) and the shader's VertexObj elements 44 bytes, but .*main\.rgen:8 reads it through Mesh\.verts as Verts \(buffers\[0\] holds the address\)/);
});

test('a BLAS reading a named buffer at a stride other than its hostStruct is a warning; the shader-view-only case is not', (t) => {
  const app = resolve(import.meta.dirname, '../../../examples/apps/sascha-raytracingreflections/workload.json');
  const m = loadManifest(app);
  t.deepEqual(checkBlasVertexStrides(m, []), []);
  const d = m.descriptors.find((x) => x.kind === 'storageBuffer' && x.id === 'vertices');
  if (d?.kind !== 'storageBuffer' || !d.hostStruct) return t.fail('the example declares a hostStruct');
  d.hostStruct = d.hostStruct.map((h) => (h.name === 'pos' ? { ...h, type: 'vec4' } : h));
  const w = checkBlasVertexStrides(m, []);
  t.is(w.length, 1);
  t.regex(w[0]!, /accelerationStructures\.blas\[0\]\.geometries\[0\]\.vertexStride: 96, but buffer "vertices" \(descriptors\[\d\]\) holds 100-byte elements \(its hostStruct\)/);
  delete d.hostStruct;
  t.deepEqual(checkBlasVertexStrides(m, []), []);
});
