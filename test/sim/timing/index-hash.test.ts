import test from 'ava';
import { hashIndex, ipolyHash } from '../../../src/sim/timing/index-hash.js';

test('IPOLY maps every power-of-two stride of lines conflict-free over the sets (its defining property)', (t) => {
  for (const sets of [16, 32, 64]) {
    for (let strideLog2 = 0; strideLog2 < 12; strideLog2++) {
      const used = new Set<number>();
      for (let k = 0; k < sets; k++) used.add(hashIndex('ipoly', k * 2 ** strideLog2 * 128, sets, 7));
      t.is(used.size, sets, `${sets} sets, stride 2^${strideLog2} lines`);
    }
  }
});

test('IPOLY is linear over GF(2): the hash of a XOR b is the XOR of the hashes', (t) => {
  for (const n of [16, 32, 64]) {
    for (let i = 0; i < 200; i++) {
      const a = (i * 2654435761) >>> 13;
      const b = (i * 40503 + 7) >>> 3;
      t.is(ipolyHash(a ^ b, 0, n), ipolyHash(a, 0, n) ^ ipolyHash(b, 0, n));
    }
  }
});

test('linear indexing takes the bits above the line offset', (t) => {
  t.is(hashIndex('linear', 5 * 128 + 3, 64, 7), 5);
  t.is(hashIndex('linear', 70 * 128, 64, 7), 6);
  t.is(hashIndex('linear', 96, 4, 5), 3, 'L1D bank of byte 96 with 32 B interleaving over 4 banks');
});
