/**
 * The workload manifest: the host side of a Vulkan ray tracing application written as data
 * (DESIGN.md "Workloads"). `loadManifest` turns a `workload.json` into a `WorkloadManifest`;
 * everything downstream (compiler driver, scene builder, simulator) reads only this type.
 *
 * Invariants of a `WorkloadManifest` returned by `loadManifest`:
 * - every file path is absolute and the file existed when the manifest was loaded;
 * - every shader named by `raygen`, `hitGroups`, `miss` and `callables` appears in `shaders`
 *   under the stage its role requires;
 * - descriptor (set, binding) pairs are unique; a procedural hit group has an intersection shader,
 *   a triangle hit group has none;
 * - numbers that are sizes, counts, indices or ids are non-negative integers.
 * The JSON spelling of each field is the same as here unless a comment says otherwise.
 */
import type { AccelerationStructuresSpec } from './acceleration-structures.js';

/** Shader stages by the names the IR uses (src/ir/module.ts `Stage`, compute excluded). */
/**
 * The manifest's `"compiler"` values: whose command-line conventions compile a shader. The GLSL
 * front end implements them (src/frontend/glsl/conventions.ts); the host side only names them.
 */
export type ShaderCompiler = 'glslangValidator' | 'glslc';
export const SHADER_COMPILERS: readonly ShaderCompiler[] = ['glslangValidator', 'glslc'];

export type ShaderStage = 'raygen' | 'closestHit' | 'anyHit' | 'intersection' | 'miss' | 'callable';

export const SHADER_STAGES: readonly ShaderStage[] = ['raygen', 'closestHit', 'anyHit', 'intersection', 'miss', 'callable'];

/** glslang's file-extension convention for each stage. */
export const STAGE_EXTENSION: Readonly<Record<ShaderStage, string>> = {
  raygen: '.rgen', closestHit: '.rchit', anyHit: '.rahit', intersection: '.rint', miss: '.rmiss', callable: '.rcall',
};

/** Any JSON value, as a manifest holds for buffer contents. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** One shader file. JSON: a path string, or `{file, defines?, includeDirs?, compiler?}`. */
export interface ShaderSource {
  /** Absolute path. */
  file: string;
  stage: ShaderStage;
  /** Manifest-wide defines merged with this shader's own (the shader's win). Values are preprocessor text. */
  defines: Record<string, string>;
  /** Absolute directories searched after the including file's own directory: the shader's first, then the manifest's. */
  includeDirs: string[];
  /**
   * Whose conventions compile it (JSON `"compiler"`, per shader or for the whole workload):
   * glslangValidator's (default) or glslc's (`#include` without the extension directive; any file
   * extension, the stage being the one it is listed under). Absent means glslangValidator's.
   */
  conventions?: ShaderCompiler;
}

/** Data a shader record carries after its handle (`shaderRecordEXT` block), as JSON matching that block. */
export type ShaderRecordData = JsonObject;

/**
 * A hit group of the SBT. Selected by traceRayEXT as
 * `instance.sbtOffset + sbtRecordOffset + geometryIndex * sbtRecordStride`.
 */
export interface HitGroup {
  type: 'triangles' | 'procedural';
  /** Absolute shader paths; each is listed in `shaders` under its stage. */
  closestHit?: string;
  anyHit?: string;
  /** Required iff `type` is 'procedural'. */
  intersection?: string;
  shaderRecord?: ShaderRecordData;
}

/** A miss or callable SBT entry. JSON: a path string or `{shader, shaderRecord?}`. */
export interface SbtShaderEntry {
  shader: string;
  shaderRecord?: ShaderRecordData;
}

/**
 * `{camera: ...}` in a uniform buffer: fills the block's camera members by name — any of `view`,
 * `proj`, `viewProj`, `viewInverse`, `projInverse` (mat4) and `position` / `eye` (vec3 or vec4) —
 * or the members `members` maps them to (see camera.ts).
 */
export interface CameraSpec {
  /** Eye position. */
  lookFrom: [number, number, number];
  lookAt: [number, number, number];
  /** Default [0, 1, 0]. */
  up: [number, number, number];
  /** Vertical field of view in degrees, 0 < fovY < 180. */
  fovY: number;
  /** Clip planes of the projection; only its inverse reaches the shader. Defaults 0.1 and 1000. */
  near: number;
  far: number;
  /**
   * Negate the projection's y scale (Vulkan's clip space y points down), so launch row 0 is the
   * top of the image. Default true; false uploads glm::perspective unflipped, as applications that
   * flip Y in their geometry instead do.
   */
  flipY?: boolean;
  /** Camera quantity -> the block member (dotted path) that receives it, e.g. `{"viewProj": "ubo.viewProjection"}`. */
  members?: Partial<Record<CameraQuantity, string>>;
}

/** What the camera helper can compute (camera.ts). */
export const CAMERA_QUANTITIES = ['view', 'proj', 'viewProj', 'viewInverse', 'projInverse', 'position'] as const;
export type CameraQuantity = (typeof CAMERA_QUANTITIES)[number];

export type StorageImageRole = 'output' | 'accumulation' | 'scratch';

/**
 * Multi-frame runs: what the host does to a storage image or buffer before each frame after the
 * first. 'keep' (default): nothing, its content persists as device memory does (accumulation);
 * 'clear': zero it; 'upload': copy its manifest content in again (images start as zeros, so for
 * an image it is 'clear').
 */
export type EachFrame = 'keep' | 'clear' | 'upload';
export const EACH_FRAME = ['keep', 'clear', 'upload'] as const;

/**
 * One frame's changes to a uniform buffer (`perFrame[i]` applies to frame i; frames past the list
 * use its last entry): `members` written over the block after its base content and `members`
 * (a sample offset, a frame counter), `camera` fields replacing the `camera`'s (a camera path).
 */
export interface FrameOverride {
  members?: JsonObject;
  camera?: Partial<Omit<CameraSpec, 'members'>>;
}

/** Image formats a storage image may declare (GLSL layout names). */
export const STORAGE_IMAGE_FORMATS = ['rgba8', 'rgba16f', 'rgba32f', 'r32f', 'rg32f', 'r32ui', 'rgba32ui'] as const;
export type StorageImageFormat = (typeof STORAGE_IMAGE_FORMATS)[number];

/**
 * A storage image's format as the host code spells it (`VK_FORMAT_B8G8R8A8_UNORM` without the
 * prefix), for the GLSL layout name above. BGRA and RGBA hold the same channels for a shader; only
 * the bytes' order in memory differs, which nothing here observes.
 */
export const STORAGE_IMAGE_VK_FORMATS: Readonly<Record<string, StorageImageFormat>> = {
  R8G8B8A8_UNORM: 'rgba8', B8G8R8A8_UNORM: 'rgba8', R16G16B16A16_SFLOAT: 'rgba16f', R32G32B32A32_SFLOAT: 'rgba32f',
  R32_SFLOAT: 'r32f', R32G32_SFLOAT: 'rg32f', R32_UINT: 'r32ui', R32G32B32A32_UINT: 'rgba32ui',
};

/** What a storage buffer can be packed from when it comes from the scene. See SCENE_BUFFER_FIELDS. */
export const SCENE_BUFFER_KINDS = [
  'vertices', 'indices', 'materials', 'materialIndices', 'instanceDescriptions', 'models', 'aabbs', 'spheres', 'lights',
] as const;
export type SceneBufferKind = (typeof SCENE_BUFFER_KINDS)[number];

/**
 * The record the scene provides for one element of each scene buffer kind: field name -> GLSL
 * type. The packer writes a field into the shader's struct member of the same name (or the name
 * `fields` maps it to), so a shader may declare any subset, in any order and layout.
 * This is the contract between the scene builder (src/sim/rt) and the built-in shaders.
 */
export const SCENE_BUFFER_FIELDS: Readonly<Record<SceneBufferKind, Readonly<Record<string, string>>>> = {
  /** One per vertex of all meshes, concatenated in instance order. */
  vertices: { position: 'vec3', normal: 'vec3', texCoord: 'vec2' },
  /** One per triangle: the three vertex indices, relative to the mesh's first vertex. Element type uvec3 (or 3 uints). */
  indices: { '': 'uvec3' },
  /** OBJ/MTL materials (procedural generators fill the same fields). `type`: 0 lambertian, 1 metal, 2 dielectric, 3 emissive. */
  materials: {
    ambient: 'vec3', diffuse: 'vec3', specular: 'vec3', transmittance: 'vec3', emission: 'vec3',
    shininess: 'float', ior: 'float', dissolve: 'float', illum: 'int', textureId: 'int',
    type: 'int', fuzz: 'float',
  },
  /** One per triangle: index into the mesh's materials. */
  materialIndices: { '': 'int' },
  /** One per instance (nvpro ObjDesc): device addresses of that instance's buffers. */
  instanceDescriptions: {
    vertexAddress: 'uint64_t', indexAddress: 'uint64_t', materialAddress: 'uint64_t', materialIndexAddress: 'uint64_t',
    firstVertex: 'uint', firstIndex: 'uint', firstMaterial: 'uint',
  },
  /**
   * One per model of `scene.models` (one per mesh otherwise): where the model starts in the
   * scene-wide buffers and how many of each it has. With `"model"`, per-model buffers hold
   * model-local material and texture indices, so `firstMaterial` / `firstTexture` are the offsets
   * a shader adds (nvpro's `txtOffset`). The address fields point into the scene-wide buffers.
   */
  models: {
    vertexAddress: 'uint64_t', indexAddress: 'uint64_t', materialAddress: 'uint64_t', materialIndexAddress: 'uint64_t',
    firstVertex: 'uint', firstIndex: 'uint', firstTriangle: 'uint', firstMaterial: 'uint', firstTexture: 'uint',
    vertexCount: 'uint', indexCount: 'uint', triangleCount: 'uint', materialCount: 'uint', textureCount: 'uint',
  },
  /** One per procedural primitive (VkAabbPositionsKHR). */
  aabbs: { minimum: 'vec3', maximum: 'vec3' },
  /** One per procedural sphere primitive; `material` indexes `materials`. */
  spheres: { center: 'vec3', radius: 'float', material: 'int' },
  /** Emissive triangles or analytic lights of the scene. */
  lights: { position: 'vec3', color: 'vec3', intensity: 'float', type: 'int' },
};

/**
 * Record fields packed by name only: they are not part of the fixed layout a buffer gets when
 * neither a shader nor `struct` gives one (that layout is `SCENE_BUFFER_FIELDS` in order and stays
 * as it is). Vertex `color` is the OBJ's `v x y z r g b` colour, white when absent.
 */
export const SCENE_BUFFER_EXTRA_FIELDS: Readonly<Partial<Record<SceneBufferKind, Readonly<Record<string, string>>>>> = {
  vertices: { color: 'vec3' },
  /** The model (`models` record) the instance draws. */
  instanceDescriptions: { model: 'uint' },
  /** The scene-wide material of the model's first triangle (a glTF mesh primitive's material: nvpro's PrimMeshInfo.materialIndex). */
  models: { material: 'int' },
};

/** Every field a record of `kind` has: the fixed-layout fields, then the extra ones. */
export function sceneFields(kind: SceneBufferKind): Readonly<Record<string, string>> {
  return { ...SCENE_BUFFER_FIELDS[kind], ...(SCENE_BUFFER_EXTRA_FIELDS[kind] ?? {}) };
}

export type DescriptorContent =
  | { kind: 'accelerationStructure' }
  | { kind: 'storageImage'; format: StorageImageFormat; role: StorageImageRole; eachFrame?: EachFrame }
  /**
   * Exactly one of `value` (JSON matching the block), `camera` and `data` (absolute path of the
   * block's raw bytes, .bin or .bin.gz, as a real host uploads them). `members` then overwrites
   * single members by name (`"Camera.Width"`, or `"Width"` inside a block whose only member is a
   * struct) with JSON values; strings "${width}", "${height}", "${spp}", "${bounces}", "${seed}"
   * are run parameters, so launch options reach the fields the application keeps them in.
   */
  | {
    kind: 'uniformBuffer'; layout: 'std140' | 'std430' | 'scalar'; value?: JsonObject; camera?: CameraSpec; data?: string; members?: JsonObject;
    perFrame?: FrameOverride[];
  }
  | StorageBufferContent
  /**
   * One texture per array element (`sampler2D textures[]`), in the application's order; `"scene"`:
   * the scene's textures in the order its materials' texture ids count them (the MTL `map_Kd`
   * files, glTF base-colour textures, models concatenated), as an application uploads them.
   */
  | {
      kind: 'sampledImages'; files: TextureFile[] | 'scene'; filter: 'linear' | 'nearest'; wrap: 'repeat' | 'clampToEdge';
      /**
       * The VkFormat the host creates the images with: `R8G8B8A8_UNORM` (default: texels read as
       * stored) or `R8G8B8A8_SRGB` (8-bit colour channels decoded from sRGB to linear before
       * filtering, as the sampler does; alpha stays linear). Float textures are never converted.
       */
      format?: SampledImageFormat;
      /**
       * `none` (default): level 0 only, every LOD samples it. `generate`: the full mip chain down to
       * 1x1, each level the 2x2 box average of the level above (odd sizes drop the last row or
       * column), as an application generates it before upload; LODs select levels as
       * VK_SAMPLER_MIPMAP_MODE_NEAREST does. `file`: the levels a KTX2 file stores (a file without
       * levels beyond 0, or a PNG / JPEG, is an error). The device host uploads the same levels.
       */
      mipmaps?: SampledImageMipmaps;
    };

export const SAMPLED_IMAGE_FORMATS = ['R8G8B8A8_UNORM', 'R8G8B8A8_SRGB'] as const;
export const SAMPLED_IMAGE_MIPMAPS = ['none', 'generate', 'file'] as const;
export type SampledImageMipmaps = (typeof SAMPLED_IMAGE_MIPMAPS)[number];
export type SampledImageFormat = (typeof SAMPLED_IMAGE_FORMATS)[number];

/**
 * A storage buffer's content, as a storage-buffer descriptor or a `buffers` entry gives it.
 * Exactly one of `from: 'scene'` (with `what`), `data` (absolute path of a .json value or a raw
 * .bin image of the buffer, either optionally gzip'd as .json.gz / .bin.gz), `value` (inline
 * JSON) and `elements`. `fields` maps the element's members to scene fields
 * (`{shaderMember: sceneField}`) or to an address (`{shaderMember: {addressOf, ...}}`, where
 * `{model}` in the name stands for the record's model index).
 * The element layout is the block of the shader that binds the buffer; for a buffer no shader
 * binds, `struct` names a GLSL struct of the application's shaders (the element of the array the
 * shaders read it as), or `element` a scalar or vector type. Any 64-bit value may be an `AddressOf`.
 */
export interface StorageBufferContent {
  kind: 'storageBuffer';
  layout: 'std430' | 'scalar';
  from?: 'scene';
  what?: SceneBufferKind;
  fields?: Record<string, SceneFieldSource>;
  /**
   * Scalar or vector elements of a record kind with several fields (vertices, materials): the one
   * field each element holds, as hosts that keep positions, normals and texture coordinates in
   * separate buffers upload them (`"what": "vertices", "field": "normal"` for `vec3 n[]`).
   */
  field?: string;
  /** Only that model's (or mesh's) records, with model-local material / texture indices. */
  model?: number;
  data?: string;
  value?: JsonValue;
  /** Element count for a buffer the shader writes (no initial content). */
  elements?: number;
  /** Multi-frame runs: kept, cleared or uploaded again before each frame after the first (default 'keep'). */
  eachFrame?: EachFrame;
  /** Name other values use in `{"addressOf": id}` (descriptors); `buffers` entries use their `name`. */
  id?: string;
  struct?: string;
  element?: ElementType;
  /**
   * The element as the host's C/C++ struct declares it (JSON: `{"pos": "vec3", "normal": "vec3",
   * "uv": "vec2", "color": "vec4", ...}` in declaration order), laid out by `layout` ("scalar": tightly,
   * as glm types in a C++ struct; "std430": GLSL's rules). Wins over the shader's block, as a
   * host's buffer does when the shader pulls vertices through a generic `vec4 v[]`.
   */
  hostStruct?: HostStructMember[];
}

/** One member of a `hostStruct`, in declaration order. */
export interface HostStructMember {
  name: string;
  type: ElementType;
}

/**
 * What fills an element member from scene records: a scene field's name, a buffer's address, or a
 * constant (a number or an array of numbers, e.g. `[0, 0, 0, 0]` for a host struct's unused tangent).
 */
export type SceneFieldSource = string | AddressOf | number | number[];

/** GLSL scalar and vector types a buffer's `element` may name (tightly packed, scalar layout). */
export const ELEMENT_TYPES = [
  'float', 'double', 'int', 'uint', 'int64_t', 'uint64_t', 'int16_t', 'uint16_t', 'uint8_t',
  'vec2', 'vec3', 'vec4', 'ivec2', 'ivec3', 'ivec4', 'uvec2', 'uvec3', 'uvec4',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/**
 * JSON `{"addressOf": "<buffer name>", "offset": n, "element": k}` in place of any 64-bit value:
 * the device address of that buffer plus `offset` bytes plus `element` times its element stride,
 * from the host's address plan.
 */
export interface AddressOf {
  addressOf: string;
  offset: number;
  element: number;
}

/** A buffer of the `buffers` section: exists in device memory whether or not a descriptor binds it. */
export interface NamedBuffer {
  name: string;
  /** Manifest key of the entry (`buffers[2]`), for messages. */
  key: string;
  content: StorageBufferContent;
}

/** An absolute PNG path, or raw R8G8B8A8 texels (`.rgba8`, `.rgba8.gz`) of the given size. */
export type TextureFile = string | { file: string; width: number; height: number };

export type DescriptorBinding = { set: number; binding: number } & DescriptorContent;

export interface InstanceSpec {
  /** Which mesh of the scene: an index, or a name (OBJ object/group, procedural generator mesh name). */
  mesh: number | string;
  /** 3x4 row-major object-to-world matrix (VkTransformMatrixKHR). Default identity. */
  transform: number[];
  customIndex: number;
  /** 8-bit visibility mask. Default 0xFF. */
  mask: number;
  /** instanceShaderBindingTableRecordOffset. */
  sbtOffset: number;
  flags: InstanceFlag[];
}

export const INSTANCE_FLAGS = ['triangleFacingCullDisable', 'triangleFlipFacing', 'forceOpaque', 'forceNoOpaque'] as const;
export type InstanceFlag = (typeof INSTANCE_FLAGS)[number];

export const PROCEDURAL_SCENES = ['wknd', 'cornell', 'rtv6', 'tri'] as const;
export type ProceduralScene = (typeof PROCEDURAL_SCENES)[number];

/** JSON: `{obj: 'x.obj'}`, `{gltf: 'x.gltf'}` or `{procedural: 'wknd', seed}`, plus `instances`. */
export type SceneSource =
  | { kind: 'obj'; file: string }
  | { kind: 'gltf'; file: string }
  | { kind: 'procedural'; generator: ProceduralScene; seed: number };

/** One model of `scene.models`: its own file, BLAS and instance, and its own object description. */
export interface ModelSpec {
  /** Name for messages and `instances[].mesh`; default the file's base name. */
  name: string;
  source: { kind: 'obj'; file: string } | { kind: 'gltf'; file: string };
  /** 3x4 row-major object-to-world matrix of the model's instance. Default identity. */
  transform: number[];
  /** gl_InstanceCustomIndexEXT of its instance; default the model's index. */
  customIndex?: number;
  mask: number;
  sbtOffset: number;
  flags: InstanceFlag[];
}

export interface SceneSpec {
  /** Absent iff `models` is given. */
  source?: SceneSource;
  /** Several model files, concatenated in this order (meshes, materials, textures). */
  models?: ModelSpec[];
  /** Empty means one instance per mesh with the defaults above. */
  instances: InstanceSpec[];
  /** Geometry flag: opaque (no any-hit calls) unless false. Default true. */
  opaque: boolean;
  /** What the application's model loader does to the geometry (src/sim/host/scene-conversions.ts). */
  conversions?: SceneConversion[];
  /**
   * 'mesh': the file's own instances (no `instances` given) get their mesh's index as
   * gl_InstanceCustomIndexEXT, as hosts that index a per-mesh table by it do (nvpro's glTF
   * tutorial: `instanceCustomIndex = node.primMesh`). Default: their order.
   */
  customIndexFrom?: 'mesh';
}

/**
 * Model-loader conversions, named as Sascha Willems' vkglTF `FileLoadingFlags`, plus `srgbToLinear`:
 * material colours and vertex colours decoded from sRGB, as hosts that author colours in sRGB do,
 * and `materialColorsPow22`: material Ka, Kd, Ks raised to 2.2, as nvpro-samples' loadModel does.
 */
export const SCENE_CONVERSIONS = ['preTransformVertices', 'flipY', 'preMultiplyVertexColors', 'srgbToLinear', 'materialColorsPow22'] as const;
export type SceneConversion = (typeof SCENE_CONVERSIONS)[number];

export interface LaunchSize {
  width: number;
  height: number;
  depth: number;
}

export interface WorkloadManifest {
  /**
   * Acceleration structures declared as a Vulkan application builds them (acceleration-structures.ts).
   * When present the host builds these instead of deriving BLAS/TLAS from `scene`; the scene still
   * fills scene buffers and names materials.
   */
  accelerationStructures?: AccelerationStructuresSpec;
  /** Absolute path of the workload.json this came from. */
  path: string;
  name: string;
  description: string;
  /** Every shader, by stage, in listing order. */
  shaders: Record<ShaderStage, ShaderSource[]>;
  /** The raygen shader launched (absolute path). JSON optional when exactly one raygen shader is listed. */
  raygen: string;
  raygenShaderRecord?: ShaderRecordData;
  /** SBT hit region, in order. */
  hitGroups: HitGroup[];
  /** SBT miss region, in order (missIndex of traceRayEXT). */
  miss: SbtShaderEntry[];
  /** SBT callable region, in order (the index of executeCallableEXT). */
  callables: SbtShaderEntry[];
  /** VkRayTracingPipelineCreateInfoKHR::maxPipelineRayRecursionDepth, >= 1. */
  maxRecursionDepth: number;
  descriptors: DescriptorBinding[];
  /**
   * Buffers by name (`buffers` section), placed after the descriptors' buffers; none need be bound.
   * `loadManifest` always sets it; optional so manifests built in code need not.
   */
  buffers?: NamedBuffer[];
  /**
   * JSON matching the push_constant block; "${...}" strings are run parameters
   * (run-placeholders.ts: "${spp}", "${frame}", "${(frame + 1) * spp}", ...).
   */
  pushConstants?: JsonObject;
  /** Multi-frame runs: entry i is written over `pushConstants` for frame i (frames past the list use its last entry). */
  perFramePushConstants?: JsonObject[];
  /**
   * Trace-rays launches the run issues, one per frame, back to back (default 1). Device memory
   * (images, buffers) persists between them unless a resource's `eachFrame` says otherwise;
   * uniform buffers and push constants are written again before each frame.
   */
  frames?: number;
  /** constant_id -> value. JSON keys are decimal strings. */
  specConstants: Record<number, number | boolean>;
  /** Absent only when `accelerationStructures` declares all geometry (then no buffer comes `from: 'scene'`). */
  scene?: SceneSpec;
  launch: LaunchSize;
  /** Samples per pixel, >= 1. */
  spp: number;
  /** Maximum path length the shaders are asked for, >= 0. */
  bounces: number;
  seed: number;
  /** How the application's float operations are evaluated (src/sim/functional/float-model.ts); default 'ieee'. */
  floatModel: 'ieee' | 'gpu';
}

/** Thrown by `loadManifest`/`resolveWorkload`; `problems` holds every problem found, each naming its key path. */
export class ManifestError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.length === 1 ? problems[0]! : `${problems.length} problems:\n  ${problems.join('\n  ')}`);
    this.name = 'ManifestError';
    this.problems = problems;
  }
}
