import test from 'ava';
import { L1LatencyQueue } from '../../../src/sim/timing/l1-latency-queue.js';
import { ReqKind } from '../../../src/sim/timing/mem-request.js';

/** A 32-byte load at `addr` enters `bank`. */
const enter = (q: L1LatencyQueue, bank: number, addr: number, now: number): void => q.enter(bank, addr, 32, 0xff, ReqKind.Load, 0, false, now);

test('an access looks up the L1D gpgpu_l1_latency cycles after it enters', (t) => {
  const q = new L1LatencyQueue(1, 20);
  enter(q, 0, 1, 100);
  const seen: number[] = [];
  for (let c = 101; c <= 125; c++) q.cycle(c, (_addr, _bytes, _words, _kind, _slot, _local, now) => (seen.push(now), true));
  t.deepEqual(seen, [120]);
  t.is(q.length, 0);
});

test('one access per bank per cycle enters, and each bank looks up one access per cycle', (t) => {
  const q = new L1LatencyQueue(2, 3);
  t.true(q.canEnter(0, 0));
  enter(q, 0, 1, 0);
  t.false(q.canEnter(0, 0), 'the last stage is taken this cycle');
  t.true(q.canEnter(1, 0));
  enter(q, 1, 2, 0);
  enter(q, 0, 3, 1);
  const seen: [number, number][] = [];
  for (let c = 1; c <= 6; c++) q.cycle(c, (addr, _bytes, _words, _kind, _slot, _local, now) => (seen.push([addr, now]), true));
  t.deepEqual(seen, [[1, 3], [2, 3], [3, 4]]);
});

test('a refused access stays at stage 0; the accesses behind close up and leave one per cycle after it', (t) => {
  const L = 4;
  const q = new L1LatencyQueue(1, L);
  for (let c = 0; c < 3; c++) enter(q, 0, c, c);
  let refuseUntil = 10;
  const seen: [number, number][] = [];
  for (let c = 1; c <= 20; c++) {
    q.cycle(c, (addr, _bytes, _words, _kind, _slot, _local, now) => {
      if (now < refuseUntil) return false;
      seen.push([addr, now]);
      return true;
    });
    if (c === 5) {
      t.true(q.canEnter(0, c), 'three entries in four stages: the last stage is free');
      enter(q, 0, 3, c);
    }
    if (c === 6) t.false(q.canEnter(0, c), 'the pipeline is full behind the refused head');
  }
  refuseUntil = 0;
  t.deepEqual(seen, [[0, 10], [1, 11], [2, 12], [3, 13]]);
});
