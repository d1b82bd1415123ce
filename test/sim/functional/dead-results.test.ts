import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Inst } from '../../../src/ir/inst.js';
import type { Module } from '../../../src/ir/module.js';
import { LayoutTable } from '../../../src/sim/functional/layout.js';
import { deadInstructions } from '../../../src/sim/functional/dead-results.js';

/** The LumiBench closest hit's shape: UnpackVertex reads a whole vertex, its caller one member. */
function shader(use: string): string {
  return `#version 460
#extension GL_EXT_ray_tracing : require
struct Vertex { vec3 Position; vec3 Normal; int MaterialIndex; };
layout(binding = 0, set = 0) readonly buffer V { float Vertices[]; };
layout(binding = 1, set = 0) buffer O { vec4 o[]; };
hitAttributeEXT vec2 attribs;

Vertex UnpackVertex(uint index) {
  const uint offset = index * 7;
  Vertex v;
  v.Position = vec3(Vertices[offset + 0], Vertices[offset + 1], Vertices[offset + 2]);
  v.Normal = vec3(Vertices[offset + 3], Vertices[offset + 4], Vertices[offset + 5]);
  v.MaterialIndex = floatBitsToInt(Vertices[offset + 6]);
  return v;
}

Vertex Forward(uint index) { return UnpackVertex(index); }

void main() {
  const Vertex v0 = Forward(gl_InstanceCustomIndexEXT);
  ${use}
}
`;
}

function dead(source: string): { fn: string; loads: number; stores: number }[] {
  const r = compileGlsl('k.rchit', source);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const m: Module = r.module;
  const layout = new LayoutTable(m.types);
  const d = deadInstructions(m, (t) => layout.leavesOf(t).length);
  const count = (s: Set<Inst> | undefined, op: string): number => [...(s ?? [])].filter((i) => i.op === op).length;
  return m.functions.filter((f) => (d.get(f.id)?.dead.size ?? 0) > 0).map((f) => ({ fn: f.name, loads: count(d.get(f.id)?.dead, 'load'), stores: count(d.get(f.id)?.dead, 'store') }));
}

test('a callee\'s loads of members no caller reads are dead, through a function that returns the call\'s result', (t) => {
  // Position and Normal: six buffer loads (and the offset loads beside them), their two member stores.
  const r = dead(shader('o[0] = vec4(float(v0.MaterialIndex));'));
  t.is(r.length, 1);
  t.is(r[0]!.fn, 'UnpackVertex');
  t.is(r[0]!.stores, 2);
  t.true(r[0]!.loads >= 6);
});

test('a member the caller reads keeps its loads; a whole read keeps everything', (t) => {
  const normal = dead(shader('o[0] = vec4(v0.Normal, float(v0.MaterialIndex));'));
  t.is(normal.find((x) => x.fn === 'UnpackVertex')?.stores, 1, 'Position alone is dead');
  t.deepEqual(dead(shader('const Vertex w = v0; o[0] = vec4(w.Position, 1);')), [], 'a whole load of v0 reads every member');
  t.deepEqual(dead(shader('o[0] = vec4(Forward(1u).Normal, 0);')).map((x) => [x.fn, x.stores]), [['UnpackVertex', 2], ['main', 1]], 'an extract of the call reads one member (and v0, never read, is not stored)');
});

test('a load whose components are read in part is shrunk to them (nir_opt_shrink_vectors), through a swizzle', (t) => {
  const r = compileGlsl('k.rchit', `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 1, set = 0) buffer O { vec4 o[]; };
struct P { vec4 ColorAndDistance; uint Seed; };
rayPayloadInEXT P Ray;
void main() {
  const vec4 c = Ray.ColorAndDistance;
  o[0] = vec4(c.rgb, 1);
  o[1] = vec4(float(Ray.Seed));
}
`);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const layout = new LayoutTable(r.module.types);
  const d = deadInstructions(r.module, (ty) => layout.leavesOf(ty).length);
  const main = r.module.functions.find((f) => f.name === 'main')!;
  t.deepEqual([...(d.get(main.id)?.loadedLeaves.values() ?? [])], [[true, true, true, false]], 'the vec4 load reads x, y, z; the seed is read whole');
});
