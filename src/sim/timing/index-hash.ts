/**
 * The index hash functions of GPGPU-Sim (hashing.cc, gpu-cache.cc `hash_function`), used for cache
 * set indexing (the `<set index>` letter of a cache string), L1D bank selection, memory-partition
 * indexing and DRAM bank indexing.
 *
 * IPOLY (Rau, "Pseudo-randomly interleaved memory", ISCA 1991) takes the index as the line
 * address modulo an irreducible polynomial over GF(2): the low bits are the index and each higher
 * address bit i adds x^(d+i) mod P(x), d = log2(sets). GPGPU-Sim writes the resulting XOR
 * equations out for 16, 32 and 64 sets, over the first 13, 15 and 19 higher bits, with
 * P = x^4+x+1, x^5+x^2+1 and x^6+x+1; the residues below are computed from those polynomials.
 *
 * Invariant: every function returns a value below its set / bank count.
 */
import { ConfigError } from '../config/config-error.js';

/** Per set count: the polynomial (bit i = coefficient of x^i) and how many higher bits the hash uses. */
const IPOLY: ReadonlyMap<number, { poly: number; higherBits: number }> = new Map([
  [16, { poly: 0b10011, higherBits: 13 }],
  [32, { poly: 0b100101, higherBits: 15 }],
  [64, { poly: 0b1000011, higherBits: 19 }],
]);

/** RESIDUES[log2 n][i] = x^(log2 n + i) mod P_n (an array by log2 n: this runs for every L2 fill and L1D bank choice). */
const RESIDUES: (Int32Array | undefined)[] = [];
for (const [n, { poly, higherBits }] of IPOLY) {
  const d = Math.log2(n);
  const r = new Int32Array(higherBits);
  let v = 1 << d; // x^d, reduced below
  for (let i = 0; i < higherBits; i++) {
    if (v & (1 << d)) v ^= poly;
    r[i] = v;
    v <<= 1;
  }
  RESIDUES[d] = r;
}

/** 2 ** k for every exponent hashIndex divides by. */
const POW2 = Array.from({ length: 64 }, (_, k) => 2 ** k);

export function ipolyHash(higher: number, index: number, n: number): number {
  const r = (n & (n - 1)) === 0 ? RESIDUES[31 - Math.clz32(n)] : undefined;
  if (r === undefined) throw new ConfigError(`IPOLY hashing is defined for 16, 32 or 64 sets / banks / partitions, not ${n}`, 'index hash');
  let out = index & (n - 1);
  const lo = higher >>> 0;
  for (let i = 0; i < r.length; i++) if ((lo >>> i) & 1) out ^= r[i]!;
  return out;
}

export function bitwiseHash(higher: number, index: number, n: number): number {
  return (index ^ (higher & (n - 1))) % n;
}

/** Set-index functions of a GPGPU-Sim cache string: L linear, P IPOLY, H Fermi hash, X bitwise XOR. */
export type SetIndexFunction = 'linear' | 'ipoly' | 'fermi' | 'xor';

/**
 * GPGPU-Sim cache_config::hash_function: the set (or bank) of `addr` among `sets`, where
 * `unitLog2` is log2 of the line size (sets) or of the interleaving (banks).
 */
export function hashIndex(fn: SetIndexFunction, addr: number, sets: number, unitLog2: number): number {
  if (sets === 1) return 0;
  const unit = Math.floor(addr / POW2[unitLog2]!);
  const index = unit % sets;
  switch (fn) {
    case 'linear':
      return index;
    case 'ipoly':
      return ipolyHash(Math.floor(unit / sets), index, sets);
    case 'xor':
      return bitwiseHash(Math.floor(unit / sets), index, sets);
    case 'fermi': {
      // Nugteren et al., HPCA 2014: bits 7-11 XOR bits 13, 14, 15, 17, 19 (32 or 64 sets; 64 adds bit 12).
      const lo = addr >>> 0;
      const lower = (lo >>> unitLog2) & 0x1f;
      const upper = ((lo & 0xe000) >>> 13) | ((lo & 0x20000) >>> 14) | ((lo & 0x80000) >>> 15);
      let s = lower ^ upper;
      if (sets === 64) s |= (lo & 0x1000) >>> 7;
      return s % sets;
    }
  }
}
