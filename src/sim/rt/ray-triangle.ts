/**
 * Watertight ray-triangle intersection (Woop, Benthin, Wald 2013). The ray is sheared so it runs
 * along +z through the origin; the three 2D edge functions of the sheared vertices decide the hit.
 * A shared edge's edge function is computed from the same two transformed vertices in both
 * triangles, with the operands swapped, so it is exactly negated: a ray can never slip between
 * two triangles sharing an edge. Everything runs in double precision, which makes the paper's
 * double-precision fallback for zero edge functions unnecessary.
 *
 * Facing: `det = U + V + W` is positive exactly when the triangle's geometric normal
 * (v1 - v0) x (v2 - v0) points against the ray direction, i.e. its vertices appear
 * counter-clockwise from the ray origin in a right-handed frame (clockwise in Vulkan's
 * left-handed wording); Vulkan calls that front-facing.
 */

/** Per-ray shear constants: kx, ky, kz, Sx, Sy, Sz (filled by `prepareWatertightRay`). */
export type WatertightRay = Float64Array;

export function createWatertightRay(): WatertightRay {
  return new Float64Array(6);
}

export function prepareWatertightRay(dx: number, dy: number, dz: number, out: WatertightRay): void {
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  let kz = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  const d = [dx, dy, dz];
  if (d[kz] === 0) kz = 2; // zero direction: nothing can be hit, keep constants finite-free
  let kx = kz + 1 === 3 ? 0 : kz + 1;
  let ky = kx + 1 === 3 ? 0 : kx + 1;
  // Swapping keeps the winding when the dominant component is negative.
  if (d[kz]! < 0) { const s = kx; kx = ky; ky = s; }
  out[0] = kx; out[1] = ky; out[2] = kz;
  out[3] = d[kx]! / d[kz]!;
  out[4] = d[ky]! / d[kz]!;
  out[5] = 1 / d[kz]!;
}

/** Result of the last successful `intersectTriangle`: t, u (vertex 1 weight), v (vertex 2 weight), det. */
export const triangleHit = new Float64Array(4);

/**
 * Tests the triangle at `verts[o .. o+9)` against the ray; on a hit with tmin <= t <= tmax writes
 * `triangleHit` and returns true. Both facings are reported; culling is the caller's business.
 */
export function intersectTriangle(
  verts: Float32Array, o: number,
  ox: number, oy: number, oz: number,
  ray: WatertightRay, tmin: number, tmax: number,
): boolean {
  const kx = ray[0]!, ky = ray[1]!, kz = ray[2]!, sx = ray[3]!, sy = ray[4]!, sz = ray[5]!;
  const org0 = kx === 0 ? ox : kx === 1 ? oy : oz;
  const org1 = ky === 0 ? ox : ky === 1 ? oy : oz;
  const org2 = kz === 0 ? ox : kz === 1 ? oy : oz;
  const az = verts[o + kz]! - org2, bz = verts[o + 3 + kz]! - org2, cz = verts[o + 6 + kz]! - org2;
  const axv = verts[o + kx]! - org0 - sx * az, ayv = verts[o + ky]! - org1 - sy * az;
  const bxv = verts[o + 3 + kx]! - org0 - sx * bz, byv = verts[o + 3 + ky]! - org1 - sy * bz;
  const cxv = verts[o + 6 + kx]! - org0 - sx * cz, cyv = verts[o + 6 + ky]! - org1 - sy * cz;
  const U = cxv * byv - cyv * bxv;
  const V = axv * cyv - ayv * cxv;
  const W = bxv * ayv - byv * axv;
  if ((U < 0 || V < 0 || W < 0) && (U > 0 || V > 0 || W > 0)) return false;
  const det = U + V + W;
  if (det === 0 || det !== det) return false;
  const T = (U * az + V * bz + W * cz) * sz;
  const inv = 1 / det;
  const t = T * inv;
  if (!(t >= tmin && t <= tmax)) return false;
  triangleHit[0] = t;
  triangleHit[1] = V * inv;
  triangleHit[2] = W * inv;
  triangleHit[3] = det;
  return true;
}
