import test from 'ava';
import { type L1PipelineAccess, L1LatencyQueue } from '../../../src/sim/timing/l1-latency-queue.js';
import { ReqKind } from '../../../src/sim/timing/mem-request.js';

const access = (addr: number): L1PipelineAccess => ({ addr, bytes: 32, words: 0xff, kind: ReqKind.Load, waiter: null, local: false });

test('an access looks up the L1D gpgpu_l1_latency cycles after it enters', (t) => {
  const q = new L1LatencyQueue(1, 20);
  q.enter(0, access(1), 100);
  const seen: number[] = [];
  for (let c = 101; c <= 125; c++) q.cycle(c, (a, now) => (seen.push(now), true));
  t.deepEqual(seen, [120]);
  t.is(q.length, 0);
});

test('one access per bank per cycle enters, and each bank looks up one access per cycle', (t) => {
  const q = new L1LatencyQueue(2, 3);
  t.true(q.canEnter(0, 0));
  q.enter(0, access(1), 0);
  t.false(q.canEnter(0, 0), 'the last stage is taken this cycle');
  t.true(q.canEnter(1, 0));
  q.enter(1, access(2), 0);
  q.enter(0, access(3), 1);
  const seen: [number, number][] = [];
  for (let c = 1; c <= 6; c++) q.cycle(c, (a, now) => (seen.push([a.addr, now]), true));
  t.deepEqual(seen, [[1, 3], [2, 3], [3, 4]]);
});

test('a refused access stays at stage 0; the accesses behind close up and leave one per cycle after it', (t) => {
  const L = 4;
  const q = new L1LatencyQueue(1, L);
  for (let c = 0; c < 3; c++) q.enter(0, access(c), c);
  let refuseUntil = 10;
  const seen: [number, number][] = [];
  for (let c = 1; c <= 20; c++) {
    q.cycle(c, (a, now) => {
      if (now < refuseUntil) return false;
      seen.push([a.addr, now]);
      return true;
    });
    if (c === 5) {
      t.true(q.canEnter(0, c), 'three entries in four stages: the last stage is free');
      q.enter(0, access(3), c);
    }
    if (c === 6) t.false(q.canEnter(0, c), 'the pipeline is full behind the refused head');
  }
  refuseUntil = 0;
  t.deepEqual(seen, [[0, 10], [1, 11], [2, 12], [3, 13]]);
});
