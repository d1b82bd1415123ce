import test from 'ava';
import { DramCredits } from '../../../src/sim/timing/dram-credits.js';

test('each sub-partition keeps a private credit; the shared pool is the scheduler plus return queues less one per other sub-partition', (t) => {
  const c = new DramCredits(2, 2, 1); // shared limit 2 + 1 - 1 = 2
  c.borrow(0); // private
  c.borrow(0); // shared 1
  c.borrow(0); // shared 2
  t.false(c.has(0), 'sub-partition 0 used its private credit and the shared pool is empty');
  t.true(c.has(1), 'sub-partition 1 still has its private credit');
  c.borrow(1);
  t.false(c.has(1));
  c.giveBack(0); // back to 0's private credit first
  t.true(c.has(0));
  t.false(c.has(1), 'the shared pool is still empty');
});

test('an unlimited return queue (0) or scheduler queue (0) means an unlimited shared pool (GPGPU-Sim arbitration_metadata)', (t) => {
  const c = new DramCredits(2, 64, 0);
  for (let i = 0; i < 1000; i++) c.borrow(0);
  t.true(c.has(0));
});

test('the round robin starts after the last borrower', (t) => {
  const c = new DramCredits(3, 64, 192);
  t.is(c.lastBorrower, 2);
  c.borrow(1);
  t.is(c.lastBorrower, 1);
});
