import test from 'ava';
import type { Inst, ValueId } from '../../../src/ir/inst.js';
import type { TypeId } from '../../../src/ir/types.js';
import type { OperandTypes } from '../../../src/sim/functional/ptx-ops-of.js';
import { stepDeps } from '../../../src/sim/functional/step-deps.js';
import { DepField, extraOpsOf } from '../../../src/sim/step-deps-layout.js';

const v = (n: number): ValueId => n as unknown as ValueId;
const ty = (n: number): TypeId => n as unknown as TypeId;
// Values 1..2: vec3 floats (type 10), defined before the piece.
const types: OperandTypes = {
  scalar: () => 'f32',
  components: () => 3,
  componentsOfType: () => 3,
  leavesOfType: () => 3,
  leaves: () => 3,
  columnsOfType: () => 1,
  isConstant: () => false,
  isConstantOne: () => false,
  rootKind: () => undefined,
};
const add = { op: 'binary', kind: 'add', id: v(20), type: ty(10), a: v(1), b: v(2) } as unknown as Inst;
const list = (d: Int32Array, from: DepField, to: DepField): number[] => Array.from(d.subarray(d[d[0]! + from]!, d[d[0]! + to]!));

test('a block\'s phi movs: its first instruction reads their sources and they write the phis\' keys (translate_phi)', (t) => {
  const d = stepDeps([add], types, () => true, () => -1, 3, undefined, { variables: [7], phis: [{ id: v(50), incoming: [v(40), v(41)] }] });
  t.is(d[d[0]! + DepField.Count], 3 + 3, 'the vec3 add and the three movs');
  t.deepEqual(list(d, DepField.XSrc, DepField.WKeys).sort(), [1, 2, 2 ** 30 + 7, 40, 41].sort(), 'its own operands and every phi source');
  t.deepEqual(list(d, DepField.PhiKeys, DepField.End).sort(), [2 ** 30 + 7, 50].sort(), 'the promoted variable and the IR phi');
  t.deepEqual(list(d, DepField.WKeys, DepField.PhiKeys), [20], 'what the add itself writes stays apart');
  // Further instructions: the add's two other components (SP) and the three movs (INT).
  t.deepEqual([0, 1, 2, 3].map((c) => extraOpsOf(d[d[0]! + DepField.Extra]!, c)), [2, 3, 0, 0]);
});

test('without phis the first instruction reads only its own operands and writes no phi keys', (t) => {
  const d = stepDeps([add], types, () => true, () => -1, 0);
  t.deepEqual(list(d, DepField.XSrc, DepField.WKeys).sort(), [1, 2]);
  t.deepEqual(list(d, DepField.PhiKeys, DepField.End), []);
});
