import test from 'ava';
import { foldHash, gridHash, hashBits, rayHash, sphericalHash, type SceneBox } from '../../../../src/sim/timing/predictor/ray-hash.js';

const BOX: SceneBox = [0, 0, 0, 8, 8, 8];
const PAPER = { fn: 'grid-spherical' as const, originBits: 5, directionBits: 3, twoPointRatio: 0.15 };

test('Grid Hash quantises each axis to 2^n cells of the scene box, x highest, clamped at the faces', (t) => {
  t.is(gridHash(0, 0, 0, BOX, 3), 0);
  t.is(gridHash(8, 8, 8, BOX, 3), 0b111_111_111);
  t.is(gridHash(1.5, 0, 0, BOX, 3), 1 << 6);
  t.is(gridHash(0, 2.5, 7.9, BOX, 3), (2 << 3) | 7);
  t.is(gridHash(-5, 100, 4, BOX, 3), (0 << 6) | (7 << 3) | 4);
});

test('spherical direction: m MSBs of integer theta (8 bits), m + 1 of integer phi (9 bits)', (t) => {
  // +z: theta 0, phi 0.
  t.is(sphericalHash(0, 0, 1, 3), 0);
  // -z: theta 179 -> 179 >> 5 = 5; phi 0.
  t.is(sphericalHash(0, 0, -1, 3), 5 << 4);
  // +y: theta 90 -> 90 >> 5 = 2; phi 90 -> 90 >> 5 = 2.
  t.is(sphericalHash(0, 1, 0, 3), (2 << 4) | 2);
  // -x: theta 90 -> 2; phi 180 -> 180 >> 5 = 5.
  t.is(sphericalHash(-1, 0, 0, 3), (2 << 4) | 5);
  // Length does not matter.
  t.is(sphericalHash(0, 7, 0, 3), sphericalHash(0, 1, 0, 3));
});

test('the paper\'s hash is 15 bits: origin (3 x 5) xor direction (7)', (t) => {
  t.is(hashBits(PAPER), 15);
  const o = [3, 5, 1], d = [0, 1, 0];
  t.is(rayHash(o, d, BOX, PAPER), gridHash(3, 5, 1, BOX, 5) ^ sphericalHash(0, 1, 0, 3));
  for (let i = 0; i < 200; i++) {
    const h = rayHash([Math.random() * 8, Math.random() * 8, Math.random() * 8], [Math.random() - 0.5, Math.random() - 0.5, Math.random() - 0.5], BOX, PAPER);
    t.true(h >= 0 && h < 1 << 15);
  }
});

test('Two Point xors the origin cell with the cell of o + r l d', (t) => {
  const p = { ...PAPER, fn: 'two-point' as const, twoPointRatio: 0.25 };
  // l = 8, r = 0.25: the target is 2 units along +x.
  t.is(rayHash([1, 1, 1], [1, 0, 0], BOX, p), gridHash(1, 1, 1, BOX, 5) ^ gridHash(3, 1, 1, BOX, 5));
  t.is(rayHash([1, 1, 1], [5, 0, 0], BOX, p), rayHash([1, 1, 1], [1, 0, 0], BOX, p), 'direction is normalised');
});

test('folding xors the index-wide pieces of the hash (gshare)', (t) => {
  t.is(foldHash(0b101_0110_1100_0011, 15, 8), (0b1100_0011 ^ 0b101_0110) & 0xff);
  t.is(foldHash(0x7fff, 15, 15), 0x7fff);
  t.is(foldHash(12345, 15, 0), 0);
});
