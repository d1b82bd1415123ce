/**
 * Expressions to IR: swizzle reads/writes, l-values through access chains, vector/matrix
 * arithmetic as SPIR-V spells it, implicit conversions, constructors of every shape, compound
 * assignment and ++/--, out/inout copy-in/copy-out, buffer_reference casts, .length().
 */
import test from 'ava';
import { compileErrors, compileOk, constantValue, fn, instsOf } from './compile-fixtures/harness.js';

const P = 'layout(location = 0) rayPayloadEXT vec4 p;\n';

test('swizzle read is a shuffle (one component: access chain index), swizzle write is load-shuffle-store', (t) => {
  const m = compileOk(P + 'void main() { vec4 v = p; vec2 a = v.zx; float b = v.y; v.wy = a; p = v + vec4(b); }');
  const f = fn(m);
  const sh = instsOf(f, 'shuffle');
  t.true(sh.some((s) => s.components.join() === '2,0'), 'v.zx');
  t.true(sh.some((s) => s.components.join() === '0,5,2,4'), 'v.wy = a merges a into components 3 and 1');
  const chains = instsOf(f, 'accessChain');
  t.true(chains.some((c) => c.indices.length === 1 && constantValue(m, c.indices[0]!) === 1), 'v.y via access chain');
});

test('repeated swizzle components cannot be assigned', (t) => {
  const errs = compileErrors(P + 'void main() { vec4 v = p; v.xx = vec2(1.0); }');
  t.regex(errs[0]!, /swizzle 'v\.xx' with repeated components/);
});

test('member and element l-values form one access chain', (t) => {
  const m = compileOk(P + 'struct L { vec3 pos; float w[4]; };\nstruct S { L lights[2]; };\nvoid main() { S s; int i = int(p.x); s.lights[i].w[2] = 1.0; p.x = s.lights[1].pos.y; }');
  const f = fn(m);
  const chains = instsOf(f, 'accessChain');
  t.true(chains.some((c) => c.indices.length === 4), 's.lights[i].w[2]');
  t.true(chains.some((c) => c.indices.length === 4 && constantValue(m, c.indices[3]!) === 1), 's.lights[1].pos.y');
});

test('vector * scalar is vectorTimesScalar, matrix products use the matrix ops, int vector + scalar splats', (t) => {
  const m = compileOk(P + 'void main() { vec3 v = p.xyz * 2.0; mat4x3 m = mat4x3(1.0); vec3 a = m * p; vec4 b = v * m; mat3 mm = mat3(m) * mat3(2.0); mat3 ms = mm * 0.5; ivec2 iv = ivec2(p.xy) + 3; p = vec4(a + b.xyz + mm[0] + ms[1] + vec3(iv, 0), 1.0); }');
  const f = fn(m);
  const kinds = instsOf(f, 'binary').map((b) => b.kind);
  for (const k of ['vectorTimesScalar', 'matrixTimesVector', 'vectorTimesMatrix', 'matrixTimesMatrix', 'matrixTimesScalar'] as const) t.true(kinds.includes(k), k);
  const ivAdd = instsOf(f, 'binary').find((b) => b.kind === 'add' && m.types.types[b.type]!.kind === 'vector' && (m.types.types[b.type] as { count: number }).count === 2)!;
  t.truthy(ivAdd);
  t.true(instsOf(f, 'construct').some((c) => c.id === ivAdd.b) || m.constants.some((c) => c.id === ivAdd.b), 'scalar splatted to ivec2');
});

test('implicit conversions: int -> float in arithmetic and initializers; no float -> int', (t) => {
  const m = compileOk(P + 'void main() { int i = int(p.x); float f = i + 0.5; uint u = 3; double d = f; p.x = f + float(u) + float(d); }');
  const f = fn(m);
  t.true(instsOf(f, 'convert').length >= 3);
  const errs = compileErrors(P + 'void main() { int i = 1.5; }');
  t.regex(errs[0]!, /cannot convert from 'float' to 'int' in initializer of 'i'/);
});

test('constructors: splat, concatenation, truncation, matrix diagonal/resize/columns, struct, array', (t) => {
  const m = compileOk(P + 'struct S { vec2 a; int b; };\nvoid main() { float x = p.x; vec3 s = vec3(x); vec4 c = vec4(p.xy, x, 1.0); vec2 tr = vec2(p); mat2 d = mat2(x); mat3 r = mat3(mat2(p)); mat2 cols = mat2(p.xy, p.zw); S st = S(p.xy, 3); float arr[2] = float[](x, 2.0); p = vec4(s + c.xyz + vec3(tr, 0) + d[0].xxy + r[2] + cols[1].xyy + vec3(st.a, float(st.b)), arr[0]); }');
  const f = fn(m);
  const cons = instsOf(f, 'construct');
  t.true(cons.length >= 6);
  t.true(instsOf(f, 'shuffle').some((s) => s.components.join() === '0,1'), 'vec2(vec4) truncates with a shuffle');
  const errs = compileErrors(P + 'void main() { vec3 v = vec3(p.xy, p.zw, 1.0); }');
  t.regex(errs[0]!, /too many arguments to constructor 'vec3'/);
  const errs2 = compileErrors(P + 'void main() { vec4 v = vec4(p.xy, 1.0); }');
  t.regex(errs2[0]!, /not enough data provided to constructor 'vec4': needs 4 components, found 3/);
});

test('constant constructors fold to module constants', (t) => {
  const m = compileOk(P + 'const vec3 UP = vec3(0.0, 1.0, 0.0);\nconst float W[3] = float[3](0.25, 0.5, 0.25);\nvoid main() { p = vec4(UP * W[1], 1.0); }');
  const up = m.constants.find((c) => c.parts?.length === 3 && m.types.types[c.type]!.kind === 'vector');
  t.truthy(up);
  t.deepEqual(up!.parts!.map((id) => constantValue(m, id)), [0, 1, 0]);
  t.truthy(m.constants.find((c) => c.parts?.length === 3 && m.types.types[c.type]!.kind === 'array'));
});

test('compound assignment, ++/-- (pre returns new, post returns old) and shifts', (t) => {
  const m = compileOk(P + 'void main() { int i = 1; int a = i++; int b = ++i; i <<= 2; i %= 5; ivec2 v = ivec2(1); v >>= 1; p.x = float(a + b + i + v.x); p.y -= 1.0; }');
  const f = fn(m);
  const kinds = instsOf(f, 'binary').map((b) => b.kind);
  for (const k of ['add', 'shl', 'rem', 'shr', 'sub'] as const) t.true(kinds.includes(k), k);
});

test('out/inout arguments are passed through temporaries and copied back', (t) => {
  const m = compileOk(P + 'void split(vec4 v, out vec2 a, inout float b) { a = v.xy; b += v.z; }\nvoid main() { vec2 a; split(p, a, p.w); p.xy = a; }');
  const f = fn(m);
  const call = instsOf(f, 'call')[0]!;
  const vars = instsOf(f, 'variable').map((v) => v.id);
  t.true(vars.includes(call.args[1]!) && vars.includes(call.args[2]!), 'pointers to temporaries');
  const split = fn(m, 'split');
  t.is(m.types.types[split.params[1]!.type]!.kind, 'pointer');
  const errs = compileErrors(P + 'void f(out float x) { x = 1.0; }\nvoid main() { f(2.0); }');
  t.regex(errs[0]!, /needs an l-value|no matching overload/);
});

test('user overloads and prototypes before definitions', (t) => {
  const m = compileOk(P + 'float g(float x);\nint g(int x) { return x * 2; }\nvoid main() { p.x = g(1.5) + float(g(2)); }\nfloat g(float x) { return x * 3.0; }');
  const f = fn(m);
  const calls = instsOf(f, 'call');
  t.is(new Set(calls.map((c) => c.callee)).size, 2);
  const errs = compileErrors(P + 'float h(float x);\nvoid main() { p.x = h(1.0); }');
  t.regex(errs[0]!, /function 'h' is declared but never defined/);
});

test('buffer_reference: construction from uint64_t, member access through the pointer, cast back', (t) => {
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_buffer_reference : require\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\nlayout(buffer_reference, std430, buffer_reference_align = 16) buffer Verts { vec4 v[]; };\nlayout(push_constant) uniform PC { uint64_t addr; } pc;\nlayout(location = 0) rayPayloadEXT vec4 p;\nvoid main() { Verts vs = Verts(pc.addr); Verts next = Verts(uint64_t(vs) + 16ul); p = vs.v[1] + next.v[0]; }');
  const f = fn(m);
  t.is(instsOf(f, 'convertUToPtr').length, 2);
  t.is(instsOf(f, 'convertPtrToU').length, 1);
  const ptrType = m.types.types[instsOf(f, 'convertUToPtr')[0]!.type]!;
  t.like(ptrType, { kind: 'pointer', storage: 'physicalStorageBuffer', align: 16 });
  t.true(instsOf(f, 'accessChain').some((c) => m.types.types[c.type]!.kind === 'pointer' && (m.types.types[c.type] as { storage: string }).storage === 'physicalStorageBuffer'));
});

test('.length(): constant for sized arrays and vectors, arrayLength for runtime arrays', (t) => {
  const m = compileOk(P + 'layout(set=0, binding=1, std430) buffer B { uint count; vec4 items[]; } b;\nvoid main() { float a[5]; p.x = float(a.length() + p.length() + b.items.length()); }');
  const f = fn(m);
  const al = instsOf(f, 'arrayLength');
  t.is(al.length, 1);
  t.is(al[0]!.member, 1);
  t.true(instsOf(f, 'binary').length >= 1);
});

test('assignment to read-only things is rejected with the reason', (t) => {
  t.regex(compileErrors(P + 'void main() { gl_LaunchIDEXT = uvec3(0); }')[0]!, /read-only built-in variable 'gl_LaunchIDEXT'/);
  t.regex(compileErrors(P + 'layout(push_constant) uniform PC { float x; } pc;\nvoid main() { pc.x = 1.0; }')[0]!, /uniform \(read-only\) variable 'pc\.x'/);
  t.regex(compileErrors(P + 'void f(const float x) { x = 1.0; }\nvoid main() { f(1.0); }')[0]!, /const variable 'x'/);
  t.regex(compileErrors(P + 'void main() { 3 = 4; }')[0]!, /requires an l-value/);
});

test('type errors name both operand types', (t) => {
  t.regex(compileErrors(P + 'void main() { p.x = p.xy * p.xyz; }')[0]!, /cannot apply '\*' to 'vec2' and 'vec3'/);
  t.regex(compileErrors(P + 'void main() { bool b = p.x; }')[0]!, /cannot convert from 'float' to 'bool'/);
  t.regex(compileErrors(P + 'void main() { if (p.x) {} }')[0]!, /condition of 'if' must be a scalar boolean expression, found 'float'/);
  t.regex(compileErrors(P + 'void main() { int i = 1 % 2.0; }')[0]!, /cannot apply '%' to 'int' and 'float'/);
});

test('const arrays live in a read-only private global; a user overload of a built-in name keeps the built-in', (t) => {
  const m = compileOk(P + 'const float W[3] = float[3](0.25, 0.5, 0.25);\nfloat arr[W.length()];\nvec3 max(vec3 a, vec3 b, vec3 c) { return max(max(a, b), c); }\nvoid main() { int i = int(p.x); p.x = W[i] + max(p.x, 1.0) + max(p.xyz, p.xyz, p.xyz).x + float(arr.length()); }');
  const g = m.globals.find((x) => x.name === 'W')!;
  t.is(g.storage, 'private');
  t.truthy(g.init);
  t.regex(compileErrors(P + 'const float W[2] = float[2](1.0, 2.0);\nvoid main() { W[0] = 3.0; }')[0]!, /const variable 'W\[\]'/);
  t.true(instsOf(fn(m, 'max'), 'ext').every((e) => e.fn === 'max'));
  t.is(instsOf(fn(m), 'call').length, 1);
});

test('switch labels take the selector signedness; gl_WorkGroupSize is the declared local size', (t) => {
  const m = compileOk(P + 'void main() { uint u = uint(p.x); switch (u) { case 1u: p.y = 1.0; break; default: break; } }');
  t.deepEqual(instsOf(fn(m), 'switch')[0]!.cases.map((c) => c.value), [1]);
  const c = compileOk('#version 460\nlayout(local_size_x = 8, local_size_y = 4) in;\nlayout(set = 0, binding = 0) buffer B { uint n[]; } b;\nvoid main() { b.n[0] = gl_WorkGroupSize.x * gl_WorkGroupSize.y; }', 'comp');
  t.deepEqual(c.entryPoints[0]!.localSize, [8, 4, 1]);
  t.truthy(c.constants.find((k) => k.value === 32), 'folded 8 * 4');
});

test('readonly buffer_reference blocks reject writes; their members carry nonWritable', (t) => {
  const src = '#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_buffer_reference : require\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\nlayout(buffer_reference, std430) readonly buffer RO { float v[]; };\nlayout(push_constant) uniform PC { uint64_t a; } pc;\nlayout(location = 0) rayPayloadEXT vec4 p;\n';
  t.regex(compileErrors(src + 'void main() { RO r = RO(pc.a); r.v[0] = 1.0; }')[0]!, /assignment to readonly variable/);
  const m = compileOk(src + 'void main() { RO r = RO(pc.a); p.x = r.v[0]; }');
  const ro = m.types.types.find((ty) => ty.kind === 'struct' && ty.name === 'RO');
  t.true(ro?.kind === 'struct' && ro.members.every((mb) => mb.nonWritable === true));
});
