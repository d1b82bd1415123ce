/**
 * workloads/common/normal-encoding.glsl: octahedral unit normals stored as two f16 halves
 * (packHalf2x16). The round trip loses precision on purpose — the ao workload's occlusion rays
 * start from the decoded normal, so the reference must decode the same f16 values.
 * f32 -> f16 rounds to nearest, ties to even (IEEE, what packHalf2x16 does on GPUs).
 */
import { fr, normalize, type Vec3 } from './f32-vector.js';

/** Nearest f16 value of x, returned as a number (not the bit pattern). */
export function roundToHalf(x: number): number {
  if (x !== x || x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  if (a >= 65520) return x > 0 ? Infinity : -Infinity; // beyond the largest half after rounding
  // Spacing of f16 values around a: 2^(e-10) for normals, 2^-24 for subnormals.
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  let ulp = 2 ** (e - 10);
  // log2 can be off by one near powers of two; fix the exponent so that 2^e <= a < 2^(e+1).
  if (a < 2 ** e && e > -14) ulp /= 2;
  else if (a >= 2 ** (e + 1)) ulp *= 2;
  const q = a / ulp;
  let r = Math.round(q);
  if (q - Math.floor(q) === 0.5 && r % 2 !== 0) r -= 1; // ties to even
  return Math.sign(x) * r * ulp;
}

function signNotZero(v: number): number {
  return v >= 0 ? 1 : -1;
}

/** Encode then decode: the normal a payload carries through packHalf2x16 / unpackHalf2x16. */
export function encodeDecodeNormal(n: Vec3): Vec3 {
  const inv = fr(1 / fr(fr(Math.abs(n[0]) + Math.abs(n[1])) + Math.abs(n[2])));
  let px = fr(n[0] * inv);
  let py = fr(n[1] * inv);
  if (n[2] <= 0) {
    const qx = fr(fr(1 - Math.abs(py)) * signNotZero(px));
    const qy = fr(fr(1 - Math.abs(px)) * signNotZero(py));
    px = qx;
    py = qy;
  }
  const ex = roundToHalf(px);
  const ey = roundToHalf(py);
  let vx = ex;
  let vy = ey;
  const vz = fr(fr(1 - Math.abs(ex)) - Math.abs(ey));
  if (vz < 0) {
    vx = fr(fr(1 - Math.abs(ey)) * signNotZero(ex));
    vy = fr(fr(1 - Math.abs(ex)) * signNotZero(ey));
  }
  return normalize([vx, vy, vz]);
}
