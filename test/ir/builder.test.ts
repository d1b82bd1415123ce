import test from 'ava';
import { Builder, addFunction, addGlobal, constant, findBlock, findInst, functionById } from '../../src/ir/builder.js';
import type { BlockId, FunctionId, ValueId } from '../../src/ir/inst.js';
import { newModule } from '../../src/ir/module.js';
import { printFunction } from '../../src/ir/printer.js';
import { parseModuleText } from '../../src/ir/text-parser.js';
import { verifyModule } from '../../src/ir/verify.js';
import { checkLines } from './fixtures/check-lines.js';
import { T } from '../../src/ir/types.js';

function ops(m: ReturnType<typeof newModule>, fnIndex: number, block: BlockId): string[] {
  return findBlock(m.functions[fnIndex]!, block).insts.map((i) => i.op);
}

test('constants are interned by type and value; spec constants and -0 are distinct', (t) => {
  const m = newModule();
  const b = new Builder(m, addFunction(m, { name: 'f', returnType: T.void(m.types) }));
  const a = b.constU32(7);
  t.is(b.constU32(7), a);
  t.not(b.constI32(7), a);
  t.is(b.constF32(0), b.constF32(0));
  t.not(b.constF32(-0), b.constF32(0));
  t.is(b.constF32(NaN), b.constF32(NaN));
  t.is(b.constBool(true), b.constBool(true));
  const v = b.constant(b.t.vec(b.t.f32, 2), null, [b.constF32(1), b.constF32(2)]);
  t.is(b.constant(b.t.vec(b.t.f32, 2), null, [b.constF32(1), b.constF32(2)]), v);
  t.not(b.constant(b.t.vec(b.t.f32, 2), null, [b.constF32(2), b.constF32(1)]), v);
  // A spec constant with the same value is never returned for a plain constant.
  m.constants.push({ id: m.nextId++ as ValueId, type: b.t.u32, value: 9, specId: 1 });
  const nine = b.constU32(9);
  t.is(m.constants.find((c) => c.id === nine)!.specId, undefined);
  t.is(constant(m, b.t.u64, 5n), constant(m, b.t.u64, 5n));
  // Editing the constants array behind the builder's back does not return a stale id.
  m.constants.splice(m.constants.findIndex((c) => c.id === a), 1);
  const again = b.constU32(7);
  t.not(again, a);
  t.true(m.constants.some((c) => c.id === again));
  // Spliced and pushed back to the same length: the index notices and finds the moved constant.
  const before = b.constU32(100);
  const moved = m.constants.splice(0, 1)[0]!;
  m.constants.push(moved);
  t.is(constant(m, moved.type, moved.value), moved.id);
  t.is(b.constU32(100), before);
  // Edited in place: the old value is not returned for the stale key.
  const edited = m.constants.find((c) => c.id === before)!;
  edited.value = 101;
  t.not(b.constU32(100), before);
  t.is(b.constU32(101), before);
});

test('emit inserts at the cursor and advances it; ids come from module.nextId', (t) => {
  const m = newModule();
  const fn = addFunction(m, { name: 'main', returnType: T.void(m.types) });
  const b = new Builder(m, fn);
  const entry = b.createBlock('entry');
  b.setInsertPoint(entry);
  b.loc = { file: 0, line: 3, column: 1 };
  const x = b.emit('undef', {}, b.t.f32);
  const ret = b.emitVoid('return', {});
  b.setInsertBeforeTerminator(entry);
  const y = b.emit('binary', { kind: 'add', a: x, b: x }, b.t.f32, { file: 0, line: 4, column: 2 });
  const z = b.emit('unary', { kind: 'neg', a: y }, b.t.f32);
  t.deepEqual(ops(m, 0, entry), ['undef', 'binary', 'unary', 'return']);
  t.true(x < y && y < z && ret < y);
  t.is(m.nextId, z + 1);
  t.deepEqual(findInst(fn, y)!.inst.loc, { file: 0, line: 4, column: 2 });
  t.deepEqual(findInst(fn, z)!.inst.loc, { file: 0, line: 3, column: 1 });
  b.setInsertBefore(y);
  const w = b.emit('copyObject', { value: x }, b.t.f32);
  b.setInsertAfter(z);
  const v = b.emit('copyObject', { value: z }, b.t.f32);
  t.deepEqual(findBlock(fn, entry).insts.map((i) => i.id), [x, w, y, z, v, ret]);
  t.deepEqual(verifyModule(m), []);
  t.throws(() => b.setInsertPoint(entry, 99), { message: /out of range/ });
  t.throws(() => findBlock(fn, 12345 as BlockId), { message: /\^b12345 not found in function @main/ });
  t.is(functionById(m, fn.id), fn);
  t.throws(() => functionById(m, 999 as FunctionId), { message: /function %999 not found/ });
});

const LOOP = `
const %1: u32 = 0
const %2: u32 = 1
const %3: bool = true
fn %4 @f() -> void {
^b5 "entry":
  %6: ptr<function, u32> = variable   ; 1:1
  %7 = branch ^b8
^b8 "header" loopMerge ^b12 ^b10:
  %9: u32 = phi {^b5: %1, ^b10: %11}
  %13 = condBranch %3 ^b10 ^b12
^b10 "latch":
  %11: u32 = binary add %9 %2
  %14 = branch ^b8
^b12 "exit":
  %15: u32 = phi {^b8: %9}
  %16 = return
}
`;

test('insertAfterPhisAndVariables skips phis, and variables only in the entry block', (t) => {
  const m = parseModuleText(LOOP);
  const fn = m.functions[0]!;
  const b = new Builder(m, fn);
  b.insertAfterPhisAndVariables(5 as BlockId);
  t.is(b.index, 1);
  b.insertAfterPhisAndVariables(8 as BlockId);
  t.is(b.index, 1);
  b.insertAfterPhisAndVariables(10 as BlockId);
  t.is(b.index, 0);
  const u = b.emit('copyObject', { value: 11 as ValueId }, b.t.u32);
  void u;
  // Used before its definition: proves the cursor really was at index 0.
  t.regex(verifyModule(m).join('\n'), /%11 is used before its definition in \^b10/);
});

test('splitBlockAt moves the tail, branches to it and fixes successor phis', (t) => {
  const m = parseModuleText(LOOP);
  const fn = m.functions[0]!;
  const b = new Builder(m, fn);
  // Split the loop header after its phi: the back edge still targets the header, the exit phi
  // must now name the tail block, and the loop merge stays on the header.
  b.setInsertPoint(8 as BlockId); // cursor at end of the header: follows the split
  const tail = b.splitBlockAt(8 as BlockId, 1, 'header.tail');
  t.deepEqual(verifyModule(m), []);
  t.is(fn.blocks[2]!.id, tail);
  t.deepEqual(ops(m, 0, 8 as BlockId), ['phi', 'branch']);
  t.deepEqual(ops(m, 0, tail), ['condBranch']);
  t.is(findBlock(fn, 8 as BlockId).merge?.kind, 'loop');
  const exitPhi = findBlock(fn, 12 as BlockId).insts[0]!;
  t.deepEqual(exitPhi.op === 'phi' ? exitPhi.incoming.map((i) => i.block) : [], [tail]);
  t.is(b.block, tail);
  t.throws(() => b.splitBlockAt(8 as BlockId, 0), { message: /after its phis/ });
  t.deepEqual(checkLines(printFunction(m, fn), String.raw`
; CHECK: ^b8 "header" loopMerge ^b12 ^b10:
; CHECK-NEXT: %9: u32 = phi {^b5: %1, ^b10: %11}
; CHECK-NEXT: = branch [[TAIL:\^b\d+]]
; CHECK-NEXT: [[TAIL]] "header.tail":
; CHECK-NEXT: condBranch %3 ^b10 ^b12
; CHECK: ^b12 "exit":
; CHECK-NEXT: phi {[[TAIL]]: %9}`), []);
});

test('splitBlockAt moves a selection merge with the terminator', (t) => {
  const m = parseModuleText(`
const %1: bool = true
const %2: f32 = 1
fn %3 @f() -> void {
^b4 "entry" selectionMerge ^b7:
  %5: f32 = copyObject %2
  %6 = condBranch %1 ^b8 ^b7
^b8:
  %9 = branch ^b7
^b7:
  %10: f32 = phi {^b4: %5, ^b8: %2}
  %11 = return
}
`);
  const fn = m.functions[0]!;
  const b = new Builder(m, fn);
  const tail = b.splitBlockAt(4 as BlockId, 1);
  t.deepEqual(verifyModule(m), []);
  t.is(findBlock(fn, 4 as BlockId).merge, undefined);
  t.deepEqual(findBlock(fn, tail).merge, { kind: 'selection', merge: 7 });
  t.regex(printFunction(m, fn), new RegExp(`phi \\{\\^b${tail}: %5, \\^b8: %2\\}`));
});

test('createBlock appends, or places the block after a given one', (t) => {
  const m = parseModuleText(LOOP);
  const fn = m.functions[0]!;
  const b = new Builder(m, fn);
  const last = b.createBlock('last');
  const mid = b.createBlock('mid', 8 as BlockId);
  t.deepEqual(fn.blocks.map((x) => x.id), [5, 8, mid, 10, 12, last]);
  t.is(findBlock(fn, mid).name, 'mid');
});

test('addGlobal and addFunction allocate ids in the shared space', (t) => {
  const m = newModule();
  const tv = T.void(m.types);
  const f = addFunction(m, { name: 'g', returnType: tv, params: [{ type: tv, name: 'p' }] });
  const g = addGlobal(m, { name: 'x', type: tv, storage: 'private', loc: { file: 0, line: 1, column: 1 } });
  t.deepEqual([f.id, f.params[0]!.id, g], [1, 2, 3]);
  t.is(f.params[0]!.name, 'p');
  t.is(m.nextId, 4);
});
