import test from 'ava';
import { RegisterTable } from '../../../src/sim/timing/register-table.js';
import { packStepDeps } from '../../../src/sim/step-deps-layout.js';

// Instruction 0 writes key 5 (and promoted variable key 2^30 + 3); instruction 1 reads key 5; instruction 2 reads key 9.
const inst = (xsrc: number[], wkeys: number[]) => ({ ptx: 0, count: 1, dst: -1, deps: [], chain: [], regs: [], xsrc, wkeys });
const deps = packStepDeps([inst([], [5, 2 ** 30 + 3]), inst([5], []), inst([9], [])]);

test('a later step reads a register written back at its cycle; a load until it settles; per slot; cleared for a new warp', (t) => {
  const r = new RegisterTable(2);
  r.written(0, deps, 0, 40);
  t.is(r.readyAt(0, deps, 1), 40);
  t.is(r.readyAt(0, deps, 2), 0, 'a key nobody wrote is ready');
  t.is(r.readyAt(1, deps, 1), 0, 'slots are independent');
  r.written(0, deps, 0, Infinity);
  t.is(r.readyAt(0, deps, 1), Infinity, 'a load not yet back');
  r.settle(0, deps, 0, 77);
  t.is(r.readyAt(0, deps, 1), 77);
  r.settle(0, deps, 0, 99);
  t.is(r.readyAt(0, deps, 1), 77, 'a settled or rewritten value is not moved again');
  r.clear(0);
  t.is(r.readyAt(0, deps, 1), 0);
});

test('a block\'s phi movs write their keys at their own time, apart from what its first instruction writes', (t) => {
  const d = packStepDeps([{ ptx: 0, count: 3, dst: -1, deps: [], chain: [], regs: [], xsrc: [2 ** 30 + 3], wkeys: [5], phiKeys: [2 ** 30 + 3, 50] }, inst([2 ** 30 + 3, 50], [])]);
  const r = new RegisterTable(1);
  r.written(0, d, 0, Infinity);
  r.phisWritten(0, d, 0, 12);
  t.is(r.readyAt(0, d, 1), 12, 'the phis\' values are back a mov\'s latency after issue, though the instruction itself is a load still out');
  r.settle(0, d, 0, 90);
  t.is(r.readyAt(0, d, 1), 12, 'its load settling does not move them');
});
