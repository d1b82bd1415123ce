/**
 * Ray queries for the reference tracer: one call of the project's functional traversal
 * (src/sim/rt/traversal.ts) plus what the pipeline would do after it, done directly instead of
 * through shaders — procedural candidates are resolved by a caller-supplied intersection
 * function in traversal order, each seeing the current tmax, so the closest accepted hit wins
 * (Vulkan's reportIntersectionEXT rule: accepted when tmin <= t <= tmax).
 *
 * Hit values are rounded to f32, the precision in which shaders see gl_HitTEXT and attributes.
 */
import type { AccelerationStructure } from '../rt/acceleration-structure.js';
import type { HitRecord } from '../rt/ray-query.js';
import { RAY_FLAG } from '../rt/ray-query.js';
import { traverse } from '../rt/traversal.js';
import { fr, type Vec3 } from './f32-vector.js';

export { RAY_FLAG, HIT_KIND } from '../rt/ray-query.js';

export interface SceneHit {
  t: number;
  /** Triangle barycentrics of vertices 1 and 2; procedural hits leave them 0. */
  u: number;
  v: number;
  hitKind: number;
  instanceIndex: number;
  instanceCustomIndex: number;
  geometryIndex: number;
  primitiveIndex: number;
  objectToWorld: Float32Array;
  worldToObject: Float32Array;
  /** Set by the intersection function for procedural hits (e.g. the sphere normal). */
  attributes?: Vec3;
}

/** An intersection shader: the hit distance in (tmin, tmax) and its attributes, or undefined. */
export type IntersectProcedural = (
  candidate: HitRecord, objectOrigin: Vec3, objectDirection: Vec3, tmin: number, tmax: number,
) => { t: number; attributes: Vec3 } | undefined;

export interface RayCount {
  rays: number;
  /** Rays with terminate-on-first-hit (shadow / occlusion), as the simulator's RtCounters name them. */
  anyHitRays: number;
}

function fromRecord(h: HitRecord): SceneHit {
  return {
    t: fr(h.t), u: fr(h.u), v: fr(h.v), hitKind: h.hitKind,
    instanceIndex: h.instanceIndex, instanceCustomIndex: h.instanceCustomIndex,
    geometryIndex: h.geometryIndex, primitiveIndex: h.primitiveIndex,
    objectToWorld: h.objectToWorld, worldToObject: h.worldToObject,
  };
}

/**
 * traceRayEXT without the shaders: the closest hit (committed triangle or accepted procedural
 * hit), or undefined for a miss. `count.rays` is incremented once per call.
 */
export function traceScene(
  as: AccelerationStructure, count: RayCount, origin: Vec3, direction: Vec3, tmin: number, tmax: number, flags: number,
  intersect?: IntersectProcedural,
): SceneHit | undefined {
  count.rays++;
  if (flags & RAY_FLAG.terminateOnFirstHit) count.anyHitRays++;
  const r = traverse(as, { origin, direction, tmin: fr(tmin), tmax: fr(tmax), flags, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 0 });
  let best = r.committed ? fromRecord(r.committed) : undefined;
  let currentTmax = best ? best.t : fr(tmax);
  for (const c of r.candidates) {
    if (c.kind !== 'procedural' || !intersect) continue;
    const o: Vec3 = [fr(c.objectRayOrigin[0]), fr(c.objectRayOrigin[1]), fr(c.objectRayOrigin[2])];
    const d: Vec3 = [fr(c.objectRayDirection[0]), fr(c.objectRayDirection[1]), fr(c.objectRayDirection[2])];
    const hit = intersect(c, o, d, fr(tmin), currentTmax);
    if (!hit || !(hit.t >= tmin && hit.t <= currentTmax)) continue;
    best = { ...fromRecord(c), t: fr(hit.t), attributes: hit.attributes };
    currentTmax = best.t;
  }
  return best;
}
