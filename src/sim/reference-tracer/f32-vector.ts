/**
 * Single-precision vector arithmetic for the reference tracer: each operation rounds its result
 * to f32, the way a GPU (and the functional simulator) evaluates GLSL `float` / `vec3`
 * expressions. Sums inside dot / length run left to right, one rounding per product and per
 * addition, because a different order would change the low bits the RNG-driven paths branch on.
 *
 * Vectors are plain 3-tuples; nothing here keeps state.
 */
export type Vec3 = [number, number, number];

export const fr = Math.fround;

export function vec3(x: number, y: number, z: number): Vec3 {
  return [fr(x), fr(y), fr(z)];
}

export function add(a: Vec3, b: Vec3): Vec3 {
  return [fr(a[0] + b[0]), fr(a[1] + b[1]), fr(a[2] + b[2])];
}

export function sub(a: Vec3, b: Vec3): Vec3 {
  return [fr(a[0] - b[0]), fr(a[1] - b[1]), fr(a[2] - b[2])];
}

export function mul(a: Vec3, b: Vec3): Vec3 {
  return [fr(a[0] * b[0]), fr(a[1] * b[1]), fr(a[2] * b[2])];
}

export function scale(a: Vec3, s: number): Vec3 {
  return [fr(a[0] * s), fr(a[1] * s), fr(a[2] * s)];
}

export function divScalar(a: Vec3, s: number): Vec3 {
  return [fr(a[0] / s), fr(a[1] / s), fr(a[2] / s)];
}

export function neg(a: Vec3): Vec3 {
  return [-a[0], -a[1], -a[2]];
}

export function dot(a: Vec3, b: Vec3): number {
  return fr(fr(fr(a[0] * b[0]) + fr(a[1] * b[1])) + fr(a[2] * b[2]));
}

export function length(a: Vec3): number {
  return fr(Math.sqrt(dot(a, a)));
}

export function normalize(a: Vec3): Vec3 {
  return divScalar(a, length(a));
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [
    fr(fr(a[1] * b[2]) - fr(b[1] * a[2])),
    fr(fr(a[2] * b[0]) - fr(b[2] * a[0])),
    fr(fr(a[0] * b[1]) - fr(b[0] * a[1])),
  ];
}

/** GLSL mix(a, b, t) = a * (1 - t) + b * t. */
export function mixScalar(a: number, b: number, t: number): number {
  return fr(fr(a * fr(1 - t)) + fr(b * t));
}

export function mix(a: Vec3, b: Vec3, t: number): Vec3 {
  return [mixScalar(a[0], b[0], t), mixScalar(a[1], b[1], t), mixScalar(a[2], b[2], t)];
}

/** GLSL faceforward(n, i, nref): n when dot(nref, i) < 0, else -n. */
export function faceforward(n: Vec3, i: Vec3, nref: Vec3): Vec3 {
  return dot(nref, i) < 0 ? n : neg(n);
}

/** GLSL reflect(i, n) = i - 2 dot(n, i) n. */
export function reflect(i: Vec3, n: Vec3): Vec3 {
  const d = fr(2 * dot(n, i));
  return [fr(i[0] - fr(d * n[0])), fr(i[1] - fr(d * n[1])), fr(i[2] - fr(d * n[2]))];
}

/** GLSL refract(i, n, eta): zero vector on total internal reflection. */
export function refract(i: Vec3, n: Vec3, eta: number): Vec3 {
  const d = dot(n, i);
  const k = fr(1 - fr(fr(eta * eta) * fr(1 - fr(d * d))));
  if (k < 0) return [0, 0, 0];
  const f = fr(fr(eta * d) + fr(Math.sqrt(k)));
  return [fr(fr(eta * i[0]) - fr(f * n[0])), fr(fr(eta * i[1]) - fr(f * n[1])), fr(fr(eta * i[2]) - fr(f * n[2]))];
}

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * 3x4 row-major matrix (VkTransformMatrixKHR, as the acceleration structure stores instance
 * transforms) applied to a direction (w = 0).
 */
export function transformDirection(m: ArrayLike<number>, v: Vec3): Vec3 {
  const row = (r: number) => fr(fr(fr(m[4 * r]! * v[0]) + fr(m[4 * r + 1]! * v[1])) + fr(m[4 * r + 2]! * v[2]));
  return [row(0), row(1), row(2)];
}

/**
 * GLSL `n * M` for M = gl_WorldToObjectEXT (mat4x3): a row vector times the matrix, i.e. each
 * result component is the dot product of n with a column; the fourth column (translation) is
 * dropped by the shader's vec3(...).
 */
export function rowVectorTimes(n: Vec3, m: ArrayLike<number>): Vec3 {
  const col = (c: number) => fr(fr(fr(n[0] * m[c]!) + fr(n[1] * m[4 + c]!)) + fr(n[2] * m[8 + c]!));
  return [col(0), col(1), col(2)];
}

export function isFiniteVec(v: Vec3): boolean {
  return Number.isFinite(v[0]) && Number.isFinite(v[1]) && Number.isFinite(v[2]);
}
