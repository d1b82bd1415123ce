/**
 * Built-in seeded scenes:
 * - `wknd`: the final scene of "Ray Tracing in One Weekend" (LumiBench WKND): ground sphere,
 *   three big spheres and the 22 x 22 grid of small spheres with the book's material choice
 *   (80 % lambertian, 15 % metal, 5 % dielectric), built with the book's sequence of random
 *   draws from a seeded generator. All spheres are procedural AABB primitives of one geometry.
 * - `cornell`: the Cornell box of "The Next Week" (555-unit room, light quad, two rotated blocks)
 *   from quads; the blocks are one unit-cube mesh instanced twice with transforms.
 * - `rtv6`: procedural spheres and boxes in the distribution of the nvpro intersection tutorial,
 *   as two procedural geometries / instances with SBT offsets 0 and 1 (two hit groups).
 * - `tri`: one triangle.
 * Same name and seed give the same scene bit for bit.
 */
import { defaultMaterial, identityTransform, type Material, type ProceduralGeometry, type Scene, type TriangleMesh, type Vec3 } from './scene.js';
import { seededRandom } from '../seeded-random.js';

export type ProceduralSceneName = 'wknd' | 'cornell' | 'rtv6' | 'tri';

export class ProceduralSceneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProceduralSceneError';
  }
}

/** Stands in for the book's random_double(). */
export { seededRandom };

function material(name: string, patch: Partial<Material>): Material {
  return { ...defaultMaterial(name), ...patch };
}

function sphereGeometry(name: string, spheres: number[], materialIds: number[]): ProceduralGeometry {
  const n = materialIds.length;
  const aabbs = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const cx = spheres[4 * i]!, cy = spheres[4 * i + 1]!, cz = spheres[4 * i + 2]!, r = spheres[4 * i + 3]!;
    aabbs.set([cx - r, cy - r, cz - r, cx + r, cy + r, cz + r], 6 * i);
  }
  return { name, kind: 'sphere', aabbs, params: new Float32Array(spheres), materialIds: new Uint32Array(materialIds), opaque: true };
}

function wknd(seed: number): Scene {
  const rnd = seededRandom(seed);
  const range = (lo: number, hi: number): number => lo + (hi - lo) * rnd();
  const materials: Material[] = [material('ground', { kd: [0.5, 0.5, 0.5] })];
  const spheres: number[] = [0, -1000, 0, 1000];
  const ids: number[] = [0];
  for (let a = -11; a < 11; a++) {
    for (let b = -11; b < 11; b++) {
      const chooseMat = rnd();
      const cx = a + 0.9 * rnd();
      const cz = b + 0.9 * rnd();
      if (Math.hypot(cx - 4, 0, cz) <= 0.9) continue;
      let m: Material;
      if (chooseMat < 0.8) {
        const c1: Vec3 = [rnd(), rnd(), rnd()];
        const c2: Vec3 = [rnd(), rnd(), rnd()];
        m = material(`diffuse_${a}_${b}`, { kd: [c1[0] * c2[0], c1[1] * c2[1], c1[2] * c2[2]] });
      } else if (chooseMat < 0.95) {
        const albedo: Vec3 = [range(0.5, 1), range(0.5, 1), range(0.5, 1)];
        m = material(`metal_${a}_${b}`, { type: 'metal', kd: albedo, roughness: range(0, 0.5), metallic: 1 });
      } else {
        m = material(`glass_${a}_${b}`, { type: 'dielectric', kd: [1, 1, 1], ior: 1.5, roughness: 0 });
      }
      ids.push(materials.length);
      materials.push(m);
      spheres.push(cx, 0.2, cz, 0.2);
    }
  }
  const big: [Vec3, Material][] = [
    [[0, 1, 0], material('material1', { type: 'dielectric', kd: [1, 1, 1], ior: 1.5, roughness: 0 })],
    [[-4, 1, 0], material('material2', { kd: [0.4, 0.2, 0.1] })],
    [[4, 1, 0], material('material3', { type: 'metal', kd: [0.7, 0.6, 0.5], roughness: 0, metallic: 1 })],
  ];
  for (const [c, m] of big) {
    ids.push(materials.length);
    materials.push(m);
    spheres.push(c[0], c[1], c[2], 1);
  }
  return {
    name: 'wknd',
    meshes: [],
    procedurals: [sphereGeometry('spheres', spheres, ids)],
    materials,
    textures: [],
    instances: [{ source: 'procedural', geometryIndex: 0, transform: identityTransform(), customIndex: 0, mask: 0xff, sbtOffset: 0, flags: 0 }],
    camera: { lookFrom: [13, 2, 3], lookAt: [0, 0, 0], up: [0, 1, 0], vfov: 20, aperture: 0.1, focusDistance: 10 },
  };
}

/** Accumulates quads as two triangles each, wound so the normal u x v faces `towards`. */
class QuadMeshBuilder {
  positions: number[] = [];
  indices: number[] = [];
  materialIds: number[] = [];

  quad(q: Vec3, u: Vec3, v: Vec3, materialId: number, towards: Vec3, inward: boolean): void {
    const n: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const c: Vec3 = [q[0] + 0.5 * (u[0] + v[0]), q[1] + 0.5 * (u[1] + v[1]), q[2] + 0.5 * (u[2] + v[2])];
    const toward = (towards[0] - c[0]) * n[0] + (towards[1] - c[1]) * n[1] + (towards[2] - c[2]) * n[2];
    if ((toward < 0) === inward) { const s = u; u = v; v = s; }
    const base = this.positions.length / 3;
    this.positions.push(...q, q[0] + u[0], q[1] + u[1], q[2] + u[2], q[0] + u[0] + v[0], q[1] + u[1] + v[1], q[2] + u[2] + v[2], q[0] + v[0], q[1] + v[1], q[2] + v[2]);
    this.indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    this.materialIds.push(materialId, materialId);
  }

  build(name: string): TriangleMesh {
    return { name, positions: new Float32Array(this.positions), indices: new Uint32Array(this.indices), materialIds: new Uint32Array(this.materialIds), opaque: true };
  }
}

/** 3x4 row-major T * Ry(degrees) * S(sx, sy, sz). */
function placeBlock(tx: number, ty: number, tz: number, degrees: number, sx: number, sy: number, sz: number): Float32Array {
  const r = (degrees * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
  return new Float32Array([c * sx, 0, s * sz, tx, 0, sy, 0, ty, -s * sx, 0, c * sz, tz]);
}

function cornell(): Scene {
  const materials = [
    material('red', { kd: [0.65, 0.05, 0.05] }),
    material('white', { kd: [0.73, 0.73, 0.73] }),
    material('green', { kd: [0.12, 0.45, 0.15] }),
    material('light', { type: 'diffuseLight', kd: [0, 0, 0], ke: [15, 15, 15] }),
  ];
  const room = new QuadMeshBuilder();
  const centre: Vec3 = [277.5, 277.5, 277.5];
  room.quad([555, 0, 0], [0, 555, 0], [0, 0, 555], 2, centre, true);
  room.quad([0, 0, 0], [0, 555, 0], [0, 0, 555], 0, centre, true);
  room.quad([343, 554, 332], [-130, 0, 0], [0, 0, -105], 3, [278, 0, 278], true);
  room.quad([0, 0, 0], [555, 0, 0], [0, 0, 555], 1, centre, true);
  room.quad([555, 555, 555], [-555, 0, 0], [0, 0, -555], 1, centre, true);
  room.quad([0, 0, 555], [555, 0, 0], [0, 555, 0], 1, centre, true);
  const cube = new QuadMeshBuilder();
  const cc: Vec3 = [0.5, 0.5, 0.5];
  cube.quad([0, 0, 0], [1, 0, 0], [0, 1, 0], 1, cc, false);
  cube.quad([0, 0, 1], [1, 0, 0], [0, 1, 0], 1, cc, false);
  cube.quad([0, 0, 0], [0, 1, 0], [0, 0, 1], 1, cc, false);
  cube.quad([1, 0, 0], [0, 1, 0], [0, 0, 1], 1, cc, false);
  cube.quad([0, 0, 0], [1, 0, 0], [0, 0, 1], 1, cc, false);
  cube.quad([0, 1, 0], [1, 0, 0], [0, 0, 1], 1, cc, false);
  return {
    name: 'cornell',
    meshes: [room.build('room'), cube.build('block')],
    procedurals: [],
    materials,
    textures: [],
    instances: [
      { source: 'mesh', geometryIndex: 0, transform: identityTransform(), customIndex: 0, mask: 0xff, sbtOffset: 0, flags: 0 },
      { source: 'mesh', geometryIndex: 1, transform: placeBlock(265, 0, 295, 15, 165, 330, 165), customIndex: 1, mask: 0xff, sbtOffset: 0, flags: 0 },
      { source: 'mesh', geometryIndex: 1, transform: placeBlock(130, 0, 65, -18, 165, 165, 165), customIndex: 2, mask: 0xff, sbtOffset: 0, flags: 0 },
    ],
    camera: { lookFrom: [278, 278, -800], lookAt: [278, 278, 0], up: [0, 1, 0], vfov: 40, aperture: 0, focusDistance: 10 },
  };
}

/** Object count of `rtv6` (the tutorial uses 2,000,000; scaled down for simulation). */
export const RTV6_OBJECT_COUNT = 2000;

function rtv6(seed: number): Scene {
  const rnd = seededRandom(seed);
  const range = (lo: number, hi: number): number => lo + (hi - lo) * rnd();
  const materials = [
    material('sphere_material', { kd: [0, 1, 1], ks: [0.5, 0.5, 0.5], shininess: 10 }),
    material('box_material', { kd: [1, 1, 0], ks: [0.5, 0.5, 0.5], shininess: 10 }),
  ];
  const spheres: number[] = [], sphereIds: number[] = [];
  const boxes: number[] = [], boxIds: number[] = [];
  for (let i = 0; i < RTV6_OBJECT_COUNT; i++) {
    const x = range(-5, 5), y = range(3, 4.5), z = range(-5, 5), r = range(0.05, 0.2);
    if (i % 2 === 0) { spheres.push(x, y, z, r); sphereIds.push(0); }
    else { boxes.push(x - r, y - r, z - r, x + r, y + r, z + r); boxIds.push(1); }
  }
  const boxGeometry: ProceduralGeometry = { name: 'boxes', kind: 'box', aabbs: new Float32Array(boxes), params: new Float32Array(boxes), materialIds: new Uint32Array(boxIds), opaque: true };
  return {
    name: 'rtv6',
    meshes: [],
    procedurals: [sphereGeometry('spheres', spheres, sphereIds), boxGeometry],
    materials,
    textures: [],
    instances: [
      { source: 'procedural', geometryIndex: 0, transform: identityTransform(), customIndex: 0, mask: 0xff, sbtOffset: 0, flags: 0 },
      { source: 'procedural', geometryIndex: 1, transform: identityTransform(), customIndex: 1, mask: 0xff, sbtOffset: 1, flags: 0 },
    ],
    camera: { lookFrom: [4, 4.5, 12], lookAt: [0, 3.5, 0], up: [0, 1, 0], vfov: 45, aperture: 0, focusDistance: 10 },
  };
}

function tri(): Scene {
  return {
    name: 'tri',
    meshes: [{ name: 'triangle', positions: new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, 0, 0.5, 0]), indices: new Uint32Array([0, 1, 2]), materialIds: new Uint32Array([0]), opaque: true }],
    procedurals: [],
    materials: [material('white', { kd: [0.9, 0.9, 0.9] })],
    textures: [],
    instances: [{ source: 'mesh', geometryIndex: 0, transform: identityTransform(), customIndex: 0, mask: 0xff, sbtOffset: 0, flags: 0 }],
    camera: { lookFrom: [0, 0, 2], lookAt: [0, 0, 0], up: [0, 1, 0], vfov: 45, aperture: 0, focusDistance: 2 },
  };
}

export function proceduralScene(name: ProceduralSceneName, seed: number): Scene {
  switch (name) {
    case 'wknd': return wknd(seed);
    case 'cornell': return cornell();
    case 'rtv6': return rtv6(seed);
    case 'tri': return tri();
    default: throw new ProceduralSceneError(`unknown procedural scene '${String(name)}' (expected wknd, cornell, rtv6 or tri)`);
  }
}
