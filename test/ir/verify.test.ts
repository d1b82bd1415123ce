import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Module } from '../../src/ir/module.js';
import { parseModuleText } from '../../src/ir/text-parser.js';
import { IrVerifyError, assertValid, verifyModule } from '../../src/ir/verify.js';
import { buildEveryOpModule } from './fixtures/every-op.js';

const BASE = readFileSync(fileURLToPath(new URL('./fixtures/small-valid.ir', import.meta.url)), 'utf8');

/** Applies one textual edit (which must match exactly once) and returns the verifier's messages. */
function brokenText(t: ExecutionContext, from: string, to: string): string[] {
  t.is(BASE.split(from).length, 2, `edit target must occur exactly once: ${from}`);
  return verifyModule(parseModuleText(BASE.replace(from, to)));
}

function brokenModule(edit: (m: Module) => void): string[] {
  const m = parseModuleText(BASE);
  edit(m);
  return verifyModule(m);
}

test('the base modules are valid', (t) => {
  t.deepEqual(verifyModule(parseModuleText(BASE)), []);
  t.deepEqual(verifyModule(buildEveryOpModule().m), []);
  t.notThrows(() => assertValid(parseModuleText(BASE)));
});

test('messages name function, block, instruction, op and source location', (t) => {
  t.deepEqual(brokenText(t, 'binary mul %23 %3', 'binary mul %23 %2'), [
    '@main ^b13 %27 (binary) [t.rgen:9:5]: operands of mul differ: f32 and u32',
  ]);
});

test('assertValid throws all messages', (t) => {
  const m = parseModuleText(BASE.replace('binary mul %23 %3', 'binary mul %23 %2').replace('%24 = store %12 %23', '%24 = store %12 %2'));
  const err = t.throws(() => assertValid(m), { instanceOf: IrVerifyError });
  t.is(err?.messages.length, 2);
  t.regex(err!.message, /2 problems/);
});

// ----- operand and result types -----

test('compare returns a bool of the operand width', (t) => {
  t.deepEqual(brokenText(t, '%25: bool = compare lt %23 %3', '%25: bool = compare lt %21 %21'), [
    '@main ^b11 %25 (compare) [t.rgen:8:3]: compare result bool must be vec4<bool>',
  ]);
});

test('store value must match the pointee', (t) => {
  t.deepEqual(brokenText(t, '%24 = store %12 %23', '%24 = store %12 %2'), [
    '@main ^b11 %24 (store) [t.rgen:7:3]: stored value %2 has type u32, expected f32',
  ]);
});

test('load result must match the pointee', (t) => {
  t.deepEqual(brokenText(t, '%39: u32 = load %38', '%39: f32 = load %38'), [
    '@main ^b11 %39 (load) [t.rgen:5:9]: result type f32 does not match the pointee type u32',
  ]);
});

test('access chain result must match walking the indices', (t) => {
  t.deepEqual(brokenText(t, 'accessChain %5 (%2)', 'accessChain %5 (%1)'), [
    '@main ^b11 %38 (accessChain) [t.rgen:5:9]: access chain result ptr<storageBuffer, u32> does not match the indexed type ptr<storageBuffer, vec4<f32>>',
  ]);
});

test('call arguments must match the callee parameters', (t) => {
  t.deepEqual(brokenText(t, 'call %6 @twice (%22)', 'call %6 @twice (%39)'), [
    '@main ^b11 %23 (call) [t.rgen:6:3]: argument 0 %39 has type u32, expected f32',
  ]);
  t.deepEqual(brokenText(t, 'call %6 @twice (%22)', 'call %6 @twice (%22, %22)'), [
    '@main ^b11 %23 (call) [t.rgen:6:3]: @twice takes 1 arguments, got 2',
  ]);
  t.deepEqual(brokenText(t, 'call %6 @twice (%22)', 'call %77 (%22)'), [
    '@main ^b11 %23 (call) [t.rgen:6:3]: callee %77 is not a function of the module',
  ]);
});

test('return value must match the function return type', (t) => {
  t.deepEqual(brokenText(t, '%19 = return %9', '%19 = return %2'), [
    '@twice ^b8 %19 (return) [t.rgen:2:30]: returned value %2 has type u32, expected f32',
  ]);
  t.deepEqual(brokenText(t, '%19 = return %9', '%19 = return'), [
    '@twice ^b8 %19 (return) [t.rgen:2:30]: return without a value from a function returning f32',
  ]);
  t.deepEqual(brokenText(t, '%36 = return', '%36 = return %1'), [
    '@main ^b17 %36 (return) [t.rgen:13:1]: return with a value from a void function',
  ]);
});

test('phi incoming values must have the result type', (t) => {
  t.deepEqual(brokenText(t, '{^b11: %23, ^b13: %27}', '{^b11: %23, ^b13: %2}'), [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: incoming value from ^b13 %2 has type u32, expected f32',
  ]);
});

test('condBranch needs a bool and switch an integer selector', (t) => {
  t.deepEqual(brokenText(t, 'condBranch %25', 'condBranch %2'), [
    '@main ^b11 %26 (condBranch) [t.rgen:8:3]: operand %2 has type u32, expected bool',
  ]);
  t.deepEqual(brokenText(t, 'switch %32', 'switch %3'), [
    '@main ^b15 %33 (switch) [t.rgen:11:3]: operand %3 has type f32, expected an integer scalar',
  ]);
});

test('no-result instructions must have void type', (t) => {
  t.deepEqual(brokenText(t, '%24 = store', '%24: f32 = store'), [
    '@main ^b11 %24 (store) [t.rgen:7:3]: store has no result but its type is f32, expected void',
  ]);
});

// ----- SSA -----

test('every use is dominated by its definition', (t) => {
  t.deepEqual(brokenText(t, '%30 = store %12 %29', '%30 = store %12 %27'), [
    '@main ^b14 %30 (store) [t.rgen:10:3]: %27 (defined in ^b13) does not dominate this use',
  ]);
  t.deepEqual(brokenText(t, 'binary add %32 %2', 'binary add %34 %2'), [
    '@main ^b16 %34 (binary) [t.rgen:12:3]: %34 is used before its definition in ^b16',
  ]);
});

test('phi operands are dominated at the end of the incoming block', (t) => {
  t.deepEqual(brokenText(t, '{^b11: %23, ^b13: %27}', '{^b11: %27, ^b13: %27}'), [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: %27 does not dominate the end of incoming block ^b11',
  ]);
});

test('operands must be defined, and in this function', (t) => {
  t.deepEqual(brokenText(t, '%30 = store %12 %29', '%30 = store %12 %88'), [
    '@main ^b14 %30 (store) [t.rgen:10:3]: operand %88 is not defined',
  ]);
  t.deepEqual(brokenText(t, '%30 = store %12 %29', '%30 = store %12 %9'), [
    '@main ^b14 %30 (store) [t.rgen:10:3]: operand %9 is defined in another function',
  ]);
});

// ----- block structure -----

test('one terminator, at the end of each block', (t) => {
  t.deepEqual(brokenText(t, '  %36 = return   ; 13:1\n', '  %36: f32 = copyObject %3   ; 13:1\n'), [
    '@main ^b17 %36 (copyObject) [t.rgen:13:1]: block ^b17 does not end with a terminator',
  ]);
  t.deepEqual(brokenText(t, '  %36 = return   ; 13:1\n', '  %36 = return   ; 13:1\n  %40: f32 = copyObject %3   ; 13:2\n'), [
    '@main ^b17 %40 (copyObject) [t.rgen:13:2]: block ^b17 does not end with a terminator',
    '@main ^b17 %36 (return) [t.rgen:13:1]: terminator in the middle of block ^b17',
  ]);
  t.deepEqual(brokenText(t, '  %36 = return   ; 13:1\n', ''), ['@main ^b17: empty block (needs a terminator)']);
});

test('phis come first', (t) => {
  t.deepEqual(brokenText(t, '^b14 "end":\n', '^b14 "end":\n  %40: f32 = copyObject %3   ; 10:1\n'), [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: phi after a non-phi instruction',
  ]);
});

test('phis have exactly one incoming entry per predecessor', (t) => {
  t.deepEqual(brokenText(t, '{^b11: %23, ^b13: %27}', '{^b11: %23}'), [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: no incoming entry for predecessor ^b13',
  ]);
  t.deepEqual(brokenText(t, '{^b11: %23, ^b13: %27}', '{^b11: %23, ^b13: %27, ^b13: %27}'), [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: two incoming entries for predecessor ^b13',
  ]);
  t.deepEqual(brokenText(t, '{^b11: %23, ^b13: %27}', '{^b11: %23, ^b13: %27, ^b17: %23}'), [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: incoming block ^b17 is not a predecessor of ^b14',
  ]);
});

test('variables only at the start of the entry block', (t) => {
  t.deepEqual(brokenText(t, '^b13 "then":\n', '^b13 "then":\n  %40: ptr<function, f32> = variable   ; 9:1\n'), [
    '@main ^b13 %40 (variable) [t.rgen:9:1]: variable outside the entry block',
  ]);
  t.deepEqual(brokenText(t, '  %21: vec4<f32> = load %20   ; 5:3\n', '  %21: vec4<f32> = load %20   ; 5:3\n  %40: ptr<function, f32> = variable   ; 5:4\n'), [
    '@main ^b11 %40 (variable) [t.rgen:5:4]: variable after a non-variable instruction',
  ]);
});

test('branch targets exist', (t) => {
  t.deepEqual(brokenText(t, '[1: ^b16]', '[1: ^b16, 2: ^b98]'), [
    '@main ^b15 %33 (switch) [t.rgen:11:3]: branch target ^b98 does not exist in @main',
  ]);
});

test('block ids are unique', (t) => {
  t.deepEqual(brokenText(t, '^b8 "entry":', '^b11 "entry":'), [
    'duplicate id %11: block ^b11 of @main reuses the id of block ^b11 of @twice',
  ]);
});

test('ids are unique across the module and below nextId', (t) => {
  t.deepEqual(brokenText(t, '%31 = branch ^b15', '%28 = branch ^b15'), [
    'duplicate id %28: instruction %28 (branch) in @main ^b14 reuses the id of instruction %28 (branch) in @main ^b13',
  ]);
  t.deepEqual(brokenText(t, 'nextId 100', 'nextId 39'), ['id %39 of instruction %39 (load) in @main ^b11 is not below module.nextId 39']);
});

test('entry points name an existing void function without parameters', (t) => {
  t.deepEqual(brokenText(t, 'entry raygen %10 "main"', 'entry raygen %77 "main"'), [
    'entry point raygen "main": function %77 does not exist',
  ]);
  t.deepEqual(brokenText(t, 'entry raygen %10 "main"', 'entry miss %6 "twice"'), [
    'entry point miss "twice": function @twice must return void',
    'entry point miss "twice": function @twice must take no parameters',
  ]);
});

test('merge info refers to existing blocks', (t) => {
  t.deepEqual(brokenText(t, 'selectionMerge ^b14', 'selectionMerge ^b98'), ['@main ^b11: selection merge block ^b98 does not exist']);
  t.deepEqual(brokenText(t, 'loopMerge ^b17 ^b16', 'loopMerge ^b17 ^b97'), ['@main ^b15: loop merge continue block ^b97 does not exist']);
  t.deepEqual(brokenText(t, 'loopMerge ^b17 ^b16', 'loopMerge ^b96 ^b16'), ['@main ^b15: loop merge block ^b96 does not exist']);
});

test('every instruction has a loc naming an existing source', (t) => {
  t.deepEqual(
    brokenModule((m) => {
      delete (m.functions[1]!.blocks[0]!.insts[2] as { loc?: unknown }).loc;
    }),
    ['@main ^b11 %21 (load) [no loc]: missing loc'],
  );
  t.deepEqual(brokenText(t, '%27: f32 = binary mul %23 %3   ; 9:5', '%27: f32 = binary mul %23 %3   ; 3:9:5'), [
    '@main ^b13 %27 (binary) [file3:9:5]: loc names source file 3, but the module has 1',
  ]);
});

test('globals must be pointers of their storage class', (t) => {
  t.deepEqual(brokenText(t, '$B> storageBuffer set=0', '$B> uniform set=0'), [
    'global %5 "buf" [t.rgen:1:1]: storage uniform differs from its pointer type\'s storageBuffer',
  ]);
});

test('structurally malformed instructions are reported, not thrown', (t) => {
  const m = parseModuleText(BASE);
  delete (m.functions[1]!.blocks[0]!.insts[1] as { indices?: unknown }).indices;
  const msgs = verifyModule(m);
  t.is(msgs.length, 1);
  t.regex(msgs[0]!, /^@main: malformed function, verification stopped: /);
});

test('the entry block is not a branch target', (t) => {
  t.deepEqual(brokenText(t, '%36 = return', '%36 = branch ^b11'), ['@main ^b11: the entry block is a branch target (from ^b17)']);
});

test('switch case values are unique', (t) => {
  t.deepEqual(brokenText(t, '[1: ^b16]', '[1: ^b16, 1: ^b17]'), [
    '@main ^b15 %33 (switch) [t.rgen:11:3]: switch case 1 appears twice',
  ]);
});
