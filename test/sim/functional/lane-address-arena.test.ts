import test from 'ava';
import { LaneAddressArena } from '../../../src/sim/functional/lane-address-arena.js';

test('each array has 32 zeroed lanes and overlaps no other, across buffers', (t) => {
  const arena = new LaneAddressArena();
  const arrays = Array.from({ length: 40 }, () => arena.take());
  for (const a of arrays) {
    t.is(a.length, 32);
    t.true(a.every((x) => x === 0));
  }
  arrays.forEach((a, k) => a.fill(k + 1));
  arrays.forEach((a, k) => t.true(a.every((x) => x === k + 1), `array ${k} kept its own values`));
});

test('a buffer is never handed out twice, so arrays still referenced stay intact', (t) => {
  const arena = new LaneAddressArena();
  const first = arena.take();
  first[31] = 7;
  for (let k = 0; k < 100; k++) arena.take().fill(-1);
  t.is(first[31], 7);
  t.is(first[0], 0);
});
