/**
 * The workload manifest's shape, described once with zod: every key, its JSON type, its allowed
 * values and a one-line description. Two things come from it:
 * - `workloads/workload.schema.json` (JSON Schema draft-07, `manifestJsonSchema()`), which editors use
 *   to complete and check a `workload.json` (`"$schema": ".../workload.schema.json"`);
 * - the key lists the validator accepts (`keysOf`), so validate-*.ts cannot accept a key the schema
 *   lacks or the reverse.
 * The validator (validate-manifest.ts) still owns the checks a schema cannot say with a message a
 * Vulkan developer understands (files exist, shaders listed under their stage, unique bindings,
 * exactly one content source, key path + expected + found in every message).
 * Invariant: every manifest `loadManifest` accepts also parses here (test/sim/workload/manifest-schema.test.ts).
 */
import { z } from 'zod';
import {
  CAMERA_QUANTITIES, EACH_FRAME, ELEMENT_TYPES, INSTANCE_FLAGS, PROCEDURAL_SCENES, SAMPLED_IMAGE_FORMATS, SCENE_BUFFER_KINDS, SCENE_CONVERSIONS,
  SHADER_COMPILERS, SHADER_STAGES, STORAGE_IMAGE_FORMATS,
} from './manifest.js';

const count = z.int().min(0);
const notes = z.string().describe('Free text for people; ignored');
/** A run parameter placeholder ("${spp}") or any JSON: buffer and push-constant values. */
const jsonValue = z.unknown().describe('JSON matching the block\'s layout; strings "${width}", "${height}", "${depth}", "${spp}", "${bounces}", "${seed}" are run parameters where documented; a 64-bit value may be {"addressOf": name}; a float may be its raw bits "0x3f800000" or a hex float "0x1.8p+1"');
const jsonObject = z.record(z.string(), z.unknown());
const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const transform3x4 = z.union([
  z.array(z.number()).length(12),
  z.tuple([z.array(z.number()).length(4), z.array(z.number()).length(4), z.array(z.number()).length(4)]),
]).describe('3x4 row-major object-to-world matrix (VkTransformMatrixKHR): 12 numbers or 3 rows of 4');
const defines = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).describe('Preprocessor defines: name -> value');

export const shaderSourceSchema = z.strictObject({
  file: z.string().describe('Shader file, relative to the manifest (.rgen .rchit .rmiss .rahit .rint .rcall, or .spv)'),
  defines: defines.optional(),
  includeDirs: z.array(z.string()).optional().describe('Directories searched for #include, before the manifest\'s'),
  compiler: z.enum(SHADER_COMPILERS).optional().describe('Whose command-line conventions compile it'),
});

export const sbtEntrySchema = z.strictObject({
  shader: z.string().describe('A shader listed under this stage in "shaders"'),
  shaderRecord: jsonObject.optional().describe('shaderRecordEXT data, JSON matching the block'),
});

export const hitGroupSchema = z.strictObject({
  type: z.enum(['triangles', 'procedural']).optional().describe('Default "triangles"'),
  closestHit: z.string().optional(),
  anyHit: z.string().optional(),
  intersection: z.string().optional().describe('Required for "procedural"'),
  shaderRecord: jsonObject.optional(),
});

const addressOfSchema = z.strictObject({
  addressOf: z.string().describe('Name of a buffer ("buffers" entry or a storage buffer\'s "id"); "{model}" stands for the record\'s model'),
  offset: count.optional().describe('Bytes added to the address'),
  element: count.optional().describe('Elements (of the buffer\'s element size) added to the address'),
});

export const cameraSchema = z.strictObject({
  lookFrom: vec3.describe('Eye position'),
  lookAt: vec3,
  up: vec3.optional().describe('Default [0, 1, 0]'),
  fovY: z.number().describe('Vertical field of view in degrees'),
  near: z.number().optional().describe('Default 0.1'),
  far: z.number().optional().describe('Default 1000'),
  flipY: z.boolean().optional().describe('Negate the projection\'s y (Vulkan clip space), default true; false: glm::perspective as it is'),
  members: z.partialRecord(z.enum(CAMERA_QUANTITIES), z.string()).optional().describe('Camera quantity -> block member that receives it'),
});

const descriptorCommon = {
  set: count.optional().describe('Descriptor set, default 0'),
  binding: count.describe('layout(binding = N) of the shader variable'),
  name: z.string().optional().describe('For people: the shader variable\'s name'),
  notes: notes.optional(),
};

export const storageBufferContentShape = {
  layout: z.enum(['std430', 'scalar']).optional().describe('Default std430'),
  from: z.literal('scene').optional().describe('Pack records of the scene (with "what")'),
  what: z.enum(SCENE_BUFFER_KINDS).optional(),
  fields: z.record(z.string(), z.union([z.string(), addressOfSchema, z.number(), z.array(z.number())])).optional()
    .describe('Element member -> scene field name, {"addressOf": ...}, or a constant'),
  model: count.optional().describe('Only this model\'s records (scene.models)'),
  data: z.string().optional().describe('A .json value or raw .bin bytes, optionally .gz'),
  value: jsonValue.optional(),
  elements: z.int().min(1).optional().describe('Element count of a buffer the shaders write'),
  struct: z.string().optional().describe('GLSL struct of the shaders that lays out an element (unbound buffers)'),
  element: z.enum(ELEMENT_TYPES).optional().describe('Scalar or vector element type (unbound buffers)'),
  hostStruct: z.record(z.string(), z.enum(ELEMENT_TYPES)).optional()
    .describe('The element as the host\'s C/C++ struct declares it: member -> type, in order; laid out by "layout"'),
  eachFrame: z.enum(EACH_FRAME).optional().describe('Multi-frame runs: kept (default), cleared or uploaded again before each frame after the first'),
};

const textureFile = z.union([
  z.string().describe('.png, .jpg / .jpeg or .ktx2'),
  z.strictObject({ file: z.string().describe('Raw R8G8B8A8 texels, .rgba8 or .rgba8.gz'), width: z.int().min(1), height: z.int().min(1) }),
]);

export const descriptorSchemas = {
  accelerationStructure: z.strictObject({ ...descriptorCommon, kind: z.literal('accelerationStructure') }),
  storageImage: z.strictObject({
    ...descriptorCommon, kind: z.literal('storageImage'),
    format: z.enum(STORAGE_IMAGE_FORMATS),
    role: z.enum(['output', 'accumulation', 'scratch']).optional().describe('Default "output": written as image.png'),
    eachFrame: z.enum(EACH_FRAME).optional().describe('Multi-frame runs: kept (default), cleared or uploaded again before each frame after the first'),
  }),
  uniformBuffer: z.strictObject({
    ...descriptorCommon, kind: z.literal('uniformBuffer'),
    layout: z.enum(['std140', 'std430', 'scalar']).optional().describe('Default std140'),
    value: jsonObject.optional().describe('JSON matching the block ("${spp}"-style run parameters allowed)'),
    camera: cameraSchema.optional(),
    data: z.string().optional().describe('The block\'s raw bytes, .bin or .bin.gz, kept whole'),
    members: jsonObject.optional().describe('Member path -> value, written after value / camera / data'),
    perFrame: z.array(z.strictObject({ members: jsonObject.optional(), camera: jsonObject.optional() })).min(1).optional()
      .describe('Multi-frame runs: frame i\'s member / camera changes (frames past the list use its last entry)'),
  }),
  storageBuffer: z.strictObject({
    ...descriptorCommon, kind: z.literal('storageBuffer'), ...storageBufferContentShape,
    id: z.string().optional().describe('Name other values use in {"addressOf": id} and BLAS inputs use in {"buffer": id}'),
  }),
  sampledImages: z.strictObject({
    ...descriptorCommon, kind: z.literal('sampledImages'),
    files: z.union([z.literal('scene'), z.array(textureFile)]).describe('One image per array element, or "scene"'),
    filter: z.enum(['linear', 'nearest']).optional(),
    wrap: z.enum(['repeat', 'clampToEdge']).optional(),
    format: z.enum(SAMPLED_IMAGE_FORMATS).optional().describe('Default R8G8B8A8_UNORM; _SRGB decodes colour to linear before filtering'),
  }),
} as const;

export const namedBufferSchema = z.strictObject({
  name: z.string().describe('Name used by {"addressOf": name} and {"buffer": name}'),
  notes: notes.optional(),
  ...storageBufferContentShape,
});

const instanceShape = {
  transform: transform3x4.optional(),
  customIndex: count.optional().describe('gl_InstanceCustomIndexEXT (24 bits)'),
  mask: count.optional().describe('8-bit visibility mask, default 255'),
  sbtOffset: count.optional().describe('instanceShaderBindingTableRecordOffset'),
  flags: z.array(z.enum(INSTANCE_FLAGS)).optional(),
};

export const instanceSchema = z.strictObject({ mesh: z.union([count, z.string()]).optional().describe('Mesh index or name'), ...instanceShape });

export const modelSchema = z.strictObject({
  obj: z.string().optional(), gltf: z.string().optional(), name: z.string().optional(), notes: notes.optional(), ...instanceShape,
});

export const sceneSchema = z.strictObject({
  obj: z.string().optional().describe('OBJ/MTL file'),
  gltf: z.string().optional().describe('glTF file (.gltf or .glb)'),
  procedural: z.enum(PROCEDURAL_SCENES).optional(),
  seed: count.optional().describe('Seed of a procedural scene'),
  models: z.array(modelSchema).optional().describe('Several model files, concatenated in order'),
  instances: z.array(instanceSchema).optional(),
  opaque: z.boolean().optional().describe('Geometry opaque flag, default true'),
  conversions: z.array(z.enum(SCENE_CONVERSIONS)).optional().describe('What the application\'s model loader does (vkglTF FileLoadingFlags)'),
  notes: notes.optional(),
});

const bufferData = z.union([
  z.string().describe('A .bin (raw) or .json (numbers) file'),
  z.array(z.number()),
  z.strictObject({ buffer: z.string().describe('A named buffer, as the host packs it'), offset: count.optional() }),
]);

export const trianglesGeometrySchema = z.strictObject({
  type: z.literal('triangles'),
  vertexData: bufferData,
  vertexFormat: z.enum(['R32G32B32_SFLOAT', 'R32G32B32A32_SFLOAT', 'R32G32_SFLOAT']).optional(),
  vertexStride: z.int().min(1).optional(),
  maxVertex: count.optional().describe('Default: the last vertex of the data'),
  indexType: z.enum(['uint16', 'uint32', 'none']).optional(),
  indexData: bufferData.optional(),
  transform: transform3x4.optional(),
  primitiveCount: count.optional().describe('Default: every triangle of the data'),
  primitiveOffset: count.optional(),
  firstVertex: count.optional(),
  opaque: z.boolean().optional(),
  noDuplicateAnyHitInvocation: z.boolean().optional(),
});

export const aabbsGeometrySchema = z.strictObject({
  type: z.literal('aabbs'),
  data: bufferData,
  stride: count.optional().describe('Default 24'),
  primitiveCount: count,
  primitiveOffset: count.optional(),
  opaque: z.boolean().optional(),
  noDuplicateAnyHitInvocation: z.boolean().optional(),
});

export const accelerationStructuresSchema = z.strictObject({
  blas: z.array(z.strictObject({ geometries: z.array(z.union([trianglesGeometrySchema, aabbsGeometrySchema])) })),
  instances: z.array(z.strictObject({ blas: count, ...instanceShape })),
  notes: notes.optional(),
});

export const launchSchema = z.strictObject({ width: z.int().min(1), height: z.int().min(1), depth: z.int().min(1).optional() });

export const manifestSchema = z.strictObject({
  $schema: z.string().optional().describe('Path or URL of this schema, for editors'),
  name: z.string().describe('Short workload name'),
  description: z.string().optional(),
  notes: notes.optional(),
  shaders: z.partialRecord(z.enum(SHADER_STAGES), z.array(z.union([z.string(), shaderSourceSchema]))).describe('Shader files by stage'),
  includeDirs: z.array(z.string()).optional(),
  defines: defines.optional(),
  compiler: z.enum(SHADER_COMPILERS).optional(),
  raygen: z.string().optional().describe('The raygen shader to launch (optional when one is listed)'),
  raygenShaderRecord: jsonObject.optional(),
  hitGroups: z.array(hitGroupSchema).optional(),
  miss: z.array(z.union([z.string(), sbtEntrySchema])).describe('Miss shaders in SBT order'),
  callables: z.array(z.union([z.string(), sbtEntrySchema])).optional().describe('Callable shaders in SBT order'),
  maxRecursionDepth: z.int().min(1).optional(),
  descriptors: z.array(z.discriminatedUnion('kind', [
    descriptorSchemas.accelerationStructure, descriptorSchemas.storageImage, descriptorSchemas.uniformBuffer,
    descriptorSchemas.storageBuffer, descriptorSchemas.sampledImages,
  ])).optional(),
  buffers: z.array(namedBufferSchema).optional().describe('Buffers in device memory whether or not a descriptor binds them'),
  pushConstants: jsonObject.optional(),
  specConstants: z.record(z.string().regex(/^(0|[1-9][0-9]*)$/), z.union([z.number(), z.boolean()])).optional().describe('constant_id -> value'),
  scene: sceneSchema.optional(),
  accelerationStructures: accelerationStructuresSchema.optional(),
  launch: launchSchema,
  spp: z.int().min(1).optional(),
  bounces: count.optional(),
  seed: count.optional(),
  floatModel: z.enum(['ieee', 'gpu']).optional(),
  frames: z.int().min(1).optional().describe('Trace-rays launches in sequence (default 1; run option --frames)'),
  perFramePushConstants: z.array(jsonObject).min(1).optional().describe('Multi-frame runs: frame i\'s push-constant changes'),
});

/** The keys an object schema allows, for the validator's `onlyKeys`. */
export function keysOf(schema: { shape: Record<string, unknown> }): string[] {
  return Object.keys(schema.shape);
}

/** The JSON Schema shipped as workloads/workload.schema.json. */
export function manifestJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(manifestSchema, { target: 'draft-07', io: 'input' }),
    title: 'vvision workload manifest',
    description: 'The host side of a Vulkan ray tracing application as data (workloads/README.md)',
  };
}
