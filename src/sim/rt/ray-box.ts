/**
 * Slab ray-box test (Kay-Kajiya) against boxes stored as 6 floats (min xyz, max xyz).
 * The ray is given by origin and reciprocal direction; a zero direction component yields
 * +-Infinity reciprocals, and the NaN that appears when the origin lies exactly on such a slab
 * plane is ignored by the comparisons (the ray is treated as inside that slab).
 * The far distance is scaled by 1 + 2 * gamma(3) (Ize 2013) so a ray grazing a box edge is not
 * lost to rounding: the test may report a few extra hits, never a miss of a real intersection.
 */

const FAR_SCALE = 1 + 2 * ((3 * Number.EPSILON * 0.5) / (1 - 3 * Number.EPSILON * 0.5));

/**
 * Returns the entry distance (>= tmin) if the ray overlaps the box within [tmin, tmax], else -1
 * (callers pass tmin >= 0 or compare against NaN-free values).
 */
export function intersectRayBox(
  box: Float32Array, o: number,
  ox: number, oy: number, oz: number,
  ix: number, iy: number, iz: number,
  tmin: number, tmax: number,
): number {
  let tn = tmin, tf = tmax;
  let t0 = (box[o]! - ox) * ix, t1 = (box[o + 3]! - ox) * ix;
  if (t0 > t1) { const s = t0; t0 = t1; t1 = s; }
  if (t0 > tn) tn = t0;
  if (t1 * FAR_SCALE < tf) tf = t1 * FAR_SCALE;
  t0 = (box[o + 1]! - oy) * iy; t1 = (box[o + 4]! - oy) * iy;
  if (t0 > t1) { const s = t0; t0 = t1; t1 = s; }
  if (t0 > tn) tn = t0;
  if (t1 * FAR_SCALE < tf) tf = t1 * FAR_SCALE;
  t0 = (box[o + 2]! - oz) * iz; t1 = (box[o + 5]! - oz) * iz;
  if (t0 > t1) { const s = t0; t0 = t1; t1 = s; }
  if (t0 > tn) tn = t0;
  if (t1 * FAR_SCALE < tf) tf = t1 * FAR_SCALE;
  return tn <= tf ? tn : -1;
}
