/**
 * Brute-force references for the RT tests and the benchmark: every instance, every primitive,
 * no BVH. Plain TypeScript over the same scene data, so agreement with `traverse` checks the BVH,
 * the layout and the traversal order, not the primitive tests.
 */
import type { Scene } from '../../../src/sim/rt/scene.js';
import { invertTransform } from '../../../src/sim/rt/acceleration-structure.js';
import { createWatertightRay, intersectTriangle, prepareWatertightRay, triangleHit } from '../../../src/sim/rt/ray-triangle.js';
import { intersectRayBox } from '../../../src/sim/rt/ray-box.js';

export interface ReferenceHit { t: number; instance: number; primitive: number }

function objectRay(scene: Scene, inst: number, o: number[], d: number[]): number[] {
  const m = invertTransform(scene.instances[inst]!.transform, 'ref');
  return [
    m[0]! * o[0]! + m[1]! * o[1]! + m[2]! * o[2]! + m[3]!,
    m[4]! * o[0]! + m[5]! * o[1]! + m[6]! * o[2]! + m[7]!,
    m[8]! * o[0]! + m[9]! * o[1]! + m[10]! * o[2]! + m[11]!,
    m[0]! * d[0]! + m[1]! * d[1]! + m[2]! * d[2]!,
    m[4]! * d[0]! + m[5]! * d[1]! + m[6]! * d[2]!,
    m[8]! * d[0]! + m[9]! * d[1]! + m[10]! * d[2]!,
  ];
}

/** Closest triangle hit over all mesh instances (all opaque, no culling). */
export function bruteForceClosestTriangle(scene: Scene, o: number[], d: number[], tmin: number, tmax: number): ReferenceHit | undefined {
  let best: ReferenceHit | undefined;
  const wr = createWatertightRay();
  const verts = new Float32Array(9);
  scene.instances.forEach((inst, ii) => {
    if (inst.source !== 'mesh') return;
    const mesh = scene.meshes[inst.geometryIndex]!;
    const r = objectRay(scene, ii, o, d);
    prepareWatertightRay(r[3]!, r[4]!, r[5]!, wr);
    const n = mesh.indices.length / 3;
    for (let p = 0; p < n; p++) {
      for (let k = 0; k < 3; k++) {
        const v = mesh.indices[3 * p + k]!;
        verts[3 * k] = mesh.positions[3 * v]!; verts[3 * k + 1] = mesh.positions[3 * v + 1]!; verts[3 * k + 2] = mesh.positions[3 * v + 2]!;
      }
      const limit = best ? best.t : tmax;
      if (intersectTriangle(verts, 0, r[0]!, r[1]!, r[2]!, wr, tmin, limit) && (!best || triangleHit[0]! < best.t)) {
        best = { t: triangleHit[0]!, instance: ii, primitive: p };
      }
    }
  });
  return best;
}

/** (instance, primitive) of every procedural AABB the ray overlaps within [tmin, tmax]. */
export function bruteForceAabbHits(scene: Scene, o: number[], d: number[], tmin: number, tmax: number): string[] {
  const out: string[] = [];
  scene.instances.forEach((inst, ii) => {
    if (inst.source !== 'procedural') return;
    const g = scene.procedurals[inst.geometryIndex]!;
    const r = objectRay(scene, ii, o, d);
    const n = g.aabbs.length / 6;
    for (let p = 0; p < n; p++) {
      if (intersectRayBox(g.aabbs, 6 * p, r[0]!, r[1]!, r[2]!, 1 / r[3]!, 1 / r[4]!, 1 / r[5]!, tmin, tmax) >= 0) out.push(`${ii}:${p}`);
    }
  });
  return out.sort();
}

/** Ray-sphere distance in [tmin, tmax] (the intersection shader the workloads run), or -1. */
export function raySphere(params: Float32Array, p: number, o: number[], d: number[], tmin: number, tmax: number): number {
  const cx = params[4 * p]!, cy = params[4 * p + 1]!, cz = params[4 * p + 2]!, rad = params[4 * p + 3]!;
  const ox = o[0]! - cx, oy = o[1]! - cy, oz = o[2]! - cz;
  const a = d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!;
  const hb = ox * d[0]! + oy * d[1]! + oz * d[2]!;
  const c = ox * ox + oy * oy + oz * oz - rad * rad;
  const disc = hb * hb - a * c;
  if (disc < 0) return -1;
  const s = Math.sqrt(disc);
  let t = (-hb - s) / a;
  if (t < tmin || t > tmax) t = (-hb + s) / a;
  return t >= tmin && t <= tmax ? t : -1;
}

/** Deterministic unit vector stream for tests. */
export function randomDirections(seed: number): () => [number, number, number] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    const z = 2 * rnd() - 1, a = 2 * Math.PI * rnd(), r = Math.sqrt(1 - z * z);
    return [r * Math.cos(a), r * Math.sin(a), z];
  };
}
