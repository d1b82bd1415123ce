/**
 * Scene description shared by the loaders (OBJ/MTL, glTF, procedural), the acceleration-structure
 * builder and the host side that packs shader buffers (vertices, indices, materials, per-instance
 * offsets, procedural AABBs/spheres) the way a Vulkan application would.
 *
 * Invariants:
 * - `TriangleMesh.positions.length === 3 * vertexCount`; `normals`/`uvs`, when present, have
 *   3 / 2 floats per vertex; every entry of `indices` is < vertexCount;
 *   `indices.length === 3 * materialIds.length` (one material id per triangle).
 * - `ProceduralGeometry.aabbs.length === 6 * primitiveCount` (minX,minY,minZ,maxX,maxY,maxZ);
 *   `params` holds 4 floats per primitive for spheres (cx,cy,cz,r) and 6 for boxes (min,max).
 * - Every material id indexes `Scene.materials`; every texture index is -1 or indexes
 *   `Scene.textures`.
 * - `Instance.transform` is the 3x4 row-major object-to-world matrix (VkTransformMatrixKHR).
 * - Instance order is the instance index (gl_InstanceID) seen by shaders.
 */

export type Vec3 = [number, number, number];

/** How a material scatters; 'pbr' comes from glTF metallic-roughness materials. */
export type MaterialType = 'lambertian' | 'metal' | 'dielectric' | 'diffuseLight' | 'pbr';

/** Stable numeric codes for packing `MaterialType` into shader buffers. */
export const MATERIAL_TYPE_CODE: Readonly<Record<MaterialType, number>> = {
  lambertian: 0,
  metal: 1,
  dielectric: 2,
  diffuseLight: 3,
  pbr: 4,
};

export interface Material {
  name: string;
  type: MaterialType;
  /** Diffuse / base colour (MTL Kd, glTF baseColorFactor rgb, book albedo). */
  kd: Vec3;
  /** Specular colour (MTL Ks). */
  ks: Vec3;
  /** Emission (MTL Ke, glTF emissiveFactor); non-zero for lights. */
  ke: Vec3;
  /** Ambient (MTL Ka); some Cornell boxes encode the light here. */
  ka: Vec3;
  /** Phong exponent (MTL Ns). */
  shininess: number;
  /** Metal fuzz (book) or glTF roughness, in [0, 1]. */
  roughness: number;
  /** glTF metallic factor; 1 for book metals, 0 otherwise. */
  metallic: number;
  /** Index of refraction (MTL Ni, book dielectric refraction index). */
  ior: number;
  /** Opacity (MTL d, glTF alpha), 1 = opaque. */
  opacity: number;
  /** MTL illumination model, 2 when unknown. */
  illum: number;
  /** Diffuse / base-colour texture (MTL map_Kd, glTF baseColorTexture), -1 for none. */
  textureIndex: number;
}

export interface Texture {
  /** Absolute path of the image file, or a `<name>#embedded` label for glTF-embedded images. */
  path: string;
  /** Encoded image bytes for textures embedded in a glTF, absent for files on disk. */
  data?: Uint8Array;
  mimeType?: string;
}

export interface TriangleMesh {
  name: string;
  positions: Float32Array;
  normals?: Float32Array;
  uvs?: Float32Array;
  /** Per-vertex RGB (OBJ `v x y z r g b`), 3 floats per vertex, when the file has them. */
  colors?: Float32Array;
  indices: Uint32Array;
  /** One material id per triangle. */
  materialIds: Uint32Array;
  /** VK_GEOMETRY_OPAQUE_BIT_KHR of the mesh's geometry (default true). */
  opaque: boolean;
}

export type ProceduralKind = 'sphere' | 'box';

export interface ProceduralGeometry {
  name: string;
  kind: ProceduralKind;
  /** 6 floats per primitive: the AABB handed to the BLAS build. */
  aabbs: Float32Array;
  /** Intersection-shader data: spheres 4 floats (centre, radius), boxes 6 floats (min, max). */
  params: Float32Array;
  /** One material id per primitive. */
  materialIds: Uint32Array;
  /** VK_GEOMETRY_OPAQUE_BIT_KHR (default true). */
  opaque: boolean;
}

/** VkGeometryInstanceFlagBitsKHR. */
export const INSTANCE_FLAG = {
  triangleFacingCullDisable: 0x1,
  /** Also named TRIANGLE_FRONT_COUNTERCLOCKWISE. */
  triangleFlipFacing: 0x2,
  forceOpaque: 0x4,
  forceNoOpaque: 0x8,
} as const;

export interface Instance {
  /** Which geometry list `geometryIndex` refers to. */
  source: 'mesh' | 'procedural';
  /** Index into `Scene.meshes` or `Scene.procedurals`. */
  geometryIndex: number;
  /** 12 floats, 3x4 row-major object-to-world. */
  transform: Float32Array;
  /** gl_InstanceCustomIndexEXT (24 bits). */
  customIndex: number;
  /** 8-bit visibility mask tested against the ray's cull mask. */
  mask: number;
  /** instanceShaderBindingTableRecordOffset (24 bits). */
  sbtOffset: number;
  /** `INSTANCE_FLAG` bits. */
  flags: number;
}

export interface Camera {
  lookFrom: Vec3;
  lookAt: Vec3;
  up: Vec3;
  /** Vertical field of view in degrees. */
  vfov: number;
  aperture: number;
  focusDistance: number;
}

/**
 * One model file of a multi-model scene (manifest `scene.models`): which meshes, materials and
 * textures of the concatenated scene came from it. Its meshes' material ids and its materials'
 * texture indices are scene-wide (offset by `firstMaterial` / `firstTexture`).
 */
export interface SceneModel {
  name: string;
  firstMesh: number;
  meshCount: number;
  firstMaterial: number;
  materialCount: number;
  firstTexture: number;
  textureCount: number;
}

export interface Scene {
  name: string;
  /** Present for scenes made of several model files; absent means one model per mesh. */
  models?: SceneModel[];
  meshes: TriangleMesh[];
  procedurals: ProceduralGeometry[];
  materials: Material[];
  textures: Texture[];
  instances: Instance[];
  /** A sensible default view when the source defines one (procedural scenes, glTF cameras). */
  camera?: Camera;
}

/** The 3x4 row-major identity transform. */
export function identityTransform(): Float32Array {
  return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
}

/** A material with the neutral defaults every loader starts from. */
export function defaultMaterial(name: string): Material {
  return {
    name,
    type: 'lambertian',
    kd: [0.8, 0.8, 0.8],
    ks: [0, 0, 0],
    ke: [0, 0, 0],
    ka: [0, 0, 0],
    shininess: 0,
    roughness: 1,
    metallic: 0,
    ior: 1,
    opacity: 1,
    illum: 2,
    textureIndex: -1,
  };
}

/** One instance per mesh and per procedural geometry with identity transforms (loaders' default). */
export function defaultInstances(meshCount: number, proceduralCount: number): Instance[] {
  const out: Instance[] = [];
  for (let i = 0; i < meshCount; i++) {
    out.push({ source: 'mesh', geometryIndex: i, transform: identityTransform(), customIndex: i, mask: 0xff, sbtOffset: 0, flags: 0 });
  }
  for (let i = 0; i < proceduralCount; i++) {
    out.push({ source: 'procedural', geometryIndex: i, transform: identityTransform(), customIndex: meshCount + i, mask: 0xff, sbtOffset: 0, flags: 0 });
  }
  return out;
}

/** Total triangle count over all meshes (not instances). */
export function sceneTriangleCount(scene: Scene): number {
  let n = 0;
  for (const m of scene.meshes) n += m.indices.length / 3;
  return n;
}
