/**
 * Ray tracing in the IR: storage classes of every interface variable kind, built-in variables of
 * every stage as `input` globals with their `builtin`, gl_RayFlags / gl_HitKind constants, traceRay
 * with its payload global, reportIntersection, the any-hit terminators, stage rules.
 */
import test from 'ava';
import { BUILTIN_VARIABLES, STAGE_NAMES } from '../../../src/frontend/glsl/builtins/variables.js';
import type { Stage } from '../../../src/ir/module.js';
import { compileErrors, compileOk, compileSnippet, constantValue, fn, instsOf } from './compile-fixtures/harness.js';

const EXT: Record<Stage, string> = { raygen: 'rgen', closestHit: 'rchit', miss: 'rmiss', anyHit: 'rahit', intersection: 'rint', callable: 'rcall', compute: 'comp' };

test('interface variables get the storage class of their qualifier', (t) => {
  const m = compileOk(
    'struct P { vec3 c; int d; };\n' +
    'layout(location = 0) rayPayloadEXT P pay;\nlayout(location = 1) callableDataEXT vec4 cd;\n' +
    'layout(location = 0) rayPayloadInEXT P inPay;\nhitAttributeEXT vec2 attr;\n' +
    'layout(set = 1, binding = 2) uniform accelerationStructureEXT tlas;\nlayout(set = 0, binding = 3) uniform sampler2D tex[];\n' +
    'layout(set = 0, binding = 4, rgba8) uniform image2D img;\n' +
    'layout(binding = 5) uniform U { vec4 a; } u;\nlayout(binding = 6) buffer S { vec4 b[]; } s;\nlayout(push_constant) uniform PC { int k; } pc;\n' +
    'layout(shaderRecordEXT) buffer SR { uint id; } sr;\nfloat priv = 1.0;\n' +
    'void main() { pay.c = vec3(attr, u.a.x + s.b[0].x + float(pc.k + int(sr.id)) + priv); inPay.d = 1; cd = vec4(1.0); }',
    'rchit',
  );
  const storage = Object.fromEntries(m.globals.map((g) => [g.name, g.storage]));
  t.like(storage, {
    pay: 'rayPayload', cd: 'callableData', inPay: 'incomingRayPayload', attr: 'hitAttribute', tlas: 'uniformConstant', tex: 'uniformConstant',
    img: 'uniformConstant', u: 'uniform', s: 'storageBuffer', pc: 'pushConstant', sr: 'shaderRecordBuffer', priv: 'private',
  });
  const g = (n: string) => m.globals.find((x) => x.name === n)!;
  t.like(g('tlas'), { set: 1, binding: 2 });
  t.like(g('pay'), { location: 0 });
  t.like(g('cd'), { location: 1 });
  const img = m.types.types[(m.types.types[g('img').type] as { pointee: number }).pointee]!;
  t.like(img, { kind: 'image', format: 'rgba8', sampled: false, dim: '2D' });
  const uBlock = m.types.types[(m.types.types[g('u').type] as { pointee: number }).pointee]!;
  t.like(uBlock, { kind: 'struct', block: true, layout: 'std140' });
  const pcBlock = m.types.types[(m.types.types[g('pc').type] as { pointee: number }).pointee]!;
  t.like(pcBlock, { kind: 'struct', block: true, layout: 'std430' });
  t.truthy(g('priv').init);
  t.is(constantValue(m, g('priv').init!), 1);
});

test('callableDataInEXT in callable shaders; hit attributes are read-only outside intersection shaders', (t) => {
  const m = compileOk('layout(location = 2) callableDataInEXT vec3 data;\nvoid main() { data *= 2.0; }', 'rcall');
  t.is(m.globals.find((g) => g.name === 'data')!.storage, 'incomingCallableData');
  t.regex(compileErrors('hitAttributeEXT vec2 a;\nvoid main() { a = vec2(1.0); }', 'rchit')[0]!, /read-only input 'a'/);
  t.truthy(compileOk('hitAttributeEXT vec2 a;\nvoid main() { a = vec2(1.0); reportIntersectionEXT(1.0, 0u); }', 'rint'));
});

for (const [name, bv] of Object.entries(BUILTIN_VARIABLES)) {
  const stage = bv.stages[0]!;
  test(`built-in ${name} is an input global with builtin ${bv.builtin} in ${STAGE_NAMES[stage]} shaders`, (t) => {
    const ext = name.startsWith('gl_Subgroup') ? '#extension GL_KHR_shader_subgroup_basic : require\n' : name === 'gl_CullMaskEXT' ? '#extension GL_EXT_ray_cull_mask : require\n' : name === 'gl_HitTriangleVertexPositionsEXT' ? '#extension GL_EXT_ray_tracing_position_fetch : require\n' : '';
    const src = stage === 'compute' ? `#version 460\n${ext}layout(local_size_x = 1) in;\nvoid main() { ${bv.type} x = ${name}; }` : `#version 460\n#extension GL_EXT_ray_tracing : require\n${ext}void main() { ${bv.type} x = ${name}; }`;
    const m = compileOk(src, EXT[stage]);
    const g = m.globals.find((x) => x.name === name)!;
    t.like(g, { storage: 'input', builtin: bv.builtin });
    t.is(instsOf(fn(m), 'load').filter((l) => l.ptr === g.id).length, 1);
    const wrong = (['raygen', 'closestHit', 'miss', 'anyHit', 'intersection', 'callable', 'compute'] as Stage[]).find((s) => !bv.stages.includes(s));
    if (wrong && wrong !== 'compute') {
      const r = compileSnippet(`#version 460\n#extension GL_EXT_ray_tracing : require\n${ext}void main() { ${bv.type} x = ${name}; }`, EXT[wrong]);
      t.is(r.module, undefined);
      t.regex(r.diagnostics[0]!.message, new RegExp(`'${name}' is not available in ${STAGE_NAMES[wrong]} shaders`));
    }
  });
}

test('object-to-world matrices have the GLSL shapes (mat4x3 and mat3x4)', (t) => {
  const m = compileOk('void main() { vec3 p = gl_ObjectToWorldEXT * vec4(1.0); vec4 q = gl_ObjectToWorld3x4EXT * vec3(1.0); }', 'rchit');
  t.is(m.types.types[(m.types.types[m.globals.find((g) => g.builtin === 'ObjectToWorld')!.type] as { pointee: number }).pointee]!.kind, 'matrix');
  t.true(instsOf(fn(m), 'binary').filter((b) => b.kind === 'matrixTimesVector').length === 2);
});

test('ray tracing and subgroup names need their extensions, as glslang requires', (t) => {
  const r = compileSnippet('#version 460\nvoid main() { uint x = gl_SubgroupSize + gl_LaunchIDEXT.x + gl_RayFlagsOpaqueEXT; }', 'rgen');
  t.deepEqual(r.diagnostics.map((d) => d.message), [
    "'gl_SubgroupSize' requires #extension GL_KHR_shader_subgroup_basic (or GL_KHR_shader_subgroup_vote, GL_KHR_shader_subgroup_ballot)",
    "'gl_LaunchIDEXT' requires #extension GL_EXT_ray_tracing",
    "'gl_RayFlagsOpaqueEXT' requires #extension GL_EXT_ray_tracing",
  ]);
});

test('ray flag and hit kind constants are uint constants', (t) => {
  t.regex(compileErrors('void main() { uint f = gl_RayFlagsSkipAABBEXT; }', 'rgen')[0]!, /requires #extension GL_EXT_ray_flags_primitive_culling/);
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_ray_flags_primitive_culling : require\nlayout(location = 0) rayPayloadInEXT uint k;\nvoid main() { k = gl_RayFlagsOpaqueEXT | gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsCullBackFacingTrianglesEXT | gl_RayFlagsSkipAABBEXT; if (gl_HitKindEXT == gl_HitKindBackFacingTriangleEXT) k = 0u; }', 'rchit');
  t.truthy(m.constants.find((c) => c.value === 1 + 4 + 16 + 512), 'folded flags');
  t.truthy(m.constants.find((c) => c.value === 0xff));
});

test('traceRayEXT carries every operand and the payload global of its location', (t) => {
  const m = compileOk('layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;\nlayout(location = 0) rayPayloadEXT vec3 a;\nlayout(location = 3) rayPayloadEXT float b;\nvoid main() { traceRayEXT(tlas, gl_RayFlagsOpaqueEXT, 0xFF, 1, 2, 3, vec3(0.0), 0.001, vec3(0, 0, 1), 100.0, 3); }');
  const tr = instsOf(fn(m), 'traceRay')[0]!;
  t.is(tr.payload, m.globals.find((g) => g.name === 'b')!.id);
  t.is(constantValue(m, tr.sbtOffset), 1);
  t.is(constantValue(m, tr.missIndex), 3);
  t.is(constantValue(m, tr.tmax), 100);
  t.regex(compileErrors('layout(location = 0) rayPayloadEXT vec3 a;\nlayout(location = 0) rayPayloadEXT vec3 b;\nvoid main() {}')[0]!, /location 0 is already used/);
});

test('traceRayEXT may pass the incoming payload (recursive tracing from closest-hit)', (t) => {
  const m = compileOk('layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;\nlayout(location = 0) rayPayloadInEXT vec3 prd;\nlayout(location = 1) rayPayloadEXT bool shadowed;\nvoid main() { traceRayEXT(tlas, 0u, 0xFFu, 0u, 0u, 0u, vec3(0.0), 0.0, vec3(1.0), 1.0, 0); traceRayEXT(tlas, 0u, 0xFFu, 0u, 0u, 1u, vec3(0.0), 0.0, vec3(1.0), 1.0, 1); }', 'rchit');
  const [a, b] = instsOf(fn(m), 'traceRay');
  t.is(a!.payload, m.globals.find((g) => g.name === 'prd')!.id);
  t.is(b!.payload, m.globals.find((g) => g.name === 'shadowed')!.id);
});

test('hitAttributeEXT takes no layout qualifiers; rayPayloadEXT is accepted in any-hit shaders as glslang does', (t) => {
  t.regex(compileErrors('layout(location = 1) hitAttributeEXT vec2 a;\nvoid main() {}', 'rchit')[0]!, /layout qualifiers cannot be applied to the hitAttributeEXT variable 'a'/);
  t.truthy(compileOk('layout(location = 0) rayPayloadEXT vec4 v;\nvoid main() { v = vec4(1.0); }', 'rahit'));
});

test('reportIntersectionEXT returns bool; any-hit jumps terminate the block', (t) => {
  const m = compileOk('hitAttributeEXT vec2 h;\nvoid main() { bool ok = reportIntersectionEXT(0.5, 1u); if (!ok) h = vec2(0.0); }', 'rint');
  const ri = instsOf(fn(m), 'reportIntersection')[0]!;
  t.is(m.types.types[ri.type]!.kind, 'bool');
  const ah = compileOk('layout(location = 0) rayPayloadInEXT float x;\nvoid main() { if (x < 0.0) ignoreIntersectionEXT; if (x > 1.0) terminateRayEXT; x = 2.0; }', 'rahit');
  const f = fn(ah);
  t.is(instsOf(f, 'ignoreIntersection').length, 1);
  t.is(instsOf(f, 'terminateRay').length, 1);
  for (const b of f.blocks) t.true(['branch', 'condBranch', 'return', 'ignoreIntersection', 'terminateRay', 'unreachable'].includes(b.insts.at(-1)!.op));
});

test('stage rules: traceRay / executeCallable / storage qualifiers / discard', (t) => {
  t.regex(compileErrors('layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;\nvoid main() { traceRayEXT(tlas, 0u, 0xFFu, 0u, 0u, 0u, vec3(0.0), 0.0, vec3(1.0), 1.0, 0); }', 'rint')[0]!, /'traceRayEXT' is not available in intersection shaders/);
  t.regex(compileErrors('void main() { executeCallableEXT(0u, 0); }', 'rahit')[0]!, /'executeCallableEXT' is not available in any-hit shaders/);
  t.regex(compileErrors('layout(location = 0) callableDataInEXT vec3 d;\nvoid main() {}', 'rgen')[0]!, /'callableDataInEXT' variables are not allowed in ray generation shaders/);
  t.regex(compileErrors('void main() { terminateRayEXT; }', 'rint')[0]!, /'terminateRayEXT' is only allowed in any-hit shaders/);
  t.regex(compileErrors('void main() { discard; }', 'rahit')[0]!, /'discard' is not allowed in any-hit shaders; use ignoreIntersectionEXT/);
});
