/**
 * What an application's model loader does to a scene before anything reaches the GPU, named as
 * Sascha Willems' glTF loader names its `FileLoadingFlags` (the manifest's `scene.conversions`):
 * - `preTransformVertices`: every mesh instance's transform is baked into its vertices (normals by
 *   the matrix's 3x3, renormalised) and the meshes are concatenated into one mesh drawn by one
 *   identity instance, as an application that builds one BLAS over its whole vertex buffer sees it;
 * - `flipY`: position.y and normal.y negated (applied after pre-transforming, as the loader does);
 * - `preMultiplyVertexColors`: each vertex colour (white when the file has none) multiplied by its
 *   material's base colour (the material of the first triangle that uses the vertex).
 * - `srgbToLinear`: material colours (Kd, Ks, Ke, Ka) and vertex colours decoded from sRGB, before
 *   pre-multiplying (the sRGB transfer function of IEC 61966-2-1).
 * - `materialColorsPow22`: material ambient, diffuse and specular colours (Ka, Kd, Ks) raised to the
 *   power 2.2, as nvpro-samples' `loadModel` does ("Converting from Srgb to linear"); emission and
 *   vertex colours are kept.
 * The acceleration structure is built from the converted scene, so the BLAS and the vertex
 * buffers the shaders read agree, as they do in the application.
 * Invariant: returns a scene satisfying scene.ts's invariants; procedural geometry is untouched.
 */
import { identityTransform, type Instance, type Scene, type TriangleMesh } from '../rt/scene.js';
import type { SceneConversion } from '../workload/manifest.js';

export function convertScene(scene: Scene, conversions: readonly SceneConversion[]): Scene {
  let out = scene;
  // The loader's order: vertices are pre-transformed, then flipped, whatever order the manifest lists.
  if (conversions.includes('preTransformVertices')) out = preTransform(out);
  if (conversions.includes('flipY')) out = { ...out, meshes: out.meshes.map(flipY) };
  if (conversions.includes('srgbToLinear')) out = linearColors(out);
  if (conversions.includes('materialColorsPow22')) out = pow22Materials(out);
  if (conversions.includes('preMultiplyVertexColors')) out = { ...out, meshes: out.meshes.map((m) => preMultiplyColors(out, m)) };
  return out;
}

function preTransform(scene: Scene): Scene {
  const drawn = scene.instances.filter((i) => i.source === 'mesh');
  if (drawn.length === 0) return scene;
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const colors: number[] = [];
  const indices: number[] = [];
  const materialIds: number[] = [];
  let opaque = true;
  const anyNormals = drawn.some((i) => scene.meshes[i.geometryIndex]!.normals);
  const anyUvs = drawn.some((i) => scene.meshes[i.geometryIndex]!.uvs);
  const anyColors = drawn.some((i) => scene.meshes[i.geometryIndex]!.colors);
  for (const inst of drawn) {
    const mesh = scene.meshes[inst.geometryIndex]!;
    const t = inst.transform;
    const base = positions.length / 3;
    const n = mesh.positions.length / 3;
    for (let v = 0; v < n; v++) {
      const [x, y, z] = [mesh.positions[3 * v]!, mesh.positions[3 * v + 1]!, mesh.positions[3 * v + 2]!];
      for (let r = 0; r < 3; r++) positions.push(t[4 * r]! * x + t[4 * r + 1]! * y + t[4 * r + 2]! * z + t[4 * r + 3]!);
      if (anyNormals) {
        const nx = mesh.normals?.[3 * v] ?? 0;
        const ny = mesh.normals?.[3 * v + 1] ?? 0;
        const nz = mesh.normals?.[3 * v + 2] ?? 0;
        const w = [0, 1, 2].map((r) => t[4 * r]! * nx + t[4 * r + 1]! * ny + t[4 * r + 2]! * nz);
        const len = Math.hypot(w[0]!, w[1]!, w[2]!) || 1;
        normals.push(w[0]! / len, w[1]! / len, w[2]! / len);
      }
      if (anyUvs) uvs.push(mesh.uvs?.[2 * v] ?? 0, mesh.uvs?.[2 * v + 1] ?? 0);
      if (anyColors) colors.push(mesh.colors?.[3 * v] ?? 1, mesh.colors?.[3 * v + 1] ?? 1, mesh.colors?.[3 * v + 2] ?? 1);
    }
    for (const i of mesh.indices) indices.push(base + i);
    materialIds.push(...mesh.materialIds);
    opaque &&= mesh.opaque;
  }
  const merged: TriangleMesh = {
    name: scene.name,
    positions: new Float32Array(positions),
    indices: new Uint32Array(indices),
    materialIds: new Uint32Array(materialIds),
    opaque,
    ...(anyNormals ? { normals: new Float32Array(normals) } : {}),
    ...(anyUvs ? { uvs: new Float32Array(uvs) } : {}),
    ...(anyColors ? { colors: new Float32Array(colors) } : {}),
  };
  const first = drawn[0]!;
  const instance: Instance = { ...first, geometryIndex: 0, transform: identityTransform(), customIndex: 0 };
  const procedurals = scene.instances.filter((i) => i.source === 'procedural');
  // One model now: per-model offsets of the loaded files no longer describe the merged mesh.
  const { models: _models, ...rest } = scene;
  void _models;
  return { ...rest, meshes: [merged], instances: [instance, ...procedurals] };
}

function flipY(mesh: TriangleMesh): TriangleMesh {
  const positions = Float32Array.from(mesh.positions);
  for (let i = 1; i < positions.length; i += 3) positions[i] = -positions[i]!;
  const out: TriangleMesh = { ...mesh, positions };
  if (mesh.normals) {
    const normals = Float32Array.from(mesh.normals);
    for (let i = 1; i < normals.length; i += 3) normals[i] = -normals[i]!;
    out.normals = normals;
  }
  return out;
}

function preMultiplyColors(scene: Scene, mesh: TriangleMesh): TriangleMesh {
  const n = mesh.positions.length / 3;
  const material = new Int32Array(n).fill(-1);
  for (let t = 0; t < mesh.materialIds.length; t++) {
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[3 * t + k]!;
      if (material[v] === -1) material[v] = mesh.materialIds[t]!;
    }
  }
  const colors = new Float32Array(3 * n);
  for (let v = 0; v < n; v++) {
    const kd = material[v]! >= 0 ? scene.materials[material[v]!]?.kd ?? [1, 1, 1] : [1, 1, 1];
    for (let c = 0; c < 3; c++) colors[3 * v + c] = (mesh.colors?.[3 * v + c] ?? 1) * kd[c]!;
  }
  return { ...mesh, colors };
}

/** The sRGB electro-optical transfer function: an encoded value in [0, 1] -> linear. */
export function srgbToLinear(v: number): number {
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function pow22Materials(scene: Scene): Scene {
  // glm::pow(c, vec3(2.2f)) in float, as the host computes it.
  const p = (c: [number, number, number]): [number, number, number] => [Math.fround(c[0] ** 2.2), Math.fround(c[1] ** 2.2), Math.fround(c[2] ** 2.2)];
  return { ...scene, materials: scene.materials.map((m) => ({ ...m, kd: p(m.kd), ks: p(m.ks), ka: p(m.ka) })) };
}

function linearColors(scene: Scene): Scene {
  const lin = (c: [number, number, number]): [number, number, number] => [srgbToLinear(c[0]), srgbToLinear(c[1]), srgbToLinear(c[2])];
  return {
    ...scene,
    materials: scene.materials.map((m) => ({ ...m, kd: lin(m.kd), ks: lin(m.ks), ke: lin(m.ke), ka: lin(m.ka) })),
    meshes: scene.meshes.map((m) => (m.colors ? { ...m, colors: m.colors.map(srgbToLinear) } : m)),
  };
}
