import test from 'ava';
import { DepField, extraOpsOf, packExtraOps, packStepDeps } from '../../src/sim/step-deps-layout.js';

test('each instruction\'s record holds its fields and its lists, each list ending where the next starts', (t) => {
  const d = packStepDeps([
    { ptx: 3, count: 2, dst: 17, deps: [], chain: [5, 6], regs: [4, 9], xsrc: [4], wkeys: [17, 2 ** 30 + 1] },
    { ptx: 1, count: 300, dst: -1, deps: [0], chain: [], regs: [17], xsrc: [], wkeys: [] },
  ]);
  const list = (i: number, from: DepField, to: DepField): number[] => Array.from(d.subarray(d[d[i]! + from]!, d[d[i]! + to]!));
  t.is(d[d[0]! + DepField.Ptx], 3);
  t.is(d[d[0]! + DepField.Count], 2);
  t.is(d[d[0]! + DepField.Dst], 17);
  t.deepEqual(list(0, DepField.Deps, DepField.Chain), []);
  t.deepEqual(list(0, DepField.Chain, DepField.Regs), [5, 6]);
  t.deepEqual(list(0, DepField.Regs, DepField.XSrc), [4, 9]);
  t.deepEqual(list(0, DepField.XSrc, DepField.WKeys), [4]);
  t.deepEqual(list(0, DepField.WKeys, DepField.End), [17, 2 ** 30 + 1]);
  t.is(d[d[1]! + DepField.Count], 255, 'the PTX count is clamped to 255');
  t.is(d[d[1]! + DepField.Dst], -1);
  t.deepEqual(list(1, DepField.Deps, DepField.Chain), [0]);
  t.deepEqual(list(1, DepField.Regs, DepField.XSrc), [17]);
  t.is(d[d[1]! + DepField.End], d.length, 'the last record ends the table');
});

test('the further PTX instructions by unit class pack into one word, each class clamped to 255', (t) => {
  const w = packExtraOps([3, 300, 0, 7]);
  t.deepEqual([0, 1, 2, 3].map((c) => extraOpsOf(w, c)), [3, 255, 0, 7]);
  const d = packStepDeps([{ ptx: 0, count: 9, dst: -1, deps: [], chain: [], regs: [], xsrc: [], wkeys: [], extra: [5, 2, 1, 0] }]);
  t.deepEqual([0, 1, 2, 3].map((c) => extraOpsOf(d[d[0]! + DepField.Extra]!, c)), [5, 2, 1, 0]);
  const none = packStepDeps([{ ptx: 0, count: 1, dst: -1, deps: [], chain: [], regs: [], xsrc: [], wkeys: [] }]);
  t.is(none[none[0]! + DepField.Extra], 0, 'absent: none');
});
