/**
 * Triangle data as the shaders fetch it from the packed scene buffers (src/sim/host/
 * scene-records.ts): vertices and triangles of all meshes concatenated in mesh order, indices
 * relative to their mesh's first vertex, and per instance description (nvpro ObjDesc) the
 * addresses of the instance's mesh. Positions are f32 as stored.
 */
import type { Scene, TriangleMesh } from '../rt/scene.js';
import { cross, normalize, type Vec3 } from './f32-vector.js';
import { ReferenceTracerError } from './render-context.js';

/**
 * The mesh that `vertices[]` / `indices[]` bound as whole-scene buffers show at triangle
 * `primitive` (the concatenated view a shader indexing by gl_PrimitiveID sees).
 */
export function concatenatedTriangle(scene: Scene, primitive: number): { mesh: TriangleMesh; triangle: number; firstVertex: number } {
  let t = primitive;
  let v = 0;
  for (const m of scene.meshes) {
    const n = m.indices.length / 3;
    if (t < n) return { mesh: m, triangle: t, firstVertex: v };
    t -= n;
    v += m.positions.length / 3;
  }
  throw new ReferenceTracerError(`triangle ${primitive} is beyond the scene's index buffer`);
}

export function vertexPosition(mesh: TriangleMesh, vertex: number): Vec3 {
  return [mesh.positions[3 * vertex]!, mesh.positions[3 * vertex + 1]!, mesh.positions[3 * vertex + 2]!];
}

/** normalize(cross(p1 - p0, p2 - p0)) of the triangle's three stored positions. */
export function geometricNormal(p0: Vec3, p1: Vec3, p2: Vec3): Vec3 {
  const e1: Vec3 = [Math.fround(p1[0] - p0[0]), Math.fround(p1[1] - p0[1]), Math.fround(p1[2] - p0[2])];
  const e2: Vec3 = [Math.fround(p2[0] - p0[0]), Math.fround(p2[1] - p0[1]), Math.fround(p2[2] - p0[2])];
  return normalize(cross(e1, e2));
}

/** The mesh an instance description (ObjDesc index = customIndex + geometryIndex) points at. */
export function instanceMesh(scene: Scene, descIndex: number): TriangleMesh {
  const inst = scene.instances[descIndex];
  if (!inst || inst.source !== 'mesh') throw new ReferenceTracerError(`instance description ${descIndex} has no triangle mesh`);
  return scene.meshes[inst.geometryIndex]!;
}
