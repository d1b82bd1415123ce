/**
 * workloads/common/offset-ray.glsl (Wächter and Binder, Ray Tracing Gems ch. 6) in TypeScript:
 * move a hit point off its surface by integer ULPs of the position, or by a small float step near
 * the origin. Bit reinterpretation goes through a shared Float32Array / Int32Array pair.
 */
import { fr, type Vec3 } from './f32-vector.js';

const ORIGIN = fr(1 / 32);
const FLOAT_SCALE = fr(1 / 65536);
const INT_SCALE = 256;

const f = new Float32Array(1);
const i = new Int32Array(f.buffer);

function floatBitsToInt(x: number): number {
  f[0] = x;
  return i[0]!;
}

function intBitsToFloat(x: number): number {
  i[0] = x | 0;
  return f[0]!;
}

/** GLSL int(x): truncate toward zero, saturating (the GPU's cvt.rzi.sat). */
function toInt(x: number): number {
  if (x !== x) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(x))) | 0;
}

function offsetComponent(p: number, n: number): number {
  if (Math.abs(p) < ORIGIN) return fr(FLOAT_SCALE * n + p); // fma: one rounding
  const of = toInt(fr(INT_SCALE * n));
  return intBitsToFloat(floatBitsToInt(p) + (p < 0 ? -of : of));
}

export function offsetRay(p: Vec3, n: Vec3): Vec3 {
  return [offsetComponent(p[0], n[0]), offsetComponent(p[1], n[1]), offsetComponent(p[2], n[2])];
}
