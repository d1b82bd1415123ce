/**
 * Direction sampling of workloads/common/sampling.glsl in f32: Duff et al.'s orthonormal basis,
 * cosine-weighted hemisphere, Hammersley points with a Cranley-Patterson shift. The constants are
 * the f32 values the shader's float literals become.
 */
import { add, fr, normalize, scale, type Vec3 } from './f32-vector.js';

const PI = fr(3.14159265358979323846);
const TWO_PI = fr(2 * PI);
const INV_2_POW_32 = fr(2.3283064365386963e-10);

export function createCoordinateSystem(n: Vec3): [Vec3, Vec3] {
  const s = n[2] >= 0 ? 1 : -1;
  const a = fr(-1 / fr(s + n[2]));
  const b = fr(fr(n[0] * n[1]) * a);
  const tangent: Vec3 = [fr(1 + fr(fr(fr(s * n[0]) * n[0]) * a)), fr(s * b), fr(-s * n[0])];
  const bitangent: Vec3 = [b, fr(s + fr(fr(n[1] * n[1]) * a)), -n[1]];
  return [tangent, bitangent];
}

/** Cosine-weighted direction around +Z. */
export function sampleHemisphereLocal(u: [number, number]): Vec3 {
  const r = fr(Math.sqrt(u[0]));
  const phi = fr(TWO_PI * u[1]);
  return [fr(r * fr(Math.cos(phi))), fr(r * fr(Math.sin(phi))), fr(Math.sqrt(Math.max(0, fr(1 - u[0]))))];
}

/** Cosine-weighted direction around the unit normal n. */
export function sampleHemisphere(u: [number, number], n: Vec3): Vec3 {
  const [t, b] = createCoordinateSystem(n);
  const l = sampleHemisphereLocal(u);
  return normalize(add(add(scale(t, l[0]), scale(b, l[1])), scale(n, l[2])));
}

export function bitfieldReverse(i: number): number {
  let x = i >>> 0;
  let r = 0;
  for (let k = 0; k < 32; k++) {
    r = ((r << 1) | (x & 1)) >>> 0;
    x >>>= 1;
  }
  return r;
}

export function radicalInverse(i: number): number {
  return fr(fr(bitfieldReverse(i)) * INV_2_POW_32);
}

function fract(x: number): number {
  return fr(x - Math.floor(x));
}

export function hammersley(i: number, n: number, shift: [number, number]): [number, number] {
  const u0 = fr(fr(i) / fr(n));
  const u1 = radicalInverse(i);
  return [fract(fr(u0 + shift[0])), fract(fr(u1 + shift[1]))];
}
