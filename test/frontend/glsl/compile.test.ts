/**
 * compileGlsl end to end: the project's workloads and the compile fixtures compile to IR that
 * verifies; the module contract (entry point, sources, locations); expected diagnostics of the
 * invalid fixtures at the expected line; diagnostics never carry stack traces.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Expr, TranslationUnit } from '../../../src/frontend/glsl/ast.js';
import { compileGlsl, compileUnit } from '../../../src/frontend/glsl/compile.js';
import { formatDiagnostic } from '../../../src/frontend/glsl/diagnostics.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { printModule } from '../../../src/ir/printer.js';
import { parseModuleText } from '../../../src/ir/text-parser.js';
import { compileErrors, compileOk, compileSnippet } from './compile-fixtures/harness.js';
import { MAX_VARIABLE_SCALARS } from '../../../src/ir/variable-size-limit.js';

const FIXTURES = 'test/frontend/glsl/compile-fixtures';
const INCLUDE = join(FIXTURES, 'include');
const RT_EXT = /\.(rgen|rchit|rmiss|rahit|rint|rcall|comp)$/;

function shaderFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...shaderFiles(p));
    else if (RT_EXT.test(e.name)) out.push(p);
  }
  return out.sort();
}

const workloadShaders = shaderFiles('workloads');
const validFixtures = shaderFiles(join(FIXTURES, 'valid'));

for (const file of [...workloadShaders, ...validFixtures]) {
  test(`compiles and verifies ${file}`, (t) => {
    const r = compileGlsl(file, undefined, { includeDirs: [INCLUDE, 'workloads/common'] });
    t.deepEqual(r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic), []);
    t.truthy(r.module);
    t.deepEqual(verifyModule(r.module!), []);
    t.is(r.module!.entryPoints.length, 1);
    // The IR's text form round-trips (the printer and text parser accept everything the front end emits).
    const text = printModule(r.module!);
    t.is(printModule(parseModuleText(text)), text);
  });
}

test('workloads and fixtures exist (at least one shader of every RT stage)', (t) => {
  const exts = new Set([...workloadShaders, ...validFixtures].map((f) => f.split('.').pop()));
  for (const e of ['rgen', 'rchit', 'rmiss', 'rahit', 'rint', 'rcall']) t.true(exts.has(e), e);
});

test('module contract: one entry point main with the stage from the extension, sources, locations', (t) => {
  const file = join(FIXTURES, 'valid', 'pathtrace.rchit');
  const r = compileGlsl(file, undefined, { includeDirs: [INCLUDE] });
  const m = r.module!;
  const ep = m.entryPoints[0]!;
  t.is(ep.stage, 'closestHit');
  t.is(ep.name, 'main');
  const main = m.functions.find((f) => f.id === ep.function)!;
  t.is(main.name, 'main');
  t.is(m.sources[0]!.path, file);
  t.true(m.sources.some((s) => s.path.endsWith('rng.glsl')), 'included file kept in sources');
  for (const f of m.functions) {
    for (const b of f.blocks) {
      for (const i of b.insts) {
        t.true(i.loc.line > 0 && i.loc.file < m.sources.length, `${f.name}: ${i.op} has a location`);
      }
    }
  }
  // pcgHash lives in the include: its instructions point into rng.glsl, not the includer.
  const pcg = m.functions.find((f) => f.name === 'pcgHash')!;
  const incIndex = m.sources.findIndex((s) => s.path.endsWith('rng.glsl'));
  t.true(pcg.blocks[0]!.insts.every((i) => i.loc.file === incIndex));
});

test('explicit stage overrides the extension; unknown extension without stage is an error', (t) => {
  const src = '#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(location=0) rayPayloadInEXT vec3 p;\nvoid main() { p = vec3(1.0); }\n';
  const r = compileGlsl('shader.glsl', src, { stage: 'miss' });
  t.truthy(r.module);
  t.is(r.module!.entryPoints[0]!.stage, 'miss');
  const bad = compileGlsl('shader.glsl', src);
  t.is(bad.module, undefined);
  t.regex(formatDiagnostic(bad.diagnostics[0]!), /^shader\.glsl:1:1: error: cannot tell the shader stage/);
});

for (const file of shaderFiles(join(FIXTURES, 'invalid'))) {
  test(`rejects ${file} with the expected diagnostic`, (t) => {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const expectLine = lines.findIndex((l) => l.startsWith('// expect-error:'));
    const expected = lines[expectLine]!.slice('// expect-error:'.length).trim();
    const r = compileGlsl(file, undefined, { includeDirs: [INCLUDE] });
    t.is(r.module, undefined);
    const errs = r.diagnostics.filter((d) => d.severity === 'error');
    t.true(errs.length >= 1);
    const hit = errs.find((d) => d.message.includes(expected));
    t.truthy(hit, `expected "${expected}" among:\n${errs.map(formatDiagnostic).join('\n')}`);
    t.is(hit!.file, file);
    // The offending statement is the first line after main's opening brace (or the declaration) that the fixture marks by content.
    t.true(hit!.line > expectLine + 1 && hit!.line <= lines.length);
    t.false(errs.some((d) => /\n\s+at /.test(d.message)), 'no stack traces');
  });
}

test('several errors are reported in one run, each with file:line:col', (t) => {
  const errs = compileErrors(
    'layout(location = 0) rayPayloadEXT vec3 p;\nvoid main()\n{\n  float a = b;\n  vec3 v = vec3(1.0) + vec2(1.0);\n  p = undefinedFn(1.0);\n}\n',
  );
  t.deepEqual(errs, [
    "snippet.rgen:6:13: error: undeclared identifier 'b'",
    "snippet.rgen:7:22: error: cannot apply '+' to 'vec3' and 'vec2'",
    "snippet.rgen:8:7: error: undeclared function 'undefinedFn'",
  ]);
});

test('missing return in a non-void function is a warning and returns an undefined value (glslang accepts it)', (t) => {
  const r = compileSnippet('float f(float x) { if (x > 0.0) return x; }\nvoid main() { float y = f(1.0); }\n');
  t.truthy(r.module);
  t.deepEqual(r.diagnostics.map((d) => d.severity), ['warning']);
  t.regex(formatDiagnostic(r.diagnostics[0]!), /^snippet\.rgen:3:\d+: warning: missing return statement: function 'f' does not return a value of type 'float' on every path/);
  const f = r.module!.functions.find((x) => x.name === 'f')!;
  const rets = f.blocks.map((b) => b.insts.at(-1)!).filter((i) => i.op === 'return');
  t.is(rets.length, 2);
  t.deepEqual(verifyModule(r.module!), []);
});

test('payload location that no rayPayloadEXT declares is an error naming the location', (t) => {
  const errs = compileErrors(
    'layout(set=0,binding=0) uniform accelerationStructureEXT tlas;\nlayout(location = 0) rayPayloadEXT vec3 p;\nvoid main()\n{\n  traceRayEXT(tlas, 0u, 0xFFu, 0u, 0u, 0u, vec3(0.0), 0.0, vec3(1.0), 1.0, 2);\n}\n',
  );
  t.is(errs.length, 1);
  t.regex(errs[0]!, /^snippet\.rgen:7:3: error: 'traceRayEXT' uses location 2, but no rayPayloadEXT \(or rayPayloadInEXT\) variable is declared with layout\(location = 2\)/);
});

test('executeCallableEXT resolves its location to the callableDataEXT global', (t) => {
  const m = compileOk('layout(location = 3) callableDataEXT vec4 data;\nvoid main() { executeCallableEXT(2u, 3); }\n');
  const g = m.globals.find((x) => x.name === 'data')!;
  t.is(g.storage, 'callableData');
  t.is(g.location, 3);
  const call = m.functions[0]!.blocks.flatMap((b) => b.insts).find((i) => i.op === 'executeCallable');
  t.is(call && call.op === 'executeCallable' ? call.callableData : undefined, g.id);
  t.regex(compileErrors('void main() { executeCallableEXT(0u, 1); }\n')[0]!, /no callableDataEXT \(or callableDataInEXT\) variable is declared with layout\(location = 1\)/);
});

test('parse errors come back as diagnostics without a module', (t) => {
  const r = compileSnippet('void main() { float x = ; }\n');
  t.is(r.module, undefined);
  t.true(r.diagnostics.length > 0);
  t.is(r.diagnostics[0]!.file, 'snippet.rgen');
});

test('an internal failure becomes an internal compiler error diagnostic at the statement, not a stack trace', (t) => {
  const text = 'void main() { }\n';
  const loc = { file: 0, line: 1, column: 15 };
  const unit: TranslationUnit = {
    version: 460,
    extensions: [],
    decls: [{
      kind: 'function', name: 'main', params: [], loc: { file: 0, line: 1, column: 1 },
      returnType: { name: 'void', arrayDims: [], loc }, returnQualifiers: { layout: [], memory: [], loc },
      body: { kind: 'compound', loc, body: [{ kind: 'exprStmt', loc, expr: { kind: 'bogus', loc } as unknown as Expr }] },
    }],
  };
  const r = compileUnit(unit, [{ path: 'x.rgen', text }], 'raygen');
  t.is(r.module, undefined);
  t.is(r.diagnostics.length, 1);
  t.regex(formatDiagnostic(r.diagnostics[0]!), /^x\.rgen:1:15: error: internal compiler error: /);
  t.false(/\n\s+at /.test(r.diagnostics[0]!.message));
});

// Static recursion is a link error in glslang ("Recursion detected: f(i1; calling f(i1;", no line);
// vvision gives one located error per cycle, blaming the call glslang names.
for (const file of readdirSync(join(FIXTURES, 'recursion')).map((f) => join(FIXTURES, 'recursion', f))) {
  test(`rejects static recursion in ${file} at the calls glslang names`, (t) => {
    const expected = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('// expect-error: ')).map((l) => `${file}:${l.slice('// expect-error: '.length)}`);
    const r = compileGlsl(file);
    t.is(r.module, undefined);
    t.deepEqual(r.diagnostics.map((d) => formatDiagnostic(d).replace(/ \(GLSL forbids.*$/, '').replace(': error:', ':')), expected);
  });
}

test('a function or private variable past MAX_VARIABLE_SCALARS is refused where it is declared (glslang accepts it; the simulator cannot hold it per lane)', (t) => {
  const r = compileSnippet('layout(location = 0) rayPayloadEXT vec4 p;\nvec4 table[2000];\nvoid main() {\n  uint a[100000000];\n  uint ok[4096];\n  a[1] = ok[2] = 3u;\n  p = table[a[1]];\n}');
  t.is(r.module, undefined);
  t.deepEqual(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message.replace(/; vvision.*/, '')}`), [
    `${2 + 2}:6: variable 'table' of type [vec4<f32>; 2000] holds 8000 scalar components`,
    `${4 + 2}:8: variable 'a' of type [u32; 100000000] holds 100000000 scalar components`,
  ]);
  t.regex(r.diagnostics[0]!.message, new RegExp(`vvision's limit is ${MAX_VARIABLE_SCALARS} per function or private variable`));
});
