import test from 'ava';
import type { BlockDecl, Expr, ExternalDecl, FunctionDecl, QualifierDecl, Stmt, StructDecl, VarDecl } from '../../../src/frontend/glsl/ast.js';
import { formatDiagnostic } from '../../../src/frontend/glsl/diagnostics.js';
import { parseGlsl } from '../../../src/frontend/glsl/parse.js';
import { exprText, stmtText } from './fixtures/ast-text.js';

const noFiles = { readFile: () => undefined };

function decls(src: string): ExternalDecl[] {
  const r = parseGlsl('t.glsl', src, { host: noFiles });
  if (r.unit === undefined) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  return r.unit.decls;
}

/** Statements of `void f() { ... }` around `body`. */
function stmts(body: string, prelude = ''): Stmt[] {
  const f = decls(`${prelude}\nvoid f() {\n${body}\n}`).find((d): d is FunctionDecl => d.kind === 'function' && d.name === 'f')!;
  return f.body!.body;
}

function expr(src: string): string {
  const s = stmts(`${src};`)[0]!;
  if (s.kind !== 'exprStmt') throw new Error(`not an expression statement: ${s.kind}`);
  return exprText(s.expr);
}

test('binary operator precedence follows the GLSL table, all left-associative', (t) => {
  t.is(expr('a || b ^^ c && d | e ^ f & g == h < i << j + k * l'),
    '(|| a (^^ b (&& c (| d (^ e (& f (== g (< h (<< i (+ j (* k l)))))))))))');
  t.is(expr('a * b + c << d < e == f & g ^ h | i && j ^^ k || l'),
    '(|| (^^ (&& (| (^ (& (== (< (<< (+ (* a b) c) d) e) f) g) h) i) j) k) l)');
  t.is(expr('a - b - c'), '(- (- a b) c)');
  t.is(expr('a / b % c * d'), '(* (% (/ a b) c) d)');
  t.is(expr('a != b >= c'), '(!= a (>= b c))');
  t.is(expr('a >> b > c <= d'), '(<= (> (>> a b) c) d)');
});

test('unary, postfix, ternary, assignment and comma expressions', (t) => {
  t.is(expr('-a * !b + ~c - +d'), '(- (+ (* (- a) (! b)) (~ c)) (+ d))');
  t.is(expr('++a + b-- - - -c'), '(- (+ (pre++ a) (post-- b)) (- (- c)))');
  t.is(expr('a = b += c ? d : e ? f : g'), '(= a (+= b (? c d (? e f g))))');
  t.is(expr('x = c ? a = 1 : b = 2'), '(= x (? c (= a 1) (= b 2)))');
  t.is(expr('a <<= 1, b >>= 2, c &= 3, d |= 4, e ^= 5, f %= 6, g *= 7, h /= 8, i -= 9'),
    '(, (<<= a 1) (>>= b 2) (&= c 3) (|= d 4) (^= e 5) (%= f 6) (*= g 7) (/= h 8) (-= i 9))');
  t.is(expr('(a + b) * c'), '(* (+ a b) c)');
});

test('member access, swizzles, indexing, .length() and calls', (t) => {
  t.is(expr('a.b.xyz[i + 1].x'), '(. ([] (. (. a b) xyz) (+ i 1)) x)');
  t.is(expr('arr.length() + v.length + buf.data[2].length()'), '(+ (+ (length arr) (. v length)) (length ([] (. buf data) 2)))');
  t.is(expr('f(g(1), h())'), '(call f (call g 1) (call h))');
  t.is(expr('texture(samplers[nonuniformEXT(i)], uv).rgb'), '(. (call texture ([] samplers (call nonuniformEXT i)) uv) rgb)');
  t.is(expr('p.x++'), '(post++ (. p x))');
});

test('constructors: vector, matrix, array with and without size, struct, buffer_reference', (t) => {
  const prelude = 'struct S { int a; };\nlayout(buffer_reference) buffer Ref { int v[]; };';
  const body = stmts('vec3(1.0, 2, x).xy; mat3x4(1); float[3](1.0, 2.0, 3.0); int[](1, 2); S(1); Ref(addr).v[0]; uint64_t(3ul); i64vec2(1);', prelude);
  t.deepEqual(body.map(stmtText), [
    '(. (call vec3 1.0 2 x) xy)', '(call mat3x4 1)', '(call float[3] 1.0 2.0 3.0)', '(call int[] 1 2)', '(call S 1)',
    '([] (. (call Ref addr) v) 0)', '(call uint64_t 3ul)', '(call i64vec2 1)',
  ]);
  const ctor = (body[0] as { expr: Expr }).expr;
  t.like(ctor, { kind: 'member', object: { kind: 'call', callee: 'vec3', calleeType: { name: 'vec3', arrayDims: [] } } });
});

test('debugPrintfEXT format strings are string literals, escapes kept as written', (t) => {
  // Shader text: debugPrintfEXT("v = %f \"q\"\n", v.x);
  const [s] = stmts(String.raw`debugPrintfEXT("v = %f \"q\"\n", v.x);`) as { kind: 'exprStmt'; expr: Expr }[];
  t.like(s!.expr, { kind: 'call', callee: 'debugPrintfEXT', args: [{ kind: 'stringLit', value: String.raw`v = %f \"q\"\n` }, { kind: 'member' }] });
});

test('literals keep their text', (t) => {
  t.deepEqual(stmts('1u; 0x10; 3.0lf; 1ul; 2.0f; .5; true; false;').map(stmtText), ['1u', '0x10', '3.0lf', '1ul', '2.0f', '.5', 'true', 'false']);
});

test('declaration versus expression: identifier identifier, type[...] identifier, constructor statements', (t) => {
  const body = stmts('S s; S t = S(1), u; float[2] a = float[2](1, 2); vec3 v; vec3(1); x * y; float f[2][3], g;', 'struct S { int a; };');
  t.deepEqual(body.map(stmtText), [
    'decl S s', 'decl S t=(call S 1),u', 'decl float a=(call float[2] 1 2)', 'decl vec3 v', '(call vec3 1)', '(* x y)', 'decl float f,g',
  ]);
  const arr = (body[2] as { decl: VarDecl }).decl;
  t.is(arr.type.arrayDims.length, 1);
  const multi = (body[6] as { decl: VarDecl }).decl;
  t.is(multi.declarators[0]!.arrayDims.length, 2);
  t.is(multi.declarators[1]!.arrayDims.length, 0);
});

test('every statement kind', (t) => {
  const body = stmts([
    '{ int a = 1; ; }',
    'if (a) b = 1; else if (c) { b = 2; } else b = 3;',
    'for (int i = 0, j = 2; i < 4; i++, j--) continue;',
    'for (;;) break;',
    'for (i = 0; ; ) {}',
    'while (a < 3) a++;',
    'do { a--; } while (a > 0);',
    'return;', 'return a + 1;', 'discard;', 'terminateRayEXT;', 'ignoreIntersectionEXT;',
    'const struct P { float x; } p = P(1.0);',
    'struct Q { int y; };',
    'precision highp float;',
  ].join('\n'));
  t.deepEqual(body.map(stmtText), [
    '{ decl int a=1 ; }',
    'if a (= b 1) else if c { (= b 2) } else (= b 3)',
    'for (decl int i=0,j=2; (< i 4); (, (post++ i) (post-- j))) continue',
    'for (; ; ) break',
    'for ((= i 0); ; ) { }',
    'while (< a 3) (post++ a)',
    'do { (post-- a) } while (> a 0)',
    'return', 'return (+ a 1)', 'discard', 'terminateRay', 'ignoreIntersection',
    'decl P p=(call P 1.0)',
    'struct Q',
    ';',
  ]);
  const constStruct = (body[12] as { decl: VarDecl }).decl;
  t.is(constStruct.qualifiers.storage, 'const');
  t.is(constStruct.type.struct?.members[0]?.name, 'x');
});

test('switch keeps case order, groups adjacent labels, allows fall-through and a default in the middle', (t) => {
  const [s] = stmts('switch (x) { case 0: case 1: a = 1; case 2: { a = 2; } break; default: case 4: a = 4; break; case 5: }');
  t.is(stmtText(s!), 'switch x { case 0 case 1: (= a 1) case 2: { (= a 2) } break default case 4: (= a 4) break case 5: }');
});

test('attributes before loops, ifs and switches', (t) => {
  const body = stmts('[[unroll]] for (;;) {} [[dont_unroll]] while (a) {} [[flatten]] if (a) {} [[branch]] switch (a) { default: } [[unroll, dependency_length(4)]] do {} while (a);');
  t.deepEqual(body.map(stmtText), ['[[unroll]] for (; ; ) { }', '[[dont_unroll]] while a { }', '[[flatten]] if a { }', '[[branch]] switch a { default: }', '[[unroll,dependency_length]] do { } while a']);
  const last = body[4] as { attributes: { name: string; args: Expr[] }[] };
  t.is(exprText(last.attributes[1]!.args[0]!), '4');
});

test('file-scope declarations: variables, qualifiers, layouts with expressions', (t) => {
  const [a, b, c, d] = decls([
    'layout(set = 0, binding = 1 + 1, rgba8) uniform writeonly image2D img;',
    'const float k = 1.0, m[2] = { 1.0, 2.0, };',
    'layout(location = 0) rayPayloadEXT vec4 payload;',
    'shared uint counters[64];',
  ].join('\n')) as VarDecl[];
  t.like(a, { kind: 'var', qualifiers: { storage: 'uniform', memory: ['writeonly'] }, type: { name: 'image2D' }, declarators: [{ name: 'img' }] });
  t.deepEqual(a!.qualifiers.layout.map((l) => `${l.name}${l.value ? `=${exprText(l.value)}` : ''}`), ['set=0', 'binding=(+ 1 1)', 'rgba8']);
  t.is(b!.declarators.length, 2);
  t.is(exprText(b!.declarators[1]!.init!), '{1.0 2.0}');
  t.like(c, { qualifiers: { storage: 'rayPayloadEXT' }, type: { name: 'vec4' } });
  t.like(d, { qualifiers: { storage: 'shared' }, declarators: [{ name: 'counters' }] });
  t.is(exprText(d!.declarators[0]!.arrayDims[0]!), '64');
});

test('every qualifier lands in Qualifiers', (t) => {
  const [v] = decls('layout(location = 1) flat invariant precise highp in nonuniformEXT coherent volatile restrict readonly vec4 x;') as VarDecl[];
  t.like(v!.qualifiers, { storage: 'in', interpolation: 'flat', invariant: true, precise: true, precision: 'highp', nonuniform: true });
  t.deepEqual(v!.qualifiers.memory, ['coherent', 'volatile', 'restrict', 'readonly']);
});

test('interface blocks with and without instance names, instance arrays, shaderRecordEXT, push constants', (t) => {
  const [a, b, c, d] = decls([
    'layout(set = 0, binding = 2, std430) readonly buffer Verts { vec3 pos[]; } verts[];',
    'layout(std140, binding = 0) uniform Cam { mat4 view, proj; layout(offset = 128) vec4 eye; };',
    'layout(shaderRecordEXT) buffer SBT { uint id; } sbt;',
    'layout(push_constant) uniform PC { uint frame; } pc;',
  ].join('\n')) as BlockDecl[];
  t.like(a, { kind: 'block', blockName: 'Verts', instanceName: 'verts', qualifiers: { storage: 'buffer', memory: ['readonly'] } });
  t.deepEqual(a!.instanceArrayDims, [null]);
  t.deepEqual(a!.members[0]!.arrayDims, [null]);
  t.is(b!.instanceName, undefined);
  t.deepEqual(b!.members.map((m) => m.name), ['view', 'proj', 'eye']);
  t.is(b!.members[2]!.qualifiers.layout[0]!.name, 'offset');
  t.is(c!.qualifiers.layout[0]!.name, 'shaderRecordEXT');
  t.is(d!.qualifiers.layout[0]!.name, 'push_constant');
});

test('buffer_reference block names become type names, also when only forward-declared', (t) => {
  const ds = decls([
    'layout(buffer_reference) buffer Node;',
    'layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node { Node next; vec3 v; };',
    'void f(uint64_t a) { Node n = Node(a); n = n.next; }',
  ].join('\n'));
  t.like(ds[0] as QualifierDecl, { kind: 'qualifierDecl', type: { name: 'Node' }, qualifiers: { storage: 'buffer' } });
  const blk = ds[1] as BlockDecl;
  t.like(blk, { kind: 'block', blockName: 'Node', members: [{ type: { name: 'Node' }, name: 'next' }, { name: 'v' }] });
  t.is(exprText(blk.qualifiers.layout[2]!.value!), '16');
  t.deepEqual((ds[2] as FunctionDecl).body!.body.map(stmtText), ['decl Node n=(call Node a)', '(= n (. n next))']);
});

test('structs: declarations, nested, inline with variables, arrays of structs', (t) => {
  const ds = decls('struct A { float x, y[2]; };\nstruct B { A a[3]; vec3 c; } b1, b2[2];\nA as[4];');
  const a = ds[0] as StructDecl;
  t.deepEqual(a.members.map((m) => `${m.type.name} ${m.name}${m.arrayDims.length}`), ['float x0', 'float y1']);
  const b = ds[1] as VarDecl;
  t.is(b.type.name, 'B');
  t.deepEqual(b.type.struct?.members.map((m) => m.name), ['a', 'c']);
  t.deepEqual(b.declarators.map((d) => d.name), ['b1', 'b2']);
  t.like(ds[2] as VarDecl, { type: { name: 'A' }, declarators: [{ name: 'as' }] });
});

test('functions: prototypes, definitions, parameter qualifiers, void parameter lists, array parameters', (t) => {
  const ds = decls('float f(in vec3 a, out float b[2], inout int c, const in float d);\nvoid g(void) {}\nhighp vec3 h(float) { return vec3(0); }') as FunctionDecl[];
  const f = ds[0]!;
  t.is(f.body, undefined);
  t.deepEqual(f.params.map((p) => `${p.qualifiers.storage} ${p.type.name} ${p.name}`), ['in vec3 a', 'out float b', 'inout int c', 'in float d']);
  t.is(f.params[1]!.arrayDims.length, 1);
  t.deepEqual(ds[1]!.params, []);
  t.deepEqual(ds[1]!.body!.body, []);
  t.is(ds[2]!.returnQualifiers.precision, 'highp');
  t.is(ds[2]!.params[0]!.name, undefined);
});

test('bare qualifier declarations and precision statements', (t) => {
  const ds = decls('precision mediump float;\nlayout(local_size_x = 8, local_size_y = 8) in;\ninvariant gl_Position, other;\n;') as QualifierDecl[];
  t.like(ds[0], { kind: 'qualifierDecl', qualifiers: { precision: 'mediump' }, type: { name: 'float' } });
  t.like(ds[1], { kind: 'qualifierDecl', qualifiers: { storage: 'in' }, names: [] });
  t.deepEqual(ds[1]!.qualifiers.layout.map((l) => l.name), ['local_size_x', 'local_size_y']);
  t.like(ds[2], { qualifiers: { invariant: true }, names: ['gl_Position', 'other'] });
  t.is(ds.length, 3);
});

test('hit attributes, callable data and explicit arithmetic types', (t) => {
  const ds = decls('hitAttributeEXT vec2 bary;\nlayout(location = 0) callableDataEXT vec3 data;\nlayout(location = 1) callableDataInEXT f16vec3 h;\nuint8_t small; int16_t mid; u64vec3 big; float64_t dd;') as VarDecl[];
  t.deepEqual(ds.map((d) => `${d.qualifiers.storage ?? ''} ${d.type.name}`), [
    'hitAttributeEXT vec2', 'callableDataEXT vec3', 'callableDataInEXT f16vec3', ' uint8_t', ' int16_t', ' u64vec3', ' float64_t',
  ]);
});

test('locations point into the source: declarations at their start, binary expressions at the operator', (t) => {
  const r = parseGlsl('t.glsl', 'int g;\nvoid f() {\n  int x = 1 +\n     2;\n}', { host: noFiles });
  const f = r.unit!.decls[1] as FunctionDecl;
  t.deepEqual(f.loc, { file: 0, line: 2, column: 1 });
  const decl = (f.body!.body[0] as { decl: VarDecl }).decl;
  t.deepEqual(decl.loc, { file: 0, line: 3, column: 3 });
  t.deepEqual(decl.declarators[0]!.loc, { file: 0, line: 3, column: 7 });
  const init = decl.declarators[0]!.init!;
  t.deepEqual(init.loc, { file: 0, line: 3, column: 13 });
  t.like(init, { kind: 'binary', right: { loc: { line: 4, column: 6 } } });
});

test('an undeclared type name followed by a name still parses as a declaration (semantic analysis names the type)', (t) => {
  const ds = decls('Foo g;\nstruct S { Bar m; };\nvoid f(Baz p) { Qux q = 1; q = 2; }');
  t.like(ds[0] as VarDecl, { kind: 'var', type: { name: 'Foo' }, declarators: [{ name: 'g' }] });
  t.like(ds[1] as StructDecl, { members: [{ type: { name: 'Bar' }, name: 'm' }] });
  const f = ds[2] as FunctionDecl;
  t.is(f.params[0]!.type.name, 'Baz');
  t.deepEqual(f.body!.body.map(stmtText), ['decl Qux q=1', '(= q 2)']);
});

test('layout(shared) and other keyword-named layout entries', (t) => {
  const [b] = decls('layout(shared, binding = 3) uniform U { float x; } u;') as BlockDecl[];
  t.deepEqual(b!.qualifiers.layout.map((l) => l.name), ['shared', 'binding']);
});
