// The RNG port: 32-bit wrap-around arithmetic and the published TEA / PCG constants.
import test from 'ava';
import { initRandom, pcgNext, rnd, rndFast, tea } from '../../../src/sim/reference-tracer/random.js';
import { roundToHalf } from '../../../src/sim/reference-tracer/normal-encoding.js';

/** The same TEA with BigInt arithmetic masked to 32 bits: an independent check of the wrap-around. */
function teaBig(a: number, b: number): number {
  const M = 0xffffffffn;
  let v0 = BigInt(a), v1 = BigInt(b), s0 = 0n;
  for (let n = 0; n < 16; n++) {
    s0 = (s0 + 0x9e3779b9n) & M;
    v0 = (v0 + ((((v1 << 4n) & M) + 0xa341316cn) & M ^ ((v1 + s0) & M) ^ (((v1 >> 5n) + 0xc8013ea4n) & M))) & M;
    v1 = (v1 + ((((v0 << 4n) & M) + 0xad90777dn) & M ^ ((v0 + s0) & M) ^ (((v0 >> 5n) + 0x7e95761en) & M))) & M;
  }
  return Number(v0);
}

test('tea agrees with a BigInt evaluation masked to 32 bits', (t) => {
  for (const [a, b] of [[0, 0], [1, 2], [0xffffffff, 0x9e3779b9], [123456, 987654321]] as const) t.is(tea(a, b), teaBig(a, b));
});

test('pcgNext keeps the state a uint32 and rnd stays in [0, 1)', (t) => {
  const r = initRandom(3, 5, 64, 1, 7);
  for (let i = 0; i < 1000; i++) {
    const w = pcgNext(r);
    t.true(Number.isInteger(r.state) && r.state >= 0 && r.state <= 0xffffffff);
    t.true(w >= 0 && w <= 0xffffffff);
    const x = rnd(r);
    const y = rndFast(r);
    if (!(x >= 0 && x < 1 && y >= 0 && y < 1)) t.fail(`out of range ${x} ${y}`);
  }
});

test('different pixels and samples start different streams', (t) => {
  t.not(initRandom(0, 0, 32, 0, 0).state, initRandom(1, 0, 32, 0, 0).state);
  t.not(initRandom(0, 0, 32, 0, 0).state, initRandom(0, 0, 32, 1, 0).state);
});

test('roundToHalf rounds to the nearest f16, ties to even', (t) => {
  t.is(roundToHalf(1), 1);
  t.is(roundToHalf(1 + 2 ** -11), 1); // tie between 1 and 1 + 2^-10: even mantissa wins
  t.is(roundToHalf(1 + 3 * 2 ** -11), 1 + 2 * 2 ** -10);
  t.is(roundToHalf(-0.333333), -0.333251953125);
  t.is(roundToHalf(2 ** -24), 2 ** -24);
});
