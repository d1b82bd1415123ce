import test from 'ava';
import { TRANSACTION_KIND, TransactionRecord } from '../../../src/sim/rt/transaction-record.js';

test('appends in order, grows past its capacity, converts to the warp-step contract', (t) => {
  const rec = new TransactionRecord(2);
  for (let i = 0; i < 100; i++) rec.push(64 * i, i % 2 ? 128 : 64, i % 2 ? TRANSACTION_KIND.instanceLeaf : TRANSACTION_KIND.internal, i % 7);
  t.is(rec.count, 100);
  t.is(rec.addresses[99], 64 * 99);
  t.is(rec.ops[13], 6);
  const tx = rec.toRtTransactions();
  t.deepEqual(tx[0], { address: 0, size: 64, kind: 'internal' });
  t.deepEqual(tx[1], { address: 64, size: 128, kind: 'instanceLeaf' });
  rec.boxTests = 5;
  const work = rec.toLaneWork(7);
  t.is(work.lane, 7);
  t.is(work.boxTests, 5);
  t.is(work.transactions.length, 100);
  rec.clear();
  t.is(rec.count, 0);
  t.is(rec.boxTests, 0);
  t.deepEqual(rec.toRtTransactions(), []);
});
