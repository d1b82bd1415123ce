import test from 'ava';
import type { Inst, InstOf, ValueId } from '../../../src/ir/inst.js';
import type { TypeId } from '../../../src/ir/types.js';
import { PtxOp } from '../../../src/sim/ptx-op.js';
import { partialAccessCount, ptxSequenceOf, sequenceClassCounts, type OperandTypes } from '../../../src/sim/functional/ptx-ops-of.js';

// Values 1..3: vec3 floats; 4: float; 5: uint; 6: a constant uint; 7: a storage buffer variable; 8: a constant float 16777216; 9: a constant float 1. Types: 10 vec3, 11 float, 12 uint.
const v = (n: number): ValueId => n as unknown as ValueId;
const ty = (n: number): TypeId => n as unknown as TypeId;
const types: OperandTypes = {
  scalar: (x) => (Number(x) === 5 || Number(x) === 6 ? 'int' : 'f32'),
  components: (x) => (Number(x) <= 3 ? 3 : 1),
  componentsOfType: (t) => (Number(t) === 10 ? 3 : 1),
  // Type 13: a struct of a vec3 and a float (4 leaves); value 14 is one.
  leavesOfType: (t) => (Number(t) === 10 ? 3 : Number(t) === 13 ? 4 : 1),
  leaves: (x) => (Number(x) <= 3 ? 3 : Number(x) === 14 ? 4 : 1),
  columnsOfType: () => 1,
  isConstant: (x) => Number(x) === 6 || Number(x) === 8 || Number(x) === 9,
  isConstantOne: (x) => Number(x) === 9,
  rootKind: (x) => (Number(x) === 7 ? 'buffer' : undefined),
};
const inst = (i: Record<string, unknown>): Inst => i as unknown as Inst;

test('an element-wise vec3 op is three PTX instructions of its opcode, one on the critical path', (t) => {
  const s = ptxSequenceOf(inst({ op: 'binary', kind: 'add', id: v(20), type: ty(10), a: v(1), b: v(2) }), types, false);
  t.deepEqual(s, { chain: [PtxOp.FpAdd], count: 3 });
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'add', id: v(21), type: ty(12), a: v(5), b: v(6) }), types, false), { chain: [PtxOp.IntAdd], count: 1 });
});

test('dot, normalize, clamp and fdiv become the sequences Vulkan-Sim\'s translator emits', (t) => {
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'dot', id: v(22), type: ty(11), a: v(1), b: v(2) }), types, false), {
    chain: [PtxOp.FpMul, PtxOp.FpAdd, PtxOp.FpAdd], count: 5,
  }, 'fdot3 lowered: three fmul, then fsum3 printed as two add.f32');
  const n = ptxSequenceOf(inst({ op: 'ext', fn: 'normalize', id: v(23), type: ty(10), args: [v(1)] }), types, false);
  t.deepEqual(n.chain, [PtxOp.FpMul, PtxOp.FpAdd, PtxOp.FpAdd, PtxOp.Sfu, PtxOp.FpMul], 'dot, rsqrt, scale');
  t.is(n.count, 5 + 1 + 3);
  t.deepEqual(ptxSequenceOf(inst({ op: 'ext', fn: 'clamp', id: v(24), type: ty(11), args: [v(4), v(4), v(4)] }), types, false).chain, [PtxOp.FpMinMax, PtxOp.FpMinMax]);
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'div', id: v(25), type: ty(11), a: v(4), b: v(4) }), types, false).chain, [PtxOp.Sfu, PtxOp.FpMul], 'rcp then mul');
});

test('NIR folds the reciprocal of a constant divisor: the mul alone, and 1 / x is the rcp alone', (t) => {
  const byConstant = ptxSequenceOf(inst({ op: 'binary', kind: 'div', id: v(33), type: ty(11), a: v(4), b: v(8) }), types, false);
  t.deepEqual(byConstant, { chain: [PtxOp.FpMul], count: 1 });
  const vecByConstant = ptxSequenceOf(inst({ op: 'binary', kind: 'div', id: v(34), type: ty(10), a: v(1), b: v(8) }), types, false);
  t.deepEqual(vecByConstant, { chain: [PtxOp.FpMul], count: 3 });
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'div', id: v(35), type: ty(11), a: v(9), b: v(4) }), types, false), { chain: [PtxOp.Sfu], count: 1 });
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'mod', id: v(36), type: ty(11), a: v(4), b: v(8) }), types, false).chain,
    [PtxOp.FpMul, PtxOp.Other, PtxOp.FpMul, PtxOp.FpAdd]);
});

test('a subtraction is fneg then fadd, as nir_opt_algebraic lowers it, unless the subtrahend is a constant', (t) => {
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'sub', id: v(37), type: ty(10), a: v(1), b: v(2) }), types, false), { chain: [PtxOp.Other, PtxOp.FpAdd], count: 6 });
  t.deepEqual(ptxSequenceOf(inst({ op: 'binary', kind: 'sub', id: v(38), type: ty(12), a: v(5), b: v(6) }), types, false), { chain: [PtxOp.IntAdd], count: 1 });
  t.deepEqual(ptxSequenceOf(inst({ op: 'ext', fn: 'cross', id: v(39), type: ty(10), args: [v(1), v(2)] }), types, false), { chain: [PtxOp.FpMul, PtxOp.Other, PtxOp.FpAdd], count: 12 });
});

test('register-promoted moves and composite moves have no PTX counterpart', (t) => {
  t.is(ptxSequenceOf(inst({ op: 'load', id: v(26), type: ty(11), ptr: v(30) }), types, true).count, 0);
  t.is(ptxSequenceOf(inst({ op: 'extract', id: v(27), type: ty(11), value: v(1), indices: [0] }), types, false).count, 0);
  t.is(ptxSequenceOf(inst({ op: 'construct', id: v(28), type: ty(10), parts: [v(4), v(4), v(4)] }), types, false).count, 0);
});

test('a buffer access chain costs one add per index (three for a dynamic one), its descriptor charged where first used; a vec3 load three ld', (t) => {
  const chain = ptxSequenceOf(inst({ op: 'accessChain', id: v(29), type: ty(11), base: v(7), indices: [v(6), v(5)] }), types, false);
  t.is(chain.count, 1 + 3);
  t.deepEqual(chain.chain, [PtxOp.Other, PtxOp.IntAdd, PtxOp.IntMul, PtxOp.IntAdd]);
  t.is(ptxSequenceOf(inst({ op: 'load', id: v(31), type: ty(10), ptr: v(29) }), types, false).count, 3);
  t.is(ptxSequenceOf(inst({ op: 'load', id: v(32), type: ty(11), ptr: v(7) }), types, false).count, 1, 'a load straight from the buffer variable');
});

test('NIR\'s inverse trigonometry is its whole polynomial sequence with its coefficients\' load_consts, and reflect / refract as vtn_glsl450 writes them', (t) => {
  const atan2 = ptxSequenceOf(inst({ op: 'ext', fn: 'atan2', id: v(40), type: ty(11), args: [v(4), v(4)] }), types, false);
  t.is(atan2.count, 53 + 2 * 13, 'nir_atan2: 22 ALU ops around nir_atan\'s 31, and 13 constants');
  t.true(atan2.chain.includes(PtxOp.Sfu));
  t.is(ptxSequenceOf(inst({ op: 'ext', fn: 'asin', id: v(41), type: ty(11), args: [v(4)] }), types, false).count, 30 + 2 * 10);
  t.is(ptxSequenceOf(inst({ op: 'ext', fn: 'reflect', id: v(42), type: ty(10), args: [v(1), v(2)] }), types, false).count, 5 + 1 + 2 + 9);
  t.is(ptxSequenceOf(inst({ op: 'ext', fn: 'refract', id: v(43), type: ty(10), args: [v(1), v(2), v(4)] }), types, false).count, 5 + 7 + 1 + 2 + 12 + 1 + 3 + 4);
});

test('a matrix times a vector is a dot product per row: k muls and k - 1 adds each', (t) => {
  const mv = ptxSequenceOf(inst({ op: 'binary', kind: 'matrixTimesVector', id: v(44), type: ty(10), a: v(4), b: v(1) }), types, false);
  t.is(mv.count, 3 * (2 * 3 - 1));
});

test('a struct is loaded and stored one leaf at a time (nir_lower_var_copies splits the copy; one ld / st per component)', (t) => {
  t.is(ptxSequenceOf(inst({ op: 'load', id: v(47), type: ty(13), ptr: v(29) }), types, false).count, 4);
  t.is(ptxSequenceOf(inst({ op: 'store', id: v(48), type: ty(11), ptr: v(29), value: v(14) }), types, false).count, 4);
  t.is(partialAccessCount(inst({ op: 'store', id: v(48), type: ty(11), ptr: v(29), value: v(14) }) as InstOf<'store'>, types, 3), 3, 'the leaves NIR still stores');
  t.is(partialAccessCount(inst({ op: 'store', id: v(48), type: ty(11), ptr: v(29), value: v(14) }) as InstOf<'store'>, types, 0), 0);
});

test('a payload copy around a shader call has no PTX: Vulkan-Sim\'s shaders use the caller\'s payload in place', (t) => {
  t.is(ptxSequenceOf(inst({ op: 'store', id: v(45), type: ty(11), ptr: v(7), value: v(4), payloadCopy: true }), types, false).count, 0, 'the payload is used in place');
  t.is(ptxSequenceOf(inst({ op: 'load', id: v(46), type: ty(11), ptr: v(7), payloadCopy: true }), types, false).count, 0);
});

test('a sequence\'s PTX instructions by unit class (SP, INT, SFU, DP): per component for element-wise ops, once per off-class op of a reduction', (t) => {
  const add3 = ptxSequenceOf(inst({ op: 'binary', kind: 'add', id: v(40), type: ty(10), a: v(1), b: v(2) }), types, false);
  t.deepEqual(sequenceClassCounts(add3, 3), [3, 0, 0, 0], 'vec3 fadd: three SP instructions');
  const norm = ptxSequenceOf(inst({ op: 'ext', fn: 'normalize', id: v(41), type: ty(10), args: [v(1)] }), types, false);
  t.deepEqual(sequenceClassCounts(norm, 3), [8, 0, 1, 0], 'normalize: one rsqrt on the SFU, the dot and the scale on SP');
  t.deepEqual(sequenceClassCounts({ chain: [PtxOp.Sfu, PtxOp.FpMul, PtxOp.Sfu], count: 9 }, 3), [3, 0, 6, 0], 'vec3 pow: lg2, mul, ex2 per component');
  t.deepEqual(sequenceClassCounts({ chain: [PtxOp.Other, PtxOp.FpMul, PtxOp.FpAdd, PtxOp.Sfu], count: 20 }, 1), [18, 1, 1, 0], 'a scalar polynomial: its mov and rcp once, the rest SP');
  t.deepEqual(sequenceClassCounts({ chain: [PtxOp.Other], count: 0 }, 1), [0, 0, 0, 0]);
});
