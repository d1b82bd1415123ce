/**
 * The ray hash functions of the intersection predictor (paper 002, Section 4.2, Fig. 6).
 *
 * - Grid Hash: each origin component is quantised to [0, 2^n) over the scene bounding box and
 *   the three are concatenated (3n bits).
 * - Grid Spherical: Grid Hash(origin) xor the quantised direction: theta in [0, 180) and phi in
 *   [0, 360) as integers (degrees), the m most significant of theta's 8 bits and the m + 1 most
 *   significant of phi's 9 bits, concatenated (2m + 1 bits).
 * - Two Point: Grid Hash(origin) xor Grid Hash(o + r * l * d), the estimated target point at
 *   ratio r of l, the largest extent of the scene box (d normalised).
 * The hash has 3n bits (15 for the paper's n = 5); `foldHash` xors its m-bit pieces into a table
 * index gshare-style (Section 4.1).
 */
import type { RayHashParams } from '../../config/predictor-config.js';

/** Scene box as lo xyz, hi xyz. */
export type SceneBox = readonly [number, number, number, number, number, number];

export function hashBits(p: RayHashParams): number {
  return 3 * p.originBits;
}

function quantise(v: number, lo: number, hi: number, cells: number): number {
  const ext = hi - lo;
  if (!(ext > 0)) return 0;
  const q = Math.floor(((v - lo) / ext) * cells);
  return q < 0 ? 0 : q >= cells ? cells - 1 : q;
}

/** Grid Hash block: 3n bits, x highest. */
export function gridHash(x: number, y: number, z: number, box: SceneBox, n: number): number {
  const cells = 1 << n;
  return (quantise(x, box[0], box[3], cells) << (2 * n)) | (quantise(y, box[1], box[4], cells) << n) | quantise(z, box[2], box[5], cells);
}

/** Spherical direction block: 2m + 1 bits (theta's m MSBs above phi's m + 1 MSBs). */
export function sphericalHash(dx: number, dy: number, dz: number, m: number): number {
  const len = Math.hypot(dx, dy, dz);
  if (!(len > 0)) return 0;
  const theta = Math.min(179, Math.floor((Math.acos(Math.max(-1, Math.min(1, dz / len))) * 180) / Math.PI));
  let phiDeg = (Math.atan2(dy, dx) * 180) / Math.PI;
  if (phiDeg < 0) phiDeg += 360;
  const phi = Math.min(359, Math.floor(phiDeg));
  const t = m >= 8 ? theta : theta >> (8 - m);
  const p = m + 1 >= 9 ? phi : phi >> (9 - (m + 1));
  return (t << (m + 1)) | p;
}

export function rayHash(o: readonly number[], d: readonly number[], box: SceneBox, p: RayHashParams): number {
  const n = p.originBits;
  const origin = gridHash(o[0]!, o[1]!, o[2]!, box, n);
  if (p.fn === 'grid-spherical') {
    return (origin ^ sphericalHash(d[0]!, d[1]!, d[2]!, p.directionBits)) & ((1 << (3 * n)) - 1);
  }
  const len = Math.hypot(d[0]!, d[1]!, d[2]!) || 1;
  const l = Math.max(box[3] - box[0], box[4] - box[1], box[5] - box[2]);
  const s = (p.twoPointRatio * l) / len;
  return origin ^ gridHash(o[0]! + s * d[0]!, o[1]! + s * d[1]!, o[2]! + s * d[2]!, box, n);
}

/** Folds a `bits`-bit hash into `indexBits` bits: xor of its ceil(bits / indexBits) pieces. */
export function foldHash(h: number, bits: number, indexBits: number): number {
  if (indexBits <= 0) return 0;
  const mask = (1 << indexBits) - 1;
  let out = 0;
  for (let s = 0; s < bits; s += indexBits) out ^= (h >>> s) & mask;
  return out;
}
