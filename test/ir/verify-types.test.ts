/**
 * Per-op type rules (src/ir/verify-types.ts), each broken once in the every-op module: the
 * verifier must answer with exactly one message, for the edited instruction.
 */
import test, { type ExecutionContext } from 'ava';
import { findInst } from '../../src/ir/builder.js';
import type { Inst, Op, ValueId } from '../../src/ir/inst.js';
import type { Module } from '../../src/ir/module.js';
import { T, intern, type TypeId } from '../../src/ir/types.js';
import { verifyModule } from '../../src/ir/verify.js';
import { buildEveryOpModule } from './fixtures/every-op.js';

type Edit<O extends Op> = (inst: Extract<Inst, { op: O }>, m: Module) => void;

/** Edits the first `op` instruction of @main matching `which`, expects exactly `message` for it. */
function expectOne<O extends Op>(
  t: ExecutionContext,
  op: O,
  edit: Edit<O>,
  message: string,
  which: (i: Extract<Inst, { op: O }>) => boolean = () => true,
): void {
  const { m } = buildEveryOpModule();
  const main = m.functions.find((f) => f.name === 'main')!;
  const inst = main.blocks.flatMap((b) => b.insts).find((i): i is Extract<Inst, { op: O }> => i.op === op && which(i as Extract<Inst, { op: O }>));
  if (!inst) {
    t.fail(`no ${op} in the fixture`);
    return;
  }
  edit(inst, m);
  const where = findInst(main, inst.id)!;
  const prefix = `@main ^b${where.block.id} %${inst.id} (${op}) [shaders/every.rgen:${inst.loc.line}:${inst.loc.column}]`;
  t.deepEqual(verifyModule(m), [`${prefix}: ${message}`]);
}

const constOf = (m: Module, type: (tt: Module['types']) => TypeId, value: number | boolean): ValueId =>
  m.constants.find((c) => c.type === type(m.types) && c.value === value && c.specId === undefined)!.id;

test('variable must be a function-storage pointer whose init matches', (t) => {
  expectOne(t, 'variable', (i, m) => { i.type = T.ptr(m.types, 'private', T.vec(m.types, T.f32(m.types), 3)); }, 'variable type ptr<private, vec3<f32>> is not a function-storage pointer');
  expectOne(t, 'variable', (i, m) => { i.init = constOf(m, T.u32, 1); }, 'initializer %2 has type u32, expected vec3<f32>', (i) => i.init !== undefined);
});

test('accessChain: struct members need constant in-range indices', (t) => {
  expectOne(t, 'accessChain', (i, m) => { i.indices = [constOf(m, T.u32, 255), i.indices[1]!]; }, 'member index 255 out of range for %Buf (3 members)');
  // A specialization constant is not a compile-time member index.
  expectOne(t, 'accessChain', (i, m) => { i.indices = [m.constants.find((c) => c.specId !== undefined)!.id, i.indices[1]!]; }, 'struct %Buf indexed by a non-constant index');
  expectOne(t, 'accessChain', (i, m) => { i.indices = [i.indices[0]!, constOf(m, T.f32, 1.5)]; }, 'operand %5 has type f32, expected an integer index');
});

test('arrayLength needs a runtime-array member', (t) => {
  expectOne(t, 'arrayLength', (i) => { i.member = 1; }, 'member 1 of %Buf is not a runtime array');
});

test('binary: shapes of the linear-algebra kinds', (t) => {
  expectOne(t, 'binary', (i, m) => { i.b = constOf(m, T.u32, 1); }, 'vectorTimesScalar needs a vector and its component type, got vec3<f32> and u32', (i) => i.kind === 'vectorTimesScalar');
  expectOne(t, 'binary', (i, m) => { i.b = constOf(m, T.f32, 1.5); }, 'dot needs two vectors of the same type, got vec3<f32> and f32', (i) => i.kind === 'dot');
  expectOne(t, 'binary', (i, m) => { i.b = constOf(m, T.i32, -1); }, 'operands of add differ: vec3<f32> and i32', (i) => i.kind === 'add' && i.loc.line === 28);
});

test('unary, test and select operand rules', (t) => {
  expectOne(t, 'unary', (i, m) => { i.a = constOf(m, T.u32, 1); }, 'result type f32 does not match the operand type u32');
  expectOne(t, 'test', (i, m) => { i.a = constOf(m, T.bool, true); }, 'operand %9 has type bool, expected a bool vector');
  expectOne(t, 'select', (i, m) => { i.cond = constOf(m, T.u32, 1); }, 'select condition %2 has type u32, expected bool');
  expectOne(t, 'select', (i, m) => { i.b = constOf(m, T.u32, 1); }, 'false operand %2 has type u32, expected f32');
});

test('composites: construct, extract, insert, shuffle, dynamic access', (t) => {
  expectOne(t, 'construct', (i) => { i.parts = i.parts.slice(0, 3); }, '3 components given for vec4<f32>');
  expectOne(t, 'extract', (i) => { i.indices = [4]; }, 'component 4 out of range for vec4<f32>');
  expectOne(t, 'insert', (i, m) => { i.object = constOf(m, T.u32, 1); }, 'inserted object %2 has type u32, expected f32');
  expectOne(t, 'shuffle', (i) => { i.components = [8, 0, 1]; }, 'shuffle component 8 out of range (8 available)');
  expectOne(t, 'shuffle', (i) => { i.components = [0, 1]; }, 'shuffle result vec3<f32> does not have 2 components');
  expectOne(t, 'extractDynamic', (i, m) => { i.index = constOf(m, T.f32, 1.5); }, 'operand %5 has type f32, expected an integer index');
  expectOne(t, 'insertDynamic', (i, m) => { i.value = constOf(m, T.u32, 1); }, 'inserted value %2 has type u32, expected f32');
  expectOne(t, 'copyObject', (i, m) => {
    i.value = m.functions[1]!.blocks[0]!.insts.find((x) => x.op === 'construct')!.id;
  }, 'result type vec3<f32> does not match the operand type vec4<f32>');
});

test('atomics: value, comparator and result follow the pointee', (t) => {
  expectOne(t, 'atomic', (i, m) => { i.value = constOf(m, T.u32, 1); }, 'value %2 has type u32, expected f32', (i) => i.kind === 'add');
  expectOne(t, 'atomic', (i) => { delete i.comparator; }, 'atomic compareExchange needs a comparator', (i) => i.kind === 'compareExchange');
  expectOne(t, 'atomic', (i, m) => { i.type = T.f32(m.types); }, 'atomic store result must be void', (i) => i.kind === 'store');
});

test('subgroup, clock and sampled image results', (t) => {
  expectOne(t, 'subgroup', (i, m) => { i.type = T.f32(m.types); }, 'result type f32 does not match the operand type u32', (i) => i.kind === 'add');
  expectOne(t, 'subgroup', (i, m) => { i.args = [constOf(m, T.u32, 1)]; }, 'operand %2 has type u32, expected bool', (i) => i.kind === 'ballot');
  expectOne(t, 'subgroup', (i, m) => { i.type = T.vec(m.types, T.f32(m.types), 4); }, 'subgroup ballot result must be vec4<u32>', (i) => i.kind === 'ballot');
  expectOne(t, 'clock', (i, m) => { i.type = T.u32(m.types); }, 'clock result must be u64 or vec2<u32>', (i) => i.scope === 'device');
  expectOne(t, 'sampledImage', (i, m) => { i.type = intern(m.types, { kind: 'sampler' }); }, 'sampledImage result sampler does not wrap the image type image<2DArray, f32>');
});

test('ray tracing operands: payload and callable data storage, accel, ray vectors', (t) => {
  expectOne(t, 'traceRay', (i, m) => { i.payload = m.globals.find((g) => g.name === 'cdata')!.id; }, 'payload %23 has storage callableData, expected rayPayload');
  expectOne(t, 'traceRay', (i, m) => { i.origin = constOf(m, T.f32, 1.5); }, 'operand %5 has type f32, expected vec3<f32>');
  expectOne(t, 'traceRay', (i, m) => { i.accel = constOf(m, T.u32, 1); }, 'operand %2 has type u32, expected accel');
  expectOne(t, 'executeCallable', (i, m) => { i.callableData = m.globals.find((g) => g.name === 'payload')!.id; }, 'callable data %22 has storage rayPayload, expected callableData');
  expectOne(t, 'reportIntersection', (i, m) => { i.hitT = constOf(m, T.u32, 1); }, 'operand %2 has type u32, expected f32');
  expectOne(t, 'convertUToAccel', (i, m) => { i.type = T.u32(m.types); }, 'result u32 is not accel');
});

test('no-result ops must be void-typed', (t) => {
  expectOne(t, 'traceRay', (i, m) => { i.type = T.u32(m.types); }, 'traceRay has no result but its type is u32, expected void');
});

test('module-level rules: global initializers and composite parts are constants, types exist', (t) => {
  const { m } = buildEveryOpModule();
  m.globals.find((g) => g.name === 'table')!.init = m.globals[0]!.id;
  m.constants.find((c) => c.parts && c.parts.length === 3)!.parts![1] = 12345 as ValueId;
  t.deepEqual(verifyModule(m), [
    'constant %11: part %12345 is not a constant',
    'global %25 "table" [shaders/every.rgen:11:1]: initializer %17 is not a constant',
  ]);
  const { m: m2 } = buildEveryOpModule();
  m2.constants[0]!.type = 999 as TypeId;
  t.regex(verifyModule(m2).join('\n'), /^constant %1: unknown type id 999/);
});

test('a selection merge must sit on a block ending in condBranch or switch', (t) => {
  const { m } = buildEveryOpModule();
  const main = m.functions.find((f) => f.name === 'main')!;
  const thenBlock = main.blocks.find((b) => b.name === 'if.then')!;
  thenBlock.merge = { kind: 'selection', merge: main.blocks.find((b) => b.name === 'if.end')!.id };
  const br = thenBlock.insts[0]!;
  t.deepEqual(verifyModule(m), [
    `@main ^b${thenBlock.id} %${br.id} (branch) [shaders/every.rgen:61:5]: selection merge on a block that ends in branch (needs condBranch or switch)`,
  ]);
});
