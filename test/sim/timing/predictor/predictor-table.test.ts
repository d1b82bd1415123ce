import test from 'ava';
import { PredictorTable, type PredictorTableParams } from '../../../../src/sim/timing/predictor/predictor-table.js';

const node = (n: number) => ({ accel: 0, node: n, instance: 0 });
const table = (over: Partial<PredictorTableParams> = {}) =>
  new PredictorTable({ entries: 1024, ways: 4, nodesPerEntry: 1, tagBits: 15, hashBits: 15, entryReplacement: 'lru', nodeReplacement: 'lru', ...over });

test('the paper\'s table is 5.5 KB per SM: 1024 x (1 valid + 15 tag + 27 node bits)', (t) => {
  t.is(table().storageBits(), 1024 * 43);
  t.is(table().storageBits() / 8, 5504);
});

test('a lookup finds what an update stored under the same hash, and nothing under another tag', (t) => {
  const p = table();
  t.is(p.lookup(0x1234), undefined);
  p.update(0x1234, node(7));
  t.deepEqual(p.lookup(0x1234)?.map((n) => n.node), [7]);
  t.is(p.lookup(0x1235), undefined);
});

test('one node per entry: a new node replaces the old one', (t) => {
  const p = table();
  p.update(5, node(1));
  p.update(5, node(2));
  t.deepEqual(p.lookup(5)?.map((n) => n.node), [2]);
});

test('direct-mapped: two hashes of one set evict each other; 4-way keeps both', (t) => {
  // 256 sets: fold(h) = low byte xor the bits above, so 0x0001 and 0x0100 share set 1.
  const a = 0x0001, b = 0x0100;
  const dm = table({ ways: 1, entries: 256 });
  dm.update(a, node(1));
  dm.update(b, node(2));
  t.is(dm.lookup(a), undefined);
  t.deepEqual(dm.lookup(b)?.map((n) => n.node), [2]);
  const four = table();
  four.update(a, node(1));
  four.update(b, node(2));
  t.deepEqual(four.lookup(a)?.map((n) => n.node), [1]);
  t.deepEqual(four.lookup(b)?.map((n) => n.node), [2]);
});

/** Five hashes folding to set 0 of a 4-way table (fold = low byte xor high bits). */
const SET0 = [0x0000, 0x0101, 0x0202, 0x0303, 0x0404];

test('LRU evicts the least recently used entry of a full set', (t) => {
  const p = table();
  for (let i = 0; i < 4; i++) p.update(SET0[i]!, node(i));
  p.lookup(SET0[0]!); // 0 is now most recent; 1 is least recent
  p.update(SET0[4]!, node(4));
  t.truthy(p.lookup(SET0[0]!));
  t.is(p.lookup(SET0[1]!), undefined);
  t.truthy(p.lookup(SET0[4]!));
});

test('LFU evicts the least frequently used entry', (t) => {
  const p = table({ entryReplacement: 'lfu' });
  for (let i = 0; i < 4; i++) p.update(SET0[i]!, node(i));
  for (const i of [0, 0, 1, 1, 3, 3]) p.lookup(SET0[i]!); // entry 2 used once
  p.update(SET0[4]!, node(4));
  t.is(p.lookup(SET0[2]!), undefined);
  for (const i of [0, 1, 3, 4]) t.truthy(p.lookup(SET0[i]!), `entry ${i}`);
});

test('LRU-K (K = 2) evicts an entry used only once before any used twice, even a more recent one', (t) => {
  const p = table({ entryReplacement: 'lru-k' });
  for (let i = 0; i < 4; i++) p.update(SET0[i]!, node(i));
  for (const i of [0, 1, 2]) p.lookup(SET0[i]!); // 3 has a single use and is the newest insert
  p.update(SET0[4]!, node(4));
  t.is(p.lookup(SET0[3]!), undefined);
});

test('several nodes per entry are kept up to the limit, then replaced by the node policy', (t) => {
  const p = table({ nodesPerEntry: 2 });
  p.update(9, node(1));
  p.update(9, node(2));
  t.deepEqual(p.lookup(9)?.map((n) => n.node).sort(), [1, 2]);
  p.update(9, node(1)); // 1 is now the most recent
  p.update(9, node(3));
  t.deepEqual(p.lookup(9)?.map((n) => n.node).sort(), [1, 3]);
  t.is([...p.nodes()].length, 2);
});
