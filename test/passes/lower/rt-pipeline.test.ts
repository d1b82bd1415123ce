import test from 'ava';
import { join } from 'node:path';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Module } from '../../../src/ir/module.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { linkPipeline, PipelineLinkError } from '../../../src/passes/lower/rt-pipeline.js';

const W = join(import.meta.dirname, '..', '..', '..', 'workloads');

function compile(path: string, text?: string): Module {
  const r = compileGlsl(path, text, { includeDirs: [join(W, 'common')] });
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (!r.module || errors.length) throw new Error(errors.map((d) => `${d.file}:${d.line}: ${d.message}`).join('\n'));
  return r.module;
}

function ops(m: Module): Set<string> {
  const s = new Set<string>();
  for (const f of m.functions) for (const b of f.blocks) for (const i of b.insts) s.add(i.op);
  return s;
}

function rtCalls(m: Module): string[] {
  const out: string[] = [];
  for (const f of m.functions) for (const b of f.blocks) for (const i of b.insts) if (i.op === 'rtCall') out.push(i.fn);
  return out;
}

test('tri links into one verified module with raygen as the only entry and no RT ops left', (t) => {
  const rgen = compile(join(W, 'tri', 'raygen.rgen'));
  const chit = compile(join(W, 'tri', 'closesthit.rchit'));
  const miss = compile(join(W, 'tri', 'miss.rmiss'));
  const linked = linkPipeline({ raygen: rgen, miss: [miss], hitGroups: [{ closestHit: chit }], callables: [] });
  t.deepEqual(verifyModule(linked.module), []);
  t.is(linked.module.entryPoints.length, 1);
  t.is(linked.module.entryPoints[0]!.stage, 'raygen');
  const present = ops(linked.module);
  for (const op of ['traceRay', 'executeCallable', 'reportIntersection', 'ignoreIntersection', 'terminateRay']) t.false(present.has(op), op);
  // Algorithm 1: traverse, the candidate loop, the shading dispatch, end of the ray.
  const calls = rtCalls(linked.module);
  for (const fn of ['traverse', 'selectCandidate', 'committedHitGroup', 'missIndex', 'restoreCommitted', 'endTrace']) t.true(calls.includes(fn), fn);
  t.deepEqual(linked.shaders.map((s) => s.stage).sort(), ['closestHit', 'miss', 'raygen']);
});

test('a shader used by two hit groups is linked once; intersection shaders once per hit group', (t) => {
  const rgen = compile(join(W, 'rtv6', 'raygen.rgen'));
  const sphere = compile(join(W, 'rtv6', 'sphere.rint'));
  const chit = compile(join(W, 'rtv6', 'sphere.rchit'));
  const miss = compile(join(W, 'rtv6', 'miss.rmiss'));
  const linked = linkPipeline({
    raygen: rgen, miss: [miss],
    hitGroups: [{ intersection: sphere, closestHit: chit }, { intersection: sphere, closestHit: chit }], callables: [],
  });
  t.deepEqual(verifyModule(linked.module), []);
  const chits = new Set(linked.shaders.filter((s) => s.stage === 'closestHit').map((s) => s.function));
  const isects = new Set(linked.shaders.filter((s) => s.stage === 'intersection').map((s) => s.function));
  t.is(chits.size, 1);
  t.is(isects.size, 2);
  t.true(rtCalls(linked.module).includes('reportIntersection'));
  t.true(rtCalls(linked.module).includes('commitPending'));
});

const RGEN = `#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
struct Payload { vec3 color; int depth; };
layout(location = 0) rayPayloadEXT Payload p;
layout(location = 1) rayPayloadEXT float shadow;
void main() {
  traceRayEXT(tlas, 0, 0xFF, 0, 0, 0, vec3(0), 0.0, vec3(0, 0, 1), 100.0, 0);
  traceRayEXT(tlas, 0, 0xFF, 0, 0, 1, vec3(0), 0.0, vec3(0, 0, 1), 100.0, 1);
}`;
const MISS_STRUCT = `#version 460
#extension GL_EXT_ray_tracing : require
struct Payload { vec3 color; int depth; };
layout(location = 0) rayPayloadInEXT Payload p;
void main() { p.color = vec3(1); }`;
const MISS_FLOAT = `#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT float shadow;
void main() { shadow = 1.0; }`;
const AHIT = `#version 460
#extension GL_EXT_ray_tracing : require
struct Payload { vec3 color; int depth; };
layout(location = 0) rayPayloadInEXT Payload p;
void main() { if (p.depth > 2) ignoreIntersectionEXT; if (p.depth > 1) terminateRayEXT; }`;

test('each traceRay dispatches only to shaders whose payload has the same shape', (t) => {
  const linked = linkPipeline({
    raygen: compile('a.rgen', RGEN),
    miss: [compile('m0.rmiss', MISS_STRUCT), compile('m1.rmiss', MISS_FLOAT)],
    hitGroups: [],
    callables: [],
  });
  t.deepEqual(verifyModule(linked.module), []);
  const missFns = linked.shaders.filter((s) => s.stage === 'miss').map((s) => s.function);
  // Count call sites of each miss shader: each is reachable from exactly one of the two traceRays.
  const calls = new Map<number, number>();
  for (const f of linked.module.functions) for (const b of f.blocks) for (const i of b.insts) if (i.op === 'call') calls.set(i.callee, (calls.get(i.callee) ?? 0) + 1);
  t.deepEqual(missFns.map((f) => calls.get(f)), [1, 1]);
});

test('any-hit exits become status returns: 0 accept, 1 ignoreIntersection, 2 terminateRay', (t) => {
  const linked = linkPipeline({
    raygen: compile('a.rgen', RGEN), miss: [], hitGroups: [{ anyHit: compile('h.rahit', AHIT) }], callables: [],
  });
  t.deepEqual(verifyModule(linked.module), []);
  const ahit = linked.module.functions.find((f) => f.id === linked.shaders.find((s) => s.stage === 'anyHit')!.function)!;
  const statuses = new Set<unknown>();
  for (const b of ahit.blocks) {
    const last = b.insts[b.insts.length - 1]!;
    if (last.op === 'return') statuses.add(linked.module.constants.find((c) => c.id === last.value)?.value);
  }
  t.deepEqual([...statuses].sort(), [0, 1, 2]);
});

test('linking reports a stage in the wrong SBT slot', (t) => {
  const e = t.throws(() => linkPipeline({ raygen: compile('m.rmiss', MISS_FLOAT), miss: [], hitGroups: [], callables: [] }));
  t.true(e instanceof PipelineLinkError);
  t.regex(e!.message, /is a miss shader, expected raygen/);
});
