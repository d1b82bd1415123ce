import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { FunctionDecl, Stmt, VarDecl } from '../../../src/frontend/glsl/ast.js';
import { formatDiagnostic } from '../../../src/frontend/glsl/diagnostics.js';
import { fsHost, parseGlsl } from '../../../src/frontend/glsl/parse.js';
import { unitText } from './fixtures/ast-text.js';

const FIXTURE_ROOT = 'test/frontend/glsl/fixtures';
const FIXTURES = `${FIXTURE_ROOT}/pathtracer`;
const STAGE_FILE = /\.(rgen|rchit|rmiss|rahit|rint|rcall)$/;
const SHADERS = readdirSync(FIXTURES).filter((f) => STAGE_FILE.test(f)).sort();
/** Every stage file of every fixture folder: path-tracer, shared C++/GLSL header style. */
const ALL_SHADERS = ['pathtracer', 'shared-header'].flatMap((d) =>
  readdirSync(join(FIXTURE_ROOT, d)).filter((f) => STAGE_FILE.test(f)).sort().map((f) => join(FIXTURE_ROOT, d, f)));

function errors(src: string, files: Record<string, string> = {}, path = 'bad.rgen'): string[] {
  const r = parseGlsl(path, src, { host: { readFile: (p) => files[p] } });
  t_unitAbsent(r.unit !== undefined, r.diagnostics.length);
  return r.diagnostics.map(formatDiagnostic);
}
/** The contract: a unit exactly when there are no errors. */
function t_unitAbsent(hasUnit: boolean, nDiagnostics: number): void {
  if (hasUnit && nDiagnostics > 0) throw new Error('unit returned despite errors');
}

test('a missing ; is reported at the token found instead, as glslang does, naming where the ; belongs', (t) => {
  t.deepEqual(errors('void main() {\n  float a = 1.0\n  float b = 2.0;\n}'), [
    "bad.rgen:3:3: error: expected ';' after declaration but found 'float' (the ';' belongs after '1.0' at line 2)",
  ]);
  t.deepEqual(errors('void main() {\n  a = b\n}'), ["bad.rgen:3:1: error: expected ';' after expression but found '}' (the ';' belongs after 'b' at line 2)"]);
});

test('one bad line does not hide the next: errors in several statements and functions are all reported', (t) => {
  t.deepEqual(errors([
    'void main() {',
    '  int c = (1 + ;',
    '  int d = 3;',
    '  d = d + ) ;',
    '}',
    'void g() { x = ; }',
    'float h() { return 1.0 }',
    'int k = 1',
  ].join('\n')), [
    "bad.rgen:2:16: error: expected an expression but found ';'",
    "bad.rgen:4:11: error: expected an expression but found ')'",
    "bad.rgen:6:16: error: expected an expression but found ';'",
    "bad.rgen:7:24: error: expected ';' after statement but found '}'",
    "bad.rgen:8:10: error: expected ';' after declaration but found end of file",
  ]);
});

test('errors inside nested blocks resynchronise at the next statement, not at file scope', (t) => {
  t.deepEqual(errors([
    'void main() {',
    '  for (int i = 0; i < 4; i++) {',
    '    if (i > 1) {',
    '      x = (1 + ;',
    '      y = 2;',
    '      z = 3 +;',
    '    }',
    '    w = ];',
    '  }',
    '  v = 1',
    '}',
    'void g() { a = ; }',
    'layout(location = 0) rayPayloadEXT vec3 p',
    'layout(location = 1) rayPayloadEXT vec3 q;',
  ].join('\n')), [
    "bad.rgen:4:16: error: expected an expression but found ';'",
    "bad.rgen:6:14: error: expected an expression but found ';'",
    "bad.rgen:8:9: error: expected an expression but found ']'",
    "bad.rgen:11:1: error: expected ';' after expression but found '}' (the ';' belongs after '1' at line 10)",
    "bad.rgen:12:16: error: expected an expression but found ';'",
    "bad.rgen:14:1: error: expected ';' after declaration but found 'layout' (the ';' belongs after 'p' at line 13)",
  ]);
});

test('unmatched closers at file scope are reported and parsing goes on', (t) => {
  t.deepEqual(errors('}\nint x;\n)\nvoid f() { y = }'), [
    "bad.rgen:1:1: error: unmatched '}'",
    "bad.rgen:3:1: error: unexpected ')' where a declaration was expected",
    "bad.rgen:4:16: error: expected an expression but found '}'",
  ]);
});

test('missing parentheses and brackets name the construct', (t) => {
  t.deepEqual(errors('void f() {\n  if (x { }\n}\nvoid g() { a[1 = 2; }'), [
    "bad.rgen:2:9: error: expected ')' in an if statement but found '{'",
    // `1 = 2` is an assignment expression inside the brackets, so the ']' is missed at the ';'.
    "bad.rgen:4:19: error: expected ']' in an expression but found ';'",
  ]);
});

test('preprocessor and parser errors inside an included file point into that file', (t) => {
  const files = { 'inc/lib.glsl': 'float ok;\n#if 1\nfloat broken(\n', 'x.rgen': '' };
  t.deepEqual(errors('#include "inc/lib.glsl"\nvoid main() {}', files, 'x.rgen'), [
    'inc/lib.glsl:3:1: error: unterminated #if (opened at line 2)',
    "x.rgen:2:10: error: expected ')' in a function but found '('",
  ]);
});

test('a syntax error inside an included file is reported at its place in that file', (t) => {
  const files = { 'lib/util.glsl': '// helpers\nfloat twice(float x)\n{\n  return 2.0 * x\n}\n' };
  t.deepEqual(errors('#version 460\n#include "lib/util.glsl"\nvoid main() { float y = ; }', files, 'main.rgen'), [
    "lib/util.glsl:5:1: error: expected ';' after statement but found '}' (the ';' belongs after 'x' at line 4)",
    "main.rgen:3:25: error: expected an initializer but found ';'",
  ]);
});

test('.length() is the only method; statements before the first case label are rejected', (t) => {
  t.deepEqual(errors('void f() { int n = v.size(); switch (n) { n = 1; case 1: break; } }'), [
    "bad.rgen:1:22: error: 'size' is not a method (only .length() can be called on a value)",
    "bad.rgen:1:43: error: statement before the first 'case' label in switch",
  ]);
});

test('a missing main file is a diagnostic, not an exception', (t) => {
  const r = parseGlsl('does/not/exist.rgen');
  t.is(r.unit, undefined);
  t.deepEqual(r.diagnostics.map(formatDiagnostic), ['does/not/exist.rgen:0:0: error: cannot open file "does/not/exist.rgen"']);
});

test('fsHost reads real files and returns undefined for missing ones', (t) => {
  t.true(fsHost.readFile(join(FIXTURES, 'raygen.rgen'))!.startsWith('#version 460'));
  t.is(fsHost.readFile(join(FIXTURES, 'nope.glsl')), undefined);
});

for (const path of ALL_SHADERS) {
  test(`fixture ${path.slice(FIXTURE_ROOT.length + 1)} parses without diagnostics`, (t) => {
    const r = parseGlsl(path);
    t.deepEqual(r.diagnostics.map(formatDiagnostic), []);
    t.truthy(r.unit);
    t.is(r.unit!.version, 460);
    t.true(r.unit!.extensions.some((e) => e.name === 'GL_EXT_ray_tracing'));
    const main = r.unit!.decls.find((d): d is FunctionDecl => d.kind === 'function' && d.name === 'main');
    t.truthy(main?.body);
    // Every location indexes `sources` and lies inside that file.
    const check = (loc: { file: number; line: number }): boolean => {
      const s = r.sources[loc.file];
      return s !== undefined && loc.line >= 1 && loc.line <= s.text.split('\n').length;
    };
    t.true(r.unit!.decls.every((d) => check(d.loc)));
    t.true(main!.body!.body.every((s: Stmt) => check(s.loc)));
  });
}

test('declarations from included files carry the included file index', (t) => {
  const r = parseGlsl(join(FIXTURES, 'closesthit.rchit'));
  const paths = r.sources.map((s) => s.path);
  t.deepEqual(paths, [join(FIXTURES, 'closesthit.rchit'), join(FIXTURES, 'include/common.glsl'), join(FIXTURES, 'include/random.glsl')]);
  const tea = r.unit!.decls.find((d) => d.kind === 'function' && d.name === 'tea')!;
  t.deepEqual(tea.loc, { file: 2, line: 5, column: 1 });
  const mat = r.unit!.decls.find((d) => d.kind === 'struct' && d.name === 'Material');
  t.like(mat, { loc: { file: 1, line: 26 }, members: [{ name: 'mat_albedo' }, { name: 'mat_roughness' }, { name: 'emission' }, { name: 'type' }, { name: 'ior' }, { name: 'textureId' }] });
  const mainFn = r.unit!.decls.find((d): d is FunctionDecl => d.kind === 'function' && d.name === 'main')!;
  t.is(mainFn.loc.file, 0);
});

const glslang = spawnSync('glslangValidator', ['--version'], { encoding: 'utf8' });
test('the fixtures are valid for glslangValidator too (reference compiler)', (t) => {
  if (glslang.status !== 0) {
    t.log('glslangValidator not installed; skipping the cross-check');
    t.pass();
    return;
  }
  for (const path of ALL_SHADERS) {
    const r = spawnSync('glslangValidator', ['--target-env', 'vulkan1.2', '-V', path, '-o', '/dev/null'], { encoding: 'utf8' });
    t.is(r.status, 0, `${path}: ${r.stdout}`);
  }
});

test('messages for common slips: unclosed block, stray else, nested function, missing name, stray #', (t) => {
  t.deepEqual(errors('void main() {\n  int a = 1;\n'), ["bad.rgen:2:13: error: expected '}' before end of file (a block is not closed)"]);
  t.deepEqual(errors('void main() {\n  x = 1;;\n  else x = 2;\n}'), ["bad.rgen:3:3: error: 'else' without a matching 'if'"]);
  t.deepEqual(errors('void main() {\n  case 1: x = 2;\n}'), ["bad.rgen:2:3: error: 'case' label outside a switch"]);
  t.deepEqual(errors('void main() { if (a) { b = 1; }\nvoid g() {}'), [
    "bad.rgen:2:1: error: a function cannot be defined inside another function (is a '}' missing before it?)",
  ]);
  t.deepEqual(errors('void main() { int x = 3 +* 4; float = 2; }'), [
    "bad.rgen:1:26: error: expected an expression but found '*'",
    "bad.rgen:1:37: error: expected a name after 'float' but found '='",
  ]);
  t.deepEqual(errors('vec3 = vec3(1);'), ["bad.rgen:1:6: error: expected a name after 'vec3' but found '='"]);
  t.deepEqual(errors('void main() {\n  int a = 1 # 2;\n}'), [
    "bad.rgen:2:13: error: '#' is only allowed at the start of a line (a preprocessor directive) or in a macro body",
    "bad.rgen:2:15: error: expected ';' after declaration but found '2'",
  ]);
  t.deepEqual(errors('layout(set = 0 binding = 1) uniform U { float x; } u;'), ["bad.rgen:1:16: error: expected ')' in a layout qualifier but found 'binding'"]);
  t.deepEqual(errors('uniform Block { float x; }\nvoid main() {}'), ["bad.rgen:2:1: error: expected ';' after block declaration but found 'void' (the ';' belongs after '}' at line 1)"]);
});

test('mangled shaders never throw: every problem is a diagnostic with a position', (t) => {
  // Deterministic mutations of the fixtures: deletions, insertions of tricky tokens, duplicated spans.
  let seed = 12345;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pieces = ['{', '}', '(', ')', ';', ',', 'float', 'struct', '#', '#define X(', '[[', ']]', '[', ']', '=', 'if', 'else',
    'case', 'layout(', 'buffer', '\n#if 1\n', '\n#endif\n', '"', '/*', '\\\n', '.', 'x', '0x', '1e', '?', ':', '\n#include "', '##'];
  const texts = SHADERS.map((s) => [s, fsHost.readFile(join(FIXTURES, s))!] as const);
  for (let i = 0; i < 300; i++) {
    const [name, original] = texts[rnd(texts.length)]!;
    let text = original;
    for (let k = 0; k < 1 + rnd(3); k++) {
      const pos = rnd(text.length);
      const op = rnd(3);
      if (op === 0) text = text.slice(0, pos) + text.slice(pos + 1 + rnd(5));
      else if (op === 1) text = text.slice(0, pos) + pieces[rnd(pieces.length)] + text.slice(pos);
      else {
        const from = rnd(text.length);
        text = text.slice(0, pos) + text.slice(from, from + rnd(20)) + text.slice(pos);
      }
    }
    const r = parseGlsl(join(FIXTURES, name), text);
    t.is(r.unit === undefined, r.diagnostics.some((d) => d.severity === 'error'));
    for (const d of r.diagnostics) {
      t.true(Number.isInteger(d.line) && d.line >= 1 && Number.isInteger(d.column) && d.column >= 1, formatDiagnostic(d));
      t.notRegex(d.message, /undefined|NaN|Exception|\n/);
    }
  }
});

test('a header shared with C++ expands its binding macros into GLSL constants', (t) => {
  const r = parseGlsl(join(FIXTURE_ROOT, 'shared-header/raytrace.rchit'));
  const consts = r.unit!.decls.filter((d): d is VarDecl => d.kind === 'var' && d.qualifiers.storage === 'const');
  t.deepEqual(consts.map((d) => d.declarators.map((x) => `${x.name}=${x.init?.kind === 'intLit' ? x.init.text : '?'}`).join(',')), [
    'eGlobals=0,eObjDescs=1,eTextures=2', 'eTlas=0,eOutImage=1',
  ]);
  // The constants come from the macro invocation lines of host_device.h.
  t.is(r.sources[consts[0]!.loc.file]!.path, join(FIXTURE_ROOT, 'shared-header/host_device.h'));
  t.is(consts[0]!.loc.line, 20);
  const tlas = r.unit!.decls.find((d): d is VarDecl => d.kind === 'var' && d.declarators[0]?.name === 'topLevelAS')!;
  t.like(tlas.qualifiers.layout[1], { name: 'binding', value: { kind: 'ident', name: 'eTlas' } });
  const pc = r.unit!.decls.find((d) => d.kind === 'block' && d.blockName === '_PushConstantRay');
  t.like(pc, { instanceName: undefined, members: [{ type: { name: 'PushConstantRay' }, name: 'pcRay' }] });
});

// Golden AST summaries: set UPDATE_GOLDEN=1 to rewrite them, then review the diff.
for (const path of [join(FIXTURES, 'closesthit.rchit'), join(FIXTURE_ROOT, 'shared-header/raytrace.rchit')]) {
  test(`golden AST summary of ${path.slice(FIXTURE_ROOT.length + 1)}`, (t) => {
    const r = parseGlsl(path);
    const text = unitText(r.unit!.decls, r.sources);
    const golden = path.replace(/\.(\w+)$/, '.$1.ast.txt');
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, text);
    t.is(text, readFileSync(golden, 'utf8'));
  });
}

test('an exception inside the front end (here: from the file host) becomes a diagnostic', (t) => {
  const host = { readFile: (): string => { throw new Error('disk on fire'); } };
  const r = parseGlsl('m.rgen', '#include "x.glsl"\n', { host });
  t.is(r.unit, undefined);
  t.deepEqual(r.diagnostics.map(formatDiagnostic), ['m.rgen:1:1: error: internal error in the GLSL front end: disk on fire']);
});
