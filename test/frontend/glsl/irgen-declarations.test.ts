/**
 * Declarations: specialization constants, const folding, private globals with constant and
 * non-constant initializers, arrays of blocks and of samplers, blocks without instance names,
 * buffer_reference forward declarations, local structs, precision statements, redefinitions.
 */
import test from 'ava';
import { compileErrors, compileOk, constantValue, fn, instsOf } from './compile-fixtures/harness.js';

const P = 'layout(location = 0) rayPayloadEXT vec4 p;\n';

test('specialization constants keep their id and default; arrays sized by them use the default', (t) => {
  const m = compileOk(P + 'layout(constant_id = 3) const int N = 4;\nlayout(constant_id = 7) const bool FAST = false;\nlayout(constant_id = 9) const float SCALE = 1.5;\nfloat weights[N];\nvoid main() { p.x = FAST ? SCALE : float(N) + float(weights.length()); }');
  const spec = m.constants.filter((c) => c.specId !== undefined).map((c) => [c.specId, c.value, c.name]);
  t.deepEqual(spec, [[3, 4, 'N'], [7, false, 'FAST'], [9, 1.5, 'SCALE']]);
  const w = m.globals.find((g) => g.name === 'weights')!;
  const arr = m.types.types[(m.types.types[w.type] as { pointee: number }).pointee]!;
  t.like(arr, { kind: 'array', length: 4 });
  const f = fn(m);
  const n = m.constants.find((c) => c.specId === 3)!;
  t.true(instsOf(f, 'convert').some((c) => c.value === n.id), 'the spec constant is used as a value, not folded');
});

test('private globals: constant initializers become init, others run at the start of main', (t) => {
  const m = compileOk(P + 'float a = 2.0;\nvec3 b = vec3(1.0, 2.0, 3.0);\nfloat c = sin(1.0);\nvoid main() { p.x = a + b.y + c; }');
  const g = (n: string) => m.globals.find((x) => x.name === n)!;
  t.is(constantValue(m, g('a').init!), 2);
  t.truthy(g('b').init);
  t.is(g('c').init, undefined);
  const main = fn(m);
  const firstStore = instsOf(main, 'store')[0]!;
  t.is(firstStore.ptr, g('c').id, 'c is initialized first thing in main');
});

test('arrays of blocks, descriptor arrays of samplers, blocks without instance names', (t) => {
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_nonuniform_qualifier : require\n' + P + 'layout(set = 0, binding = 1) buffer Verts { vec4 v[]; } verts[];\nlayout(set = 0, binding = 2) uniform UBO { vec4 tint; } ubos[4];\nlayout(set = 1, binding = 0) uniform sampler2D tex[];\nlayout(set = 1, binding = 1) buffer Counts { uint hits; uint misses; };\nvoid main() { int i = int(p.x); p = verts[nonuniformEXT(i)].v[2] * ubos[1].tint + textureLod(tex[nonuniformEXT(i)], p.xy, 0.0); hits += 1u; }');
  const g = (n: string) => m.globals.find((x) => x.name === n)!;
  const pointee = (n: string) => m.types.types[(m.types.types[g(n).type] as { pointee: number }).pointee]!;
  t.like(pointee('verts'), { kind: 'runtimeArray' });
  t.like(pointee('ubos'), { kind: 'array', length: 4 });
  t.like(pointee('tex'), { kind: 'runtimeArray' });
  t.like(g('Counts'), { storage: 'storageBuffer', set: 1, binding: 1 });
  const f = fn(m);
  t.true(instsOf(f, 'accessChain').some((c) => c.base === g('Counts').id && c.indices.length === 1 && constantValue(m, c.indices[0]!) === 0), 'hits is member 0 of the nameless block');
  t.true(instsOf(f, 'accessChain').some((c) => c.base === g('verts').id && c.indices.length === 3));
});

test('buffer_reference forward declaration and self reference', (t) => {
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_buffer_reference : require\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n' + P + 'layout(buffer_reference) buffer Node;\nlayout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { Node next; float value; };\nlayout(push_constant) uniform PC { Node head; } pc;\nvoid main() { Node n = pc.head; float s = 0.0; for (int i = 0; i < 4 && uint64_t(n) != 0ul; i++) { s += n.value; n = n.next; } p.x = s; }');
  const node = m.types.types.find((x) => x.kind === 'struct' && x.name === 'Node');
  t.like(node, { kind: 'struct', block: true, layout: 'std430' });
  if (node?.kind !== 'struct') return;
  t.deepEqual(node.members.map((mb) => [mb.name, mb.offset]), [['next', 0], ['value', 8]]);
  const next = m.types.types[node.members[0]!.type]!;
  t.like(next, { kind: 'pointer', storage: 'physicalStorageBuffer', align: 8 });
});

test('local structs, precision statements and comma-separated declarators', (t) => {
  const m = compileOk('#version 460\n#extension GL_EXT_ray_tracing : require\nprecision highp float;\n' + P + 'void main() { struct Pair { float a; float b; }; Pair q = Pair(1.0, 2.0); highp float x = q.a, y = q.b * 2.0, z; z = x + y; p.x = z; }');
  t.truthy(m.types.types.find((x) => x.kind === 'struct' && x.name === 'Pair'));
  t.is(instsOf(fn(m), 'variable').length, 4);
});

test('redefinitions and unknown types are reported', (t) => {
  t.regex(compileErrors(P + 'float a;\nfloat a;\nvoid main() {}')[0]!, /redefinition of 'a'/);
  t.regex(compileErrors(P + 'void f() {}\nvoid f() {}\nvoid main() {}')[0]!, /redefinition of function 'f'/);
  t.regex(compileErrors(P + 'void main() { Foo x; }')[0]!, /unknown type 'Foo'/);
  t.regex(compileErrors(P + 'void main() { float a[0]; }')[0]!, /array size must be greater than zero/);
  t.regex(compileErrors(P + 'void main() { int n = 3; float a[n]; }')[0]!, /array size must be a constant integer expression/);
  t.regex(compileErrors(P + 'uniform float loose;\nvoid main() {}')[0]!, /must be declared inside a uniform block/);
  t.regex(compileErrors(P + 'void main() { switch (1) { case 1: break; case 1: break; } }')[0]!, /duplicate case label 1/);
});

test('a function body sees only what is declared above it (prototypes make later definitions callable)', (t) => {
  t.regex(compileErrors(P + 'float f() { return g(); }\nfloat g() { return 1.0; }\nvoid main() { p.x = f(); }')[0]!, /undeclared function 'g'/);
  t.regex(compileErrors(P + 'float f() { return later; }\nfloat later = 1.0;\nvoid main() { p.x = f(); }')[0]!, /undeclared identifier 'later'/);
  const m = compileOk(P + 'float g();\nfloat f() { return g(); }\nfloat g() { return 1.0; }\nvoid main() { p.x = f(); }');
  t.is(instsOf(fn(m, 'f'), 'call')[0]!.callee, fn(m, 'g').id);
});

test('consts derived from specialization constants are computed at run time (defaults only size arrays)', (t) => {
  const m = compileOk(P + 'layout(constant_id = 0) const int S = 4;\nconst int S2 = S * 2;\nfloat arr[S2];\nvoid main() { const int local = S2 + 1; p.x = float(local) + float(arr.length()); }');
  const s2 = m.globals.find((g) => g.name === 'S2')!;
  t.is(s2.storage, 'private');
  t.is(s2.init, undefined);
  const spec = m.constants.find((c) => c.specId === 0)!;
  const main = fn(m);
  const mul = instsOf(main, 'binary').find((b) => b.kind === 'mul' && b.a === spec.id);
  t.truthy(mul, 'S * 2 evaluated in main from the spec constant');
  t.is(instsOf(main, 'store')[0]!.ptr, s2.id);
  const arr = m.globals.find((g) => g.name === 'arr')!;
  t.like(m.types.types[(m.types.types[arr.type] as { pointee: number }).pointee], { kind: 'array', length: 8 });
  t.true(instsOf(main, 'load').some((l) => l.ptr === s2.id), 'local const reads S2 at run time');
});

test('opaque parameters (samplers, acceleration structures) are used as values, never copied to function memory', (t) => {
  const m = compileOk('layout(location = 0) rayPayloadInEXT vec4 p;\nlayout(set = 0, binding = 0) uniform sampler2D tex;\nvec4 fetch(sampler2D s, vec2 uv) { return textureLod(s, uv, 0.0); }\nvoid main() { p = fetch(tex, p.xy); }', 'rchit');
  const f = fn(m, 'fetch');
  t.is(instsOf(f, 'variable').length, 1, 'only uv gets a local');
  t.is(instsOf(f, 'image')[0]!.args[0], f.params[0]!.id);
});

test('opaque types cannot be local variables', (t) => {
  t.regex(compileErrors('layout(set = 0, binding = 0) uniform sampler2D tex;\nvoid main() { sampler2D s = tex; }')[0]!, /local variable 's' cannot have opaque type 'sampler2D'/);
});

test('block members take no storage qualifiers; memory qualifiers may not repeat', (t) => {
  t.regex(compileErrors(P + 'layout(set = 0, binding = 0) buffer B { const uint n; } b;\nvoid main() {}')[0]!, /member 'n': a storage qualifier \('const'\) cannot contradict the block's/);
  t.regex(compileErrors(P + 'layout(set = 0, binding = 0) readonly readonly buffer B { uint n; } b;\nvoid main() {}')[0]!, /memory qualifier 'readonly' is repeated/);
});

test('main must be void main() (reported at its declaration, as glslang does)', (t) => {
  const errs = compileErrors(P + 'int main()\n{\n  return;\n}\n');
  t.deepEqual(errs, ["snippet.rgen:4:1: error: the entry point 'main' must return void, not 'int'"]);
  t.regex(compileErrors(P + 'void f() {}\n')[0]!, /no 'void main\(\)' function is defined/);
});
