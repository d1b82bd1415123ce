import test from 'ava';
import { RAYS_PER_ENTRY, TreeletQueues, treeletTableArea } from '../../../../src/sim/timing/treelets/treelet-queues.js';

const queues = (entries = 128, countEntries = 600) => new TreeletQueues(entries, countEntries, (t) => 0x4000_0000 + t * 8192, 13);

test('rays of one treelet fill 32-id entries; a full entry gets a duplicate entry of the same treelet', (t) => {
  const q = queues();
  for (let r = 0; r < RAYS_PER_ENTRY + 5; r++) q.insert(7, r);
  t.is(q.countOf(7), 37);
  t.is(q.stats.peakEntries, 2, 'a 32-ray entry and a duplicate');
  const out: number[] = [];
  q.take(7, 32, out);
  t.is(out.length, 32);
  t.deepEqual(out.slice(0, 3), [0, 1, 2], 'the full entry goes first, in insertion order');
  t.is(q.countOf(7), 5);
  t.is(q.size, 5);
});

test('largest() picks the fullest queue, ties to the treelet that got rays first', (t) => {
  const q = queues();
  q.insert(3, 0);
  q.insert(5, 1);
  q.insert(5, 2);
  q.insert(3, 3);
  t.is(q.largest(), 3);
  q.insert(5, 4);
  t.is(q.largest(), 5);
  const out: number[] = [];
  q.take(5, 32, out);
  t.deepEqual(out, [1, 2, 4]);
  t.is(q.largest(), 3);
  q.take(3, 32, out);
  t.is(q.largest(), -1);
  t.is(q.size, 0);
});

test('takeAny groups underpopulated queues in count-table order (Sec. 4.4)', (t) => {
  const q = queues();
  for (let r = 0; r < 10; r++) q.insert(r % 5, r);
  const out: number[] = [];
  q.takeAny(7, out);
  t.deepEqual(out, [0, 5, 1, 6, 2, 7, 3], 'oldest treelets first, each queue emptied before the next');
  t.is(q.size, 3);
});

test('colliding treelets chain in one bucket and stay separate', (t) => {
  // 4 buckets: treelets whose addresses fold to the same index share a bucket.
  const q = new TreeletQueues(4, 600, (tl) => tl * 8192, 13);
  const bucket = q.bucketOf(1);
  const same = [2, 3, 4, 5, 6, 7, 8, 9].filter((x) => q.bucketOf(x) === bucket);
  t.true(same.length > 0, 'some treelet collides with treelet 1');
  q.insert(1, 0);
  q.insert(same[0]!, 1);
  t.is(q.countOf(1), 1);
  t.is(q.countOf(same[0]!), 1);
  t.is(q.stats.maxChain, 2);
  const out: number[] = [];
  q.take(same[0]!, 32, out);
  t.deepEqual(out, [1]);
  t.is(q.countOf(1), 1);
});

test('entries past the on-chip table are counted as spills to memory', (t) => {
  const q = queues(2);
  for (let tl = 0; tl < 3; tl++) q.insert(tl, tl);
  t.is(q.stats.entrySpills, 1);
});

test('table area as Sec. 6.5 sizes it: 600 count entries = 2.2 KB, 128 queue entries = 6.29 KB', (t) => {
  const a = treeletTableArea({ countEntries: 600, queueEntries: 128, treeletBytes: 8192, raysPerSm: 4096 });
  t.is(a.treeletAddressBits, 19);
  t.is(a.rayIdBits, 12);
  // 600 x (19 + 12) bits = 2325 B = 2.27 KiB (the paper: 2.2 KB).
  t.is(a.countTableBytes, 2325);
  // (19 + 32 x 12 bits) x 128 = 6448 B = 6.297 KiB (the paper: 6.29 KB).
  t.is(a.queueTableBytes, 6448);
});
