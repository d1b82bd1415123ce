/**
 * Constant folding used for array sizes, const initializers, case labels and spec constant
 * defaults: literals of every suffix, operators with GLSL typing, constructors, swizzles.
 */
import test from 'ava';
import type { Expr } from '../../../src/frontend/glsl/ast.js';
import { NO_LOC } from '../../../src/ir/inst.js';
import { newTypeTable } from '../../../src/ir/types.js';
import { GlslTypes } from '../../../src/frontend/glsl/sema/glsl-types.js';
import { constComponents, evalConst, parseFloatLiteral, parseIntLiteral, type ConstEnv } from '../../../src/frontend/glsl/sema/const-eval.js';

const types = new GlslTypes(newTypeTable());
const consts: Record<string, Expr> = {};
const env: ConstEnv = {
  types,
  lookup: (name) => (consts[name] ? evalConst(env, consts[name]!) : undefined),
  resolveType: (name) => types.resolveName(name),
};
const loc = NO_LOC;
const int = (text: string): Expr => ({ kind: 'intLit', text, loc });
const flt = (text: string): Expr => ({ kind: 'floatLit', text, loc });
const bin = (op: Extract<Expr, { kind: 'binary' }>['op'], left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, loc });
const neg = (operand: Expr): Expr => ({ kind: 'unary', op: '-', operand, loc });
const call = (callee: string, ...args: Expr[]): Expr => ({ kind: 'call', callee, args, loc });

test('integer literals: bases, suffixes, 32-bit wrap, 64-bit', (t) => {
  t.deepEqual(parseIntLiteral('42'), { value: 42, kind: 'int' });
  t.deepEqual(parseIntLiteral('0x1Fu'), { value: 31, kind: 'uint' });
  t.deepEqual(parseIntLiteral('017'), { value: 15, kind: 'int' });
  t.deepEqual(parseIntLiteral('0xFFFFFFFF'), { value: -1, kind: 'int' });
  t.deepEqual(parseIntLiteral('5ul'), { value: 5n, kind: 'uint64' });
  t.deepEqual(parseIntLiteral('3000000000l'), { value: 3000000000n, kind: 'int64' });
  t.is(parseIntLiteral('99999999999'), undefined);
  t.deepEqual(parseFloatLiteral('1.5'), { value: 1.5, kind: 'float' });
  t.deepEqual(parseFloatLiteral('2.5lf'), { value: 2.5, kind: 'double' });
  t.deepEqual(parseFloatLiteral('1e-3'), { value: Math.fround(1e-3), kind: 'float' });
  t.is(parseFloatLiteral('0.1')!.value, Math.fround(0.1), 'rounded to f32');
});

test('arithmetic folds with GLSL typing', (t) => {
  t.like(evalConst(env, bin('*', int('2'), int('3'))), { type: types.int, scalar: 6 });
  t.like(evalConst(env, bin('/', int('7'), int('2'))), { scalar: 3 });
  t.like(evalConst(env, bin('/', neg(int('7')), int('2'))), { scalar: -3 });
  t.like(evalConst(env, bin('+', int('1'), flt('0.5'))), { type: types.float, scalar: 1.5 });
  t.like(evalConst(env, bin('<<', int('1'), int('4'))), { scalar: 16 });
  t.like(evalConst(env, bin('-', int('0u'), int('1u'))), { type: types.uint, scalar: 0xffffffff });
  t.like(evalConst(env, bin('<', int('1'), int('2'))), { type: types.bool, scalar: true });
  t.like(evalConst(env, bin('&&', { kind: 'boolLit', value: false, loc }, { kind: 'ident', name: 'unknown', loc })), { scalar: false });
  t.is(evalConst(env, bin('/', int('1'), int('0'))), undefined, 'integer division by zero is not folded');
  t.is(evalConst(env, { kind: 'ident', name: 'runtimeValue', loc }), undefined);
});

test('named constants, constructors, swizzles and indexing fold', (t) => {
  consts.N = bin('+', int('3'), int('1'));
  t.like(evalConst(env, bin('*', { kind: 'ident', name: 'N', loc }, int('2'))), { scalar: 8 });
  const v = evalConst(env, call('vec3', flt('1.0'), call('vec2', int('2'), int('3'))))!;
  t.is(v.type, types.resolveName('vec3')!);
  t.deepEqual(constComponents(v).map((c) => c.scalar), [1, 2, 3]);
  const sw = evalConst(env, { kind: 'member', object: call('vec4', flt('1.0'), flt('2.0'), flt('3.0'), flt('4.0')), member: 'wx', loc })!;
  t.deepEqual(constComponents(sw).map((c) => c.scalar), [4, 1]);
  const m = evalConst(env, call('mat2', flt('2.0')))!;
  t.deepEqual(constComponents(m).map((c) => c.scalar), [2, 0, 0, 2]);
  const arr: Expr = { kind: 'call', callee: 'float', calleeType: { name: 'float', arrayDims: [int('3')], loc }, args: [flt('1.0'), flt('2.0'), flt('3.0')], loc };
  t.like(evalConst(env, { kind: 'index', object: arr, index: int('2'), loc }), { scalar: 3 });
  t.like(evalConst(env, { kind: 'lengthOf', object: arr, loc }), { scalar: 3 });
  t.like(evalConst(env, call('int', flt('2.7'))), { type: types.int, scalar: 2 });
  t.like(evalConst(env, call('uint', neg(int('1')))), { scalar: 0xffffffff });
});
