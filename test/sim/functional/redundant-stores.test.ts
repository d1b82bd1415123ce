import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Inst, ValueId } from '../../../src/ir/inst.js';
import type { Function, Module } from '../../../src/ir/module.js';
import { buildCfg } from '../../../src/ir/cfg.js';
import { dominatorTree } from '../../../src/ir/dominators.js';
import { LayoutTable } from '../../../src/sim/functional/layout.js';
import { redundantInstructions } from '../../../src/sim/functional/redundant-instructions.js';
import { promotableVariables } from '../../../src/sim/functional/promoted-vars.js';
import { redundantStateStores, ReturnSummaries } from '../../../src/sim/functional/redundant-stores.js';

/** The LumiBench closest hit's shape: Scatter returns the normal it was given and the seed it advanced. */
function shader(withDefault: boolean): string {
  return `#version 460
#extension GL_EXT_ray_tracing : require
struct RayPayload { vec4 ColorAndDistance; vec4 ScatterDirection; vec3 SurfaceNormal; uint RandomSeed; };
layout(binding = 0, set = 0) readonly buffer M { uint model[]; };
rayPayloadInEXT RayPayload Ray;
hitAttributeEXT vec2 attribs;

float RandomFloat(inout uint seed) { seed = seed * 1664525u + 1013904223u; return float(seed) / 4294967296.0; }

RayPayload ScatterA(const vec3 normal, const float t, inout uint seed) {
  const vec4 scatter = vec4(normal * RandomFloat(seed), 1);
  return RayPayload(vec4(1, 1, 1, t), scatter, normal, seed);
}

RayPayload ScatterB(const vec3 normal, const float t, inout uint seed) {
  return RandomFloat(seed) < 0.5
    ? RayPayload(vec4(t), vec4(normal, 1), normal, seed)
    : RayPayload(vec4(t), vec4(-normal, 1), normal, seed);
}

RayPayload Scatter(const uint m, const vec3 normal, const float t, inout uint seed) {
  switch (m) {
  case 0:
    return ScatterA(normal, t, seed);
  ${withDefault ? 'default:' : 'case 1:'}
    return ScatterB(normal, t, seed);
  }
}

void main() {
  const vec3 normal = normalize(gl_WorldRayDirectionEXT);
  Ray = Scatter(model[gl_InstanceCustomIndexEXT], normal, gl_HitTEXT, Ray.RandomSeed);
  Ray.SurfaceNormal = normal;
}
`;
}

function compile(source: string): Module {
  const r = compileGlsl('k.rchit', source);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.module;
}

/** Per store to the payload in main, in order: the leaves it keeps (all where it keeps every one). */
function payloadStores(m: Module): { leaves: number; kept: number }[] {
  const layout = new LayoutTable(m.types);
  const input = { module: m, leafCount: (t: number) => layout.leavesOf(t as never).length };
  const numbering = (fn: Function): ((v: ValueId) => ValueId) => redundantInstructions(fn, dominatorTree(buildCfg(fn)), promotableVariables(fn)).numberOf;
  const summaries = new ReturnSummaries(input, numbering);
  const main = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const kept = redundantStateStores(input, main, numbering(main), summaries);
  const payload = m.globals.find((g) => g.storage === 'incomingRayPayload')!.id;
  const defs = new Map<ValueId, Inst>();
  for (const b of main.blocks) for (const inst of b.insts) if ('id' in inst) defs.set(inst.id, inst);
  const rootOf = (p: ValueId): ValueId => {
    const d = defs.get(p);
    return d?.op === 'accessChain' ? rootOf(d.base) : p;
  };
  const out: { leaves: number; kept: number }[] = [];
  for (const b of main.blocks) {
    for (const inst of b.insts) {
      if (inst.op !== 'store' || rootOf(inst.ptr) !== payload) continue;
      const k = kept.get(inst);
      const leaves = k?.length ?? -1;
      out.push({ leaves, kept: k === undefined ? leaves : k.filter((x) => x).length });
    }
  }
  return out;
}

test('NIR keeps the struct\'s seed where a path returns undefined, and drops the normal the struct already stored', (t) => {
  // The seed's copy-out (kept), the 12-leaf struct (all kept: the seed's phi has an undefined source), the normal (dropped).
  t.deepEqual(payloadStores(compile(shader(false))), [{ leaves: -1, kept: -1 }, { leaves: -1, kept: -1 }, { leaves: 3, kept: 0 }]);
});

test('with every path returning a struct, the struct\'s seed is the seed just copied out as well', (t) => {
  t.deepEqual(payloadStores(compile(shader(true))), [{ leaves: -1, kept: -1 }, { leaves: 12, kept: 11 }, { leaves: 3, kept: 0 }]);
});

test('a store of a different value is kept', (t) => {
  const src = shader(true).replace('Ray.SurfaceNormal = normal;', 'Ray.SurfaceNormal = -normal;');
  t.deepEqual(payloadStores(compile(src)).at(-1), { leaves: -1, kept: -1 });
});
