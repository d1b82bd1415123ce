import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Op } from '../../src/ir/inst.js';
import { INST_SYNTAX, printModule } from '../../src/ir/printer.js';
import { IrParseError, parseModuleText } from '../../src/ir/text-parser.js';
import { verifyModule } from '../../src/ir/verify.js';
import { buildEveryOpModule } from './fixtures/every-op.js';

const SMALL = readFileSync(fileURLToPath(new URL('./fixtures/small-valid.ir', import.meta.url)), 'utf8');

test('the every-op fixture covers the whole instruction union', (t) => {
  const { ops } = buildEveryOpModule();
  const all = Object.keys(INST_SYNTAX) as Op[];
  t.deepEqual(all.filter((o) => !ops.has(o)), []);
});

test('print(parse(print(m))) === print(m) for the every-op module', (t) => {
  const { m } = buildEveryOpModule();
  const text = printModule(m);
  const back = parseModuleText(text);
  t.is(printModule(back), text);
  t.deepEqual(verifyModule(back), []);
});

test('parsing keeps the data, not only the text', (t) => {
  const { m } = buildEveryOpModule();
  const back = parseModuleText(printModule(m));
  t.is(back.nextId, m.nextId);
  t.is(back.types.nextStructUid, m.types.nextStructUid);
  t.deepEqual(back.sources, m.sources);
  t.deepEqual(back.extensions, m.extensions);
  t.deepEqual(back.entryPoints, m.entryPoints);
  t.deepEqual(back.globals, m.globals);
  t.deepEqual(back.types.types, m.types.types);
  // Constants: NaN, -0 and bigint survive with their JS types.
  const byId = new Map(back.constants.map((c) => [c.id, c]));
  for (const c of m.constants) {
    const d = byId.get(c.id)!;
    t.true(Object.is(d.value, c.value), `constant %${c.id}: ${String(d.value)} vs ${String(c.value)}`);
    t.deepEqual(d.parts, c.parts);
    t.is(d.specId, c.specId);
    t.is(d.name, c.name);
  }
  t.deepEqual(back.functions, m.functions);
});

test('the small fixture round-trips and its hand-written text is already canonical', (t) => {
  const m = parseModuleText(SMALL);
  const text = printModule(m);
  t.is(printModule(parseModuleText(text)), text);
  // Every non-comment line of the hand-written fixture is printed exactly as written.
  const written = SMALL.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(';'));
  t.deepEqual(written.filter((l) => !text.includes(l + '\n')), []);
});

test('hand-written text may omit nextId and undeclared types', (t) => {
  const m = parseModuleText(`
const %1: f32 = 1
fn %2 @f(%3: vec3<f32>) -> vec3<f32> {
^b4:
  %5: vec3<f32> = binary vectorTimesScalar %3 %1   ; 7:2
  %6 = return %5
}
`);
  t.is(m.nextId, 7);
  t.deepEqual(verifyModule(m), []);
  const inst = m.functions[0]!.blocks[0]!.insts[0]!;
  t.deepEqual(inst.loc, { file: 0, line: 7, column: 2 });
  t.deepEqual(m.functions[0]!.blocks[0]!.insts[1]!.loc, { file: 0, line: 0, column: 0 });
  t.is(printModule(parseModuleText(printModule(m))), printModule(m));
});

test('trailing comments that are not locations are ignored', (t) => {
  const m = parseModuleText(`
fn %1 @f() -> void {   ; the entry
^b2:
  %3 = return   ; done here
}
`);
  t.deepEqual(m.functions[0]!.loc, { file: 0, line: 0, column: 0 });
  t.is(m.functions[0]!.blocks[0]!.insts[0]!.op, 'return');
});

function parseError(text: string): IrParseError {
  try {
    parseModuleText(text);
  } catch (e) {
    if (e instanceof IrParseError) return e;
    throw e;
  }
  throw new Error('expected a parse error');
}

test('errors carry line and column', (t) => {
  let e = parseError('fn %1 @f() -> void {\n^b2:\n  %3 = frobnicate %1\n}\n');
  t.is(e.message, "3:8: unknown op 'frobnicate'");
  e = parseError('fn %1 @f() -> void {\n^b2:\n  %3: f32 = binary plus %4 %5\n}\n');
  t.is(e.message, "3:20: unknown binary kind 'plus'");
  e = parseError('const %1: f32 = 1.5.5\n');
  t.is(e.message, "1:17: bad constant value '1.5.5'");
  e = parseError('type !0 = vec3<f32>\n');
  t.is(e.message, '1:16: type is not declared before this point');
  e = parseError('type !1 = f32\n');
  t.is(e.message, '1:6: type !1 out of order (expected !0)');
  e = parseError('fn %1 @f() -> void {\n^b2:\n  %3 = return\n');
  t.is(e.message, "1:1: function @f is not closed with '}'");
  e = parseError('global %1 "g": ptr<private, f32> nowhere\n');
  t.is(e.message, "1:34: unknown storage class 'nowhere'");
  e = parseError('source 0 "a.glsl" "unterminated\n');
  t.is(e.line, 1);
  t.regex(e.message, /unterminated string/);
  e = parseError('fn %1 @f() -> void {\n  %3 = return\n}\n');
  t.regex(e.message, /^2:3: instruction outside a block/);
  e = parseError('fn %1 @f() -> void {\n^b2:\n  %3 = atomic add %1 bogus=%2\n}\n');
  t.is(e.message, "3:22: 'atomic' has no optional operand 'bogus'");
});

test('struct names: duplicates print as !N and the parser rejects an ambiguous $Name', (t) => {
  const { m } = buildEveryOpModule();
  const text = printModule(m);
  t.true(text.includes('global %26 "dup": ptr<private, !27> private'));
  const e = parseError('type !0 = u32\ntype !1 = struct "S" uid=1 {\n}\ntype !2 = struct "S" uid=2 {\n}\nconst %3: ptr<private, $S> = null\n');
  t.regex(e.message, /^6:24: struct name \$S is ambiguous/);
});

test('awkward names, extreme numbers and forward type references round-trip', (t) => {
  const { m } = buildEveryOpModule();
  const awkward = ['', 'with space', 'q"uote', 'back\\slash', 'uni\u2028code ✓', '@at', '%pct', 'semi;colon', '{brace}'];
  m.functions.forEach((f, i) => { f.name = awkward[i % awkward.length]!; });
  const blocks = m.functions.flatMap((f) => f.blocks);
  blocks.forEach((b, i) => { b.name = awkward[i % awkward.length]!; });
  m.globals.forEach((g, i) => { g.name = awkward[(i + 3) % awkward.length]!; });
  m.entryPoints[0]!.name = 'semi;colon "x"';
  for (const ty of m.types.types) if (ty.kind === 'struct') ty.members.forEach((mem, i) => { mem.name = awkward[i]!; });
  const u32 = m.constants[0]!.type;
  m.constants.push(
    { id: m.nextId++ as never, type: u32, value: 4294967295 },
    { id: m.nextId++ as never, type: u32, value: 1e-7, name: '' },
    { id: m.nextId++ as never, type: u32, value: -9007199254740993n },
    { id: m.nextId++ as never, type: u32, value: Infinity },
  );
  m.sources[1]!.text = 'a\r\nb\u2028c\td"e\\f\u0000g';
  const text = printModule(m);
  const back = parseModuleText(text);
  t.is(printModule(back), text);
  t.deepEqual(back.functions.map((f) => f.name), m.functions.map((f) => f.name));
  t.deepEqual(back.sources, m.sources);
  t.true(Object.is(back.constants.at(-2)!.value, -9007199254740993n));
});

test('words are checked against closed sets, not object prototypes', (t) => {
  t.regex(parseError('fn %1 @f() -> void {\n^b2:\n  %3: f32 = binary toString %4 %5\n}\n').message, /unknown binary kind 'toString'/);
  t.regex(parseError('fn %1 @f() -> void {\n^b2:\n  %3 = constructor\n}\n').message, /unknown op 'constructor'/);
  t.regex(parseError('type !0 = f32\ntype !1 = struct "S" uid=1 layout=toString {\n}\n').message, /unknown layout 'toString'/);
  t.regex(parseError('global %1 "g": ptr<input, f32> input builtin=valueOf\n').message, /unknown builtin 'valueOf'/);
});

test('any whitespace separates tokens, including non-ASCII spaces', (t) => {
  const m = parseModuleText('const\u00a0%1:\fu32 = 7\r\nfn %2 @f()\u2003-> void {\n^b3:\n\t%4 = return\n}\n');
  t.is(m.constants[0]!.value, 7);
  t.is(m.functions[0]!.blocks[0]!.insts[0]!.op, 'return');
});
