/**
 * Built-in functions: the signature table expands as the GLSL spec's genType families, and every
 * family lowers to the IR instruction it should (GLSL.std.450 `ext`, relational `compare`/`test`,
 * bit ops, bitcasts, packing, matrices, subgroups, atomics, clocks, debugPrintfEXT, textures and
 * images). Overload errors list candidates.
 */
import test from 'ava';
import { BUILTIN_FUNCTIONS, builtinSignatures } from '../../../src/frontend/glsl/builtins/functions.js';
import { compileErrors, compileOk, fn, instsOf } from './compile-fixtures/harness.js';

const P = 'layout(location = 0) rayPayloadEXT vec4 p;\n';

test('genType families expand to every size; vecN families to 2..4', (t) => {
  const clamp = builtinSignatures('clamp');
  t.true(clamp.some((s) => s.ret === 'vec3' && s.params.join() === 'vec3,float,float'));
  t.true(clamp.some((s) => s.ret === 'uint' && s.params.join() === 'uint,uint,uint'));
  t.deepEqual(builtinSignatures('lessThan').filter((s) => s.params[0] === 'vec2' || s.params[0] === 'vec1'), [{ ret: 'bvec2', params: ['vec2', 'vec2'], byRef: [false, false] }]);
  t.deepEqual(builtinSignatures('modf').find((s) => s.ret === 'vec4'), { ret: 'vec4', params: ['vec4', 'vec4'], byRef: [false, true] });
  t.true(builtinSignatures('transpose').some((s) => s.ret === 'mat3x4' && s.params[0] === 'mat4x3'));
  t.true(builtinSignatures('outerProduct').some((s) => s.ret === 'mat2x3' && s.params.join() === 'vec3,vec2'));
  for (const name of Object.keys(BUILTIN_FUNCTIONS)) t.true(builtinSignatures(name).length > 0, name);
});

test('GLSL.std.450 math lowers to ext with operands splatted to the result shape', (t) => {
  const fns = ['sin', 'cos', 'tan', 'asin', 'acos', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'exp', 'log', 'exp2', 'log2', 'sqrt', 'inversesqrt', 'abs', 'sign', 'floor', 'ceil', 'round', 'roundEven', 'trunc', 'fract', 'radians', 'degrees', 'normalize'];
  const body = fns.map((f) => `v += ${f}(p.xyz);`).join(' ');
  const m = compileOk(P + `void main() { vec3 v = vec3(0); ${body} v += pow(v, v) + min(v, 0.5) + max(v, p.xyz) + clamp(v, 0.0, 1.0) + mix(v, p.xyz, 0.25) + step(0.5, v) + smoothstep(0.0, 1.0, v) + fma(v, v, v) + cross(v, v) + reflect(v, v) + refract(v, v, 1.5) + faceforward(v, v, v); float l = length(v) + distance(v, v) + atan(v.x) + atan(v.y, v.x); p = vec4(v, l); }`);
  const f = fn(m);
  const ext = instsOf(f, 'ext');
  const used = new Set(ext.map((e) => e.fn));
  for (const x of [...fns, 'pow', 'min', 'max', 'clamp', 'mix', 'step', 'smoothstep', 'fma', 'cross', 'reflect', 'refract', 'faceforward', 'length', 'distance', 'atan', 'atan2']) t.true(used.has(x as never), x);
  const clamp = ext.find((e) => e.fn === 'clamp')!;
  for (const a of clamp.args.slice(1)) t.is(m.constants.find((c) => c.id === a)?.parts?.length, 3, 'clamp bounds splatted to vec3');
  const step = ext.find((e) => e.fn === 'step')!;
  const edge = m.constants.find((c) => c.id === step.args[0]);
  t.is(edge?.parts?.length, 3, 'scalar edge splatted to vec3');
  const refract = ext.find((e) => e.fn === 'refract')!;
  t.is(m.types.types[m.constants.find((c) => c.id === refract.args[2])!.type]!.kind, 'float', 'eta stays scalar');
});

test('mod, dot, modf/frexp out parameters, ldexp, integer min/max', (t) => {
  const m = compileOk(P + 'void main() { vec3 i; vec3 fr = modf(p.xyz, i); ivec3 e; vec3 mant = frexp(p.xyz, e); vec3 r = mod(p.xyz, 2.0) + ldexp(mant, e); int k = max(int(p.x), 3) + min(2, 5); p = vec4(fr + i + r, dot(p, p) + dot(p.x, p.y) + float(k)); }');
  const f = fn(m);
  const bins = instsOf(f, 'binary').map((b) => b.kind);
  t.true(bins.includes('mod'));
  t.true(bins.includes('dot'));
  const modf = instsOf(f, 'ext').find((e) => e.fn === 'modf')!;
  t.true(instsOf(f, 'variable').some((v) => v.id === modf.args[1]), 'modf writes through a temporary pointer');
  t.true(instsOf(f, 'ext').some((e) => e.fn === 'frexp'));
  t.true(instsOf(f, 'ext').some((e) => e.fn === 'ldexp'));
});

test('mix with a boolean selector is a select; vector relational functions compare and reduce', (t) => {
  const m = compileOk(P + 'void main() { bvec3 b = lessThan(p.xyz, vec3(0.5)); vec3 s = mix(p.xyz, vec3(1.0), b); bool a = any(b) || all(not(b)) || any(equal(ivec2(p.xy), ivec2(1))) || any(isnan(p)) || any(isinf(p.xy)) || any(greaterThanEqual(uvec2(1u), uvec2(0u))); p.x = a ? s.x : 0.0; }');
  const f = fn(m);
  t.true(instsOf(f, 'select').some((s) => m.types.types[s.type]!.kind === 'vector'));
  const cmp = instsOf(f, 'compare').map((c) => c.kind);
  t.true(cmp.includes('lt') && cmp.includes('eq') && cmp.includes('ge'));
  const tests = new Set(instsOf(f, 'test').map((x) => x.kind));
  for (const k of ['any', 'all', 'isnan', 'isinf'] as const) t.true(tests.has(k), k);
  t.true(instsOf(f, 'unary').some((u) => u.kind === 'not'));
});

test('bit operations, bitcasts and packing', (t) => {
  const m = compileOk(P + 'void main() { uint u = floatBitsToUint(p.x); int i = floatBitsToInt(p.y); float f = uintBitsToFloat(u) + intBitsToFloat(i); uint x = bitfieldExtract(u, 1, 3) + bitfieldInsert(u, 7u, 4, 3) + bitfieldReverse(u) + uint(bitCount(u) + findLSB(u) + findMSB(i)); uint pk = packUnorm4x8(p) + packSnorm4x8(p) + packHalf2x16(p.xy) + packUnorm2x16(p.zw) + packSnorm2x16(p.xy); vec4 up = unpackUnorm4x8(pk) + unpackSnorm4x8(pk) + vec4(unpackHalf2x16(pk), unpackUnorm2x16(pk)) + vec4(unpackSnorm2x16(pk), 0, 0); p = up + vec4(f + float(x)); }');
  const f = fn(m);
  t.is(instsOf(f, 'bitcast').length, 4);
  t.deepEqual(new Set(instsOf(f, 'bits').map((b) => b.fn)), new Set(['bitfieldExtract', 'bitfieldInsert', 'bitfieldReverse', 'bitCount']));
  const ext = new Set(instsOf(f, 'ext').map((e) => e.fn));
  for (const k of ['findLSB', 'findMSB', 'packUnorm4x8', 'packSnorm4x8', 'packHalf2x16', 'packUnorm2x16', 'packSnorm2x16', 'unpackUnorm4x8', 'unpackSnorm4x8', 'unpackHalf2x16', 'unpackUnorm2x16', 'unpackSnorm2x16'] as const) t.true(ext.has(k), k);
});

test('matrix functions: transpose, determinant, inverse, outerProduct, matrixCompMult', (t) => {
  const m = compileOk(P + 'void main() { mat3 a = mat3(p.x); mat3x4 tr = transpose(mat4x3(1.0)); mat3 c = matrixCompMult(a, a); mat2x3 o = outerProduct(p.xyz, p.xy); float d = determinant(a); mat4 inv = inverse(mat4(2.0)); p = tr * p.xyz + inv[0] + vec4(c[0] + o[1], d); }');
  const f = fn(m);
  t.true(instsOf(f, 'unary').some((u) => u.kind === 'transpose'));
  t.true(instsOf(f, 'binary').some((b) => b.kind === 'outerProduct'));
  t.true(instsOf(f, 'ext').some((e) => e.fn === 'determinant'));
  t.true(instsOf(f, 'ext').some((e) => e.fn === 'inverse'));
  t.is(instsOf(f, 'binary').filter((b) => b.kind === 'mul').length, 3, 'matrixCompMult multiplies column by column');
});

test('subgroup built-ins lower to subgroup ops with their group operation', (t) => {
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_KHR_shader_subgroup_ballot : require\n#extension GL_KHR_shader_subgroup_arithmetic : require\n#extension GL_KHR_shader_subgroup_vote : require\n#extension GL_KHR_shader_subgroup_shuffle : require\n' + P + 'void main() { bool e = subgroupElect(); uvec4 b = subgroupBallot(p.x > 0.0); uint c = subgroupBallotBitCount(b) + subgroupBallotExclusiveBitCount(b) + subgroupBallotFindLSB(b); float f = subgroupBroadcastFirst(p.x) + subgroupBroadcast(p.y, 3u) + subgroupAdd(p.z) + subgroupInclusiveMul(p.w) + subgroupExclusiveMin(p.x); bool v = subgroupAll(e) && subgroupAny(e) && subgroupAllEqual(c) && subgroupInverseBallot(b) && subgroupBallotBitExtract(b, 0u); uint s = subgroupShuffle(c, 1u) + subgroupShuffleXor(c, 2u) + subgroupAnd(c) + subgroupOr(c) + subgroupXor(c); p = vec4(f + float(s), float(c), v ? 1.0 : 0.0, float(gl_SubgroupSize + gl_SubgroupInvocationID)); }');
  const sg = instsOf(fn(m), 'subgroup');
  const kinds = sg.map((s) => `${s.kind}${s.group ? ':' + s.group : ''}`);
  for (const k of ['elect', 'ballot', 'ballotBitCount:reduce', 'ballotBitCount:exclusiveScan', 'ballotFindLSB', 'broadcastFirst', 'broadcast', 'add:reduce', 'mul:inclusiveScan', 'min:exclusiveScan', 'all', 'any', 'allEqual', 'inverseBallot', 'ballotBitExtract', 'shuffle', 'shuffleXor', 'and:reduce', 'or:reduce', 'xor:reduce']) {
    t.true(kinds.includes(k), k);
  }
});

test('atomics need buffer or shared memory and take a pointer', (t) => {
  const m = compileOk(P + 'layout(set = 0, binding = 1, std430) buffer C { uint n; int m; uint arr[]; } c;\nvoid main() { uint old = atomicAdd(c.n, 1u); atomicMax(c.m, -1); atomicCompSwap(c.arr[3], 0u, 5u); atomicExchange(c.arr[old], 2u); atomicAnd(c.n, 3u); atomicOr(c.n, 3u); atomicXor(c.n, 3u); atomicMin(c.m, 2); }');
  const at = instsOf(fn(m), 'atomic');
  t.deepEqual(at.map((a) => a.kind), ['add', 'max', 'compareExchange', 'exchange', 'and', 'or', 'xor', 'min']);
  const cas = at[2]!;
  t.truthy(cas.comparator);
  t.is(m.types.types[instsOf(fn(m), 'accessChain').find((x) => x.id === cas.ptr)!.type]!.kind, 'pointer');
  t.regex(compileErrors(P + 'void main() { uint x = 0u; atomicAdd(x, 1u); }')[0]!, /first argument of 'atomicAdd' must be in a buffer or shared memory/);
});

test('clocks and debugPrintfEXT', (t) => {
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_ARB_shader_clock : require\n#extension GL_EXT_shader_realtime_clock : require\n#extension GL_EXT_debug_printf : require\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n' + P + 'void main() { uint64_t a = clockARB(); uvec2 b = clock2x32ARB(); uint64_t c = clockRealtimeEXT(); debugPrintfEXT("t=%lu %v2u\\n", c - a, b); }');
  const f = fn(m);
  const clocks = instsOf(f, 'clock');
  t.deepEqual(clocks.map((c) => [c.scope, c.realtime ?? false, m.types.types[c.type]!.kind]), [['subgroup', false, 'int'], ['subgroup', false, 'vector'], ['device', true, 'int']]);
  const pr = instsOf(f, 'debugPrintf')[0]!;
  t.is(pr.format, 't=%lu %v2u\\n');
  t.is(pr.args.length, 2);
  t.regex(compileErrors('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_debug_printf : require\nvoid main() { debugPrintfEXT(1); }')[0]!, /must be a string literal/);
  t.regex(compileErrors(P + 'void main() { debugPrintfEXT("x"); }')[0]!, /'debugPrintfEXT' requires #extension GL_EXT_debug_printf/);
});

test('texture and image functions: sampling, lod, grad, fetch, size, gather, load/store', (t) => {
  const m = compileOk(P + 'layout(set=0,binding=0) uniform sampler2D s;\nlayout(set=0,binding=1) uniform sampler2DArray sa;\nlayout(set=0,binding=2) uniform texture2D tx;\nlayout(set=0,binding=3) uniform sampler smp;\nlayout(set=0,binding=4,rgba32f) uniform image2D img;\nlayout(set=0,binding=5) uniform samplerCube cube;\nvoid main() { vec2 uv = p.xy; vec4 a = texture(s, uv) + textureLod(sa, vec3(uv, 1.0), 0.0) + textureGrad(s, uv, vec2(0.1), vec2(0.1)) + texelFetch(s, ivec2(1), 0) + textureGather(s, uv, 1) + texture(sampler2D(tx, smp), uv) + textureLod(cube, p.xyz, 2.0) + textureLodOffset(s, uv, 0.0, ivec2(1)); ivec2 sz = textureSize(s, 0) + imageSize(img); ivec3 asz = textureSize(sa, 0); vec4 old = imageLoad(img, sz); imageStore(img, ivec2(0), a + old + vec4(asz, 1)); p = a; }');
  const f = fn(m);
  const kinds = instsOf(f, 'image').map((i) => i.kind);
  for (const k of ['sampleImplicitLod', 'sampleExplicitLod', 'sampleGrad', 'fetch', 'gather', 'querySizeLod', 'querySize', 'read', 'write', 'image'] as const) t.true(kinds.includes(k), k);
  t.is(instsOf(f, 'sampledImage').length, 1);
  const lod = instsOf(f, 'image').find((i) => i.kind === 'sampleExplicitLod' && i.offset !== undefined);
  t.truthy(lod?.lod, 'textureLodOffset keeps lod and offset');
  t.regex(compileErrors(P + 'layout(set=0,binding=0) uniform sampler2D s;\nvoid main() { p = texture(s, p.xyz); }')[0]!, /cannot convert from 'vec3' to 'vec2' for the coordinate of 'texture'/);
  t.regex(compileErrors(P + 'layout(set=0,binding=4,rgba32f) uniform image2D img;\nvoid main() { p = texture(img, p.xy); }')[0]!, /expects a sampler, found storage image 'image2D'/);
});

test('no-match errors list candidate signatures; wrong argument counts say so', (t) => {
  const e = compileErrors(P + 'void main() { p.x = clamp(p.x, true, 1.0); }')[0]!;
  t.regex(e, /no matching overload for 'clamp\(float, bool, float\)'; candidates are:\n  float clamp\(float, float, float\)/);
  t.regex(compileErrors(P + 'void main() { p.x = pow(p.x); }')[0]!, /wrong number of arguments to 'pow': expected 2, found 1/);
});

test('mixed int/uint arguments resolve through the int -> uint conversion (min(int, uint) is min(uint, uint))', (t) => {
  const m = compileOk(P + 'void main() { uint a = min(int(p.x), 15u); uint b = max(3, 15u); float c = clamp(p.x, 0, 1); p.x = float(a + b) + c; }');
  const mins = instsOf(fn(m), 'ext').filter((e) => e.fn === 'min' || e.fn === 'max');
  t.true(mins.every((e) => m.types.types[e.type]!.kind === 'int' && (m.types.types[e.type] as { signed: boolean }).signed === false));
  t.is(new Set(builtinSignatures('min').map((s) => s.params.join())).size, builtinSignatures('min').length, 'no duplicate signatures');
});
