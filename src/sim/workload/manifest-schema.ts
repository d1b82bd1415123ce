/**
 * The workload manifest's shape, described once with zod: every key, its JSON type, its allowed
 * values and ranges, and a one-line description. Three things come from it:
 * - the parse itself: `validateManifest` runs `manifestSchema` first, and every type, range and
 *   unknown-key problem is a zod issue, turned into `<file>: <key path>: expected ..., found ...`
 *   by schema-issues.ts (the `expected` texts below are the "expected" half of those messages);
 * - `workloads/workload.schema.json` (JSON Schema draft-07, `manifestJsonSchema()`), which editors
 *   use to complete and check a `workload.json` (`"$schema": ".../workload.schema.json"`);
 * - the TypeScript type of a parsed manifest (`ManifestJson`), which the semantic checks read.
 * What stays code (validate-*.ts): what needs the file system or more than one key — files exist,
 * shaders listed under their stage, unique bindings, exactly one content source, name references.
 * Invariant: every manifest `loadManifest` accepts also parses here (test/sim/workload/manifest-schema.test.ts).
 */
import { z } from 'zod';
import {
  CAMERA_QUANTITIES, EACH_FRAME, ELEMENT_TYPES, INSTANCE_FLAGS, PROCEDURAL_SCENES, SAMPLED_IMAGE_FORMATS, SAMPLED_IMAGE_MIPMAPS, SCENE_BUFFER_KINDS, SCENE_CONVERSIONS,
  SHADER_COMPILERS, SHADER_STAGES, STORAGE_IMAGE_FORMATS, STORAGE_IMAGE_VK_FORMATS, type ShaderStage,
} from './manifest.js';
import { VERTEX_FORMATS } from './acceleration-structures.js';

/** "Expected" texts for messages where the schema's own type reads poorly ("an integer from 0 to 255"). */
export const expectedTexts = z.registry<{ expected: string }>();
function expecting<T extends z.ZodType>(schema: T, expected: string): T {
  expectedTexts.add(schema, { expected });
  return schema;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const text = z.string().min(1);
const count = z.int().min(0);
const positive = z.int().min(1);
const notes = z.string().describe('Free text for people; ignored');
/** A run parameter placeholder ("${spp}") or any JSON: buffer and push-constant values. */
const anyJson = expecting(z.json(), 'a JSON value');
const jsonValue = anyJson.describe('JSON matching the block\'s layout; strings "${width}", "${height}", "${depth}", "${spp}", "${bounces}", "${seed}" are run parameters where documented; a 64-bit value may be {"addressOf": name}; a float may be its raw bits "0x3f800000" or a hex float "0x1.8p+1"');
const jsonObject = z.record(z.string(), anyJson);
const vec3 = expecting(z.tuple([z.number(), z.number(), z.number()]), 'an array of 3 numbers');
const transform3x4 = expecting(z.union([
  z.array(z.number()).length(12),
  z.tuple([z.array(z.number()).length(4), z.array(z.number()).length(4), z.array(z.number()).length(4)]),
]).describe('3x4 row-major object-to-world matrix (VkTransformMatrixKHR): 12 numbers or 3 rows of 4'), 'a 3x4 row-major matrix (12 numbers, or 3 rows of 4)');
const customIndex = expecting(z.int().min(0).max(2 ** 24 - 1).describe('gl_InstanceCustomIndexEXT (24 bits)'), 'a 24-bit value');
const mask = expecting(z.int().min(0).max(255).describe('8-bit visibility mask, default 255'), 'an 8-bit mask (0..255)');
const defines = z.record(
  expecting(z.string().regex(IDENTIFIER), 'a preprocessor identifier as the name'),
  expecting(z.union([z.string(), z.number(), z.boolean()]), 'a string, number or boolean'),
).describe('Preprocessor defines: name -> value');
const fileList = (what: string) => z.array(text).describe(what);

export const shaderSourceSchema = z.strictObject({
  file: text.describe('the shader file, relative to the manifest (.rgen .rchit .rmiss .rahit .rint .rcall, or .spv)'),
  defines: defines.optional(),
  includeDirs: fileList('Directories searched for #include, before the manifest\'s').optional(),
  compiler: z.enum(SHADER_COMPILERS).optional().describe('Whose command-line conventions compile it'),
});
const shaderList = z.array(expecting(z.union([text, shaderSourceSchema]), 'a file name or {"file": ...}'));

export const sbtEntrySchema = z.strictObject({
  shader: text.describe('A shader listed under this stage in "shaders"'),
  shaderRecord: jsonObject.optional().describe('shaderRecordEXT data, JSON matching the block'),
});
const sbtEntries = z.array(expecting(z.union([text, sbtEntrySchema]), 'a shader file name or {"shader": ..., "shaderRecord": ...}'));

export const hitGroupSchema = z.strictObject({
  type: z.enum(['triangles', 'procedural']).optional().describe('Default "triangles"'),
  closestHit: text.optional(),
  anyHit: text.optional(),
  intersection: text.optional().describe('Required for "procedural"'),
  shaderRecord: jsonObject.optional(),
});

export const addressOfSchema = z.strictObject({
  addressOf: text.describe('Name of a buffer ("buffers" entry or a storage buffer\'s "id"); "{model}" stands for the record\'s model'),
  offset: count.optional().describe('Bytes added to the address'),
  element: count.optional().describe('Elements (of the buffer\'s element size) added to the address'),
});

const cameraShape = {
  lookFrom: vec3.describe('the eye position [x, y, z]'),
  lookAt: vec3.describe('the point looked at [x, y, z]'),
  up: vec3.optional().describe('Default [0, 1, 0]'),
  fovY: expecting(z.number().gt(0).lt(180).describe('vertical field of view in degrees'), 'degrees between 0 and 180'),
  near: z.number().optional().describe('Default 0.1'),
  far: z.number().optional().describe('Default 1000'),
};
export const cameraSchema = z.strictObject({
  ...cameraShape,
  flipY: z.boolean().optional().describe('Negate the projection\'s y (Vulkan clip space), default true; false: glm::perspective as it is'),
  members: z.partialRecord(z.enum(CAMERA_QUANTITIES), text).optional().describe('Camera quantity -> block member that receives it'),
});
const cameraChanges = z.strictObject({
  lookFrom: cameraShape.lookFrom.optional(), lookAt: cameraShape.lookAt.optional(), up: cameraShape.up, fovY: cameraShape.fovY.optional(), near: cameraShape.near, far: cameraShape.far,
});

const descriptorCommon = {
  set: count.optional().describe('Descriptor set, default 0'),
  binding: count.describe('the layout(binding = N) of the shader variable'),
  name: z.string().optional().describe('For people: the shader variable\'s name'),
  notes: notes.optional(),
};
const eachFrame = z.enum(EACH_FRAME).optional().describe('Multi-frame runs: kept (default), cleared or uploaded again before each frame after the first');

export const storageBufferContentShape = {
  layout: z.enum(['std430', 'scalar']).optional().describe('Default std430'),
  from: z.literal('scene').optional().describe('Pack records of the scene (with "what")'),
  what: z.enum(SCENE_BUFFER_KINDS).optional(),
  fields: z.record(z.string(), expecting(
    z.union([text, addressOfSchema, z.number(), z.array(z.number()).min(1)]),
    'a scene field name, {"addressOf": ...} or a constant (a number or an array of numbers)',
  )).optional().describe('Element member -> scene field name, {"addressOf": ...}, or a constant'),
  field: text.optional().describe('Scalar or vector elements: the scene field each element holds (a separate normal or texCoord buffer: "normal")'),
  model: count.optional().describe('Only this model\'s records (scene.models)'),
  data: text.optional().describe('A .json value or raw .bin bytes, optionally .gz'),
  value: jsonValue.optional(),
  elements: positive.optional().describe('Element count of a buffer the shaders write'),
  struct: expecting(z.string().regex(IDENTIFIER), 'a GLSL struct name').optional().describe('GLSL struct of the shaders that lays out an element (unbound buffers)'),
  element: z.enum(ELEMENT_TYPES).optional().describe('Scalar or vector element type (unbound buffers)'),
  hostStruct: z.record(expecting(z.string().regex(IDENTIFIER), 'a member name (an identifier)'), z.enum(ELEMENT_TYPES))
    .refine((o) => Object.keys(o).length > 0, 'expected at least one member {"name": "vec3", ...}').optional()
    .describe('The element as the host\'s C/C++ struct declares it: member -> type, in order; laid out by "layout"'),
  eachFrame,
};

const textureFile = expecting(z.union([
  text.describe('.png, .jpg / .jpeg or .ktx2'),
  z.strictObject({ file: text.describe('Raw R8G8B8A8 texels, .rgba8 or .rgba8.gz'), width: positive, height: positive }),
]), 'an image file name or {"file": "x.rgba8", "width": w, "height": h}');

export const descriptorSchemas = {
  accelerationStructure: z.strictObject({ ...descriptorCommon, kind: z.literal('accelerationStructure') }),
  storageImage: z.strictObject({
    ...descriptorCommon, kind: z.literal('storageImage'),
    format: z.enum([...STORAGE_IMAGE_FORMATS, ...Object.keys(STORAGE_IMAGE_VK_FORMATS)] as [string, ...string[]])
      .describe('GLSL layout name (rgba8) or the host\'s VkFormat without VK_FORMAT_ (B8G8R8A8_UNORM, R32G32B32A32_SFLOAT)'),
    role: z.enum(['output', 'accumulation', 'scratch']).optional().describe('Default "output": written as image.png'),
    eachFrame,
  }),
  uniformBuffer: z.strictObject({
    ...descriptorCommon, kind: z.literal('uniformBuffer'),
    layout: z.enum(['std140', 'std430', 'scalar']).optional().describe('Default std140'),
    value: jsonObject.optional().describe('JSON matching the block ("${spp}"-style run parameters allowed)'),
    camera: cameraSchema.optional(),
    data: text.optional().describe('The block\'s raw bytes, .bin or .bin.gz, kept whole'),
    members: jsonObject.optional().describe('Member path -> value, written after value / camera / data'),
    perFrame: expecting(z.array(z.strictObject({ members: jsonObject.optional(), camera: cameraChanges.optional() })).min(1), 'at least one frame\'s {members, camera}').optional()
      .describe('Multi-frame runs: frame i\'s member / camera changes (frames past the list use its last entry)'),
  }),
  storageBuffer: z.strictObject({
    ...descriptorCommon, kind: z.literal('storageBuffer'), ...storageBufferContentShape,
    id: text.optional().describe('Name other values use in {"addressOf": id} and BLAS inputs use in {"buffer": id}'),
  }),
  sampledImages: z.strictObject({
    ...descriptorCommon, kind: z.literal('sampledImages'),
    files: expecting(z.union([z.literal('scene'), expecting(z.array(textureFile).min(1), 'at least one image file')]), '"scene" or a list of image files')
      .describe('One image per array element, or "scene"'),
    filter: z.enum(['linear', 'nearest']).optional(),
    wrap: z.enum(['repeat', 'clampToEdge']).optional(),
    format: z.enum(SAMPLED_IMAGE_FORMATS).optional().describe('Default R8G8B8A8_UNORM; _SRGB decodes colour to linear before filtering'),
    mipmaps: z.enum(SAMPLED_IMAGE_MIPMAPS).optional()
      .describe('"none" (default): level 0 only; "generate": the full mip chain down to 1x1, each level the 2x2 box average of the one above; "file": the mip levels a KTX2 file stores (textureLod / texelFetch levels; nearest mip selection)'),
  }),
} as const;

export const namedBufferSchema = z.strictObject({
  name: text.describe('the name used by {"addressOf": name} and {"buffer": name}'),
  notes: notes.optional(),
  ...storageBufferContentShape,
});

const instanceShape = {
  transform: transform3x4.optional(),
  customIndex: customIndex.optional(),
  mask: mask.optional(),
  sbtOffset: count.optional().describe('instanceShaderBindingTableRecordOffset'),
  flags: z.array(z.enum(INSTANCE_FLAGS)).optional(),
};

export const instanceSchema = z.strictObject({ mesh: expecting(z.union([count, text]), 'a mesh index or name').optional().describe('Mesh index or name'), ...instanceShape });

export const modelSchema = z.strictObject({
  obj: text.optional(), gltf: text.optional(), name: text.optional(), notes: notes.optional(), ...instanceShape,
});

export const sceneSchema = z.strictObject({
  obj: text.optional().describe('OBJ/MTL file'),
  gltf: text.optional().describe('glTF file (.gltf or .glb)'),
  procedural: z.enum(PROCEDURAL_SCENES).optional(),
  seed: count.optional().describe('Seed of a procedural scene'),
  models: expecting(z.array(modelSchema).min(1), 'at least one model').optional().describe('Several model files, concatenated in order'),
  instances: z.array(instanceSchema).optional(),
  opaque: z.boolean().optional().describe('Geometry opaque flag, default true'),
  conversions: z.array(z.enum(SCENE_CONVERSIONS)).optional().describe('What the application\'s model loader does (vkglTF FileLoadingFlags)'),
  customIndexFrom: z.enum(['instance', 'mesh']).optional()
    .describe('gl_InstanceCustomIndexEXT of the instances the file gives: their order (default) or their mesh\'s index (nvpro\'s glTF tutorial)'),
  notes: notes.optional(),
});

const bufferData = expecting(z.union([
  text.describe('A .bin (raw) or .json (numbers) file'),
  z.array(z.number()),
  z.strictObject({ buffer: text.describe('a buffer name (a "buffers" entry or a storage buffer\'s "id")'), offset: count.optional() }),
]), 'a .bin or .json file, an array of numbers or {"buffer": name}');

const geometryFlags = { opaque: z.boolean().optional(), noDuplicateAnyHitInvocation: z.boolean().optional() };

export const trianglesGeometrySchema = z.strictObject({
  type: z.literal('triangles'),
  vertexData: bufferData,
  vertexFormat: z.enum(VERTEX_FORMATS).optional(),
  vertexStride: positive.optional(),
  maxVertex: count.optional().describe('Default: the last vertex of the data'),
  indexType: z.enum(['uint16', 'uint32', 'none']).optional(),
  indexData: bufferData.optional(),
  transform: transform3x4.optional(),
  primitiveCount: count.optional().describe('Default: every triangle of the data'),
  primitiveOffset: count.optional(),
  firstVertex: count.optional(),
  ...geometryFlags,
});

export const aabbsGeometrySchema = z.strictObject({
  type: z.literal('aabbs'),
  data: bufferData,
  stride: expecting(z.int().min(24).multipleOf(8).describe('Default 24'), 'a multiple of 8 of at least 24').optional(),
  primitiveCount: count,
  primitiveOffset: count.optional(),
  ...geometryFlags,
});

export const accelerationStructuresSchema = z.strictObject({
  blas: z.array(z.strictObject({
    geometries: expecting(z.array(z.discriminatedUnion('type', [trianglesGeometrySchema, aabbsGeometrySchema])).min(1), 'at least one geometry'),
  })),
  instances: expecting(z.array(z.strictObject({ blas: count, ...instanceShape })).min(1), 'at least one instance'),
  notes: notes.optional(),
});

export const launchSchema = z.strictObject({ width: positive, height: positive, depth: positive.optional() });

export const manifestSchema = z.strictObject({
  $schema: z.string().optional().describe('Path or URL of this schema, for editors'),
  name: text.describe('a short workload name such as "pt"'),
  description: z.string().optional(),
  notes: notes.optional(),
  shaders: z.strictObject(Object.fromEntries(SHADER_STAGES.map((s) => [s, s === 'raygen'
    ? shaderList.describe('ray generation shaders, .rgen')
    : shaderList.optional()])) as Record<ShaderStage, typeof shaderList>)
    .describe('shader files by stage: {"raygen": [...], "closestHit": [...], "miss": [...]}'),
  includeDirs: fileList('Directories searched for #include').optional(),
  defines: defines.optional(),
  compiler: z.enum(SHADER_COMPILERS).optional(),
  raygen: text.optional().describe('The raygen shader to launch (optional when one is listed)'),
  raygenShaderRecord: jsonObject.optional(),
  hitGroups: z.array(hitGroupSchema).optional(),
  miss: sbtEntries.describe('miss shaders in SBT order; traceRayEXT needs a miss index'),
  callables: sbtEntries.optional().describe('Callable shaders in SBT order'),
  maxRecursionDepth: positive.optional(),
  descriptors: z.array(z.discriminatedUnion('kind', [
    descriptorSchemas.accelerationStructure, descriptorSchemas.storageImage, descriptorSchemas.uniformBuffer,
    descriptorSchemas.storageBuffer, descriptorSchemas.sampledImages,
  ])).optional(),
  buffers: z.array(namedBufferSchema).optional().describe('Buffers in device memory whether or not a descriptor binds them'),
  pushConstants: jsonObject.optional(),
  specConstants: z.record(
    expecting(z.string().regex(/^(0|[1-9][0-9]*)$/), 'a constant_id (a non-negative integer) as the key'),
    expecting(z.union([z.number(), z.boolean()]), 'a number or boolean'),
  ).optional().describe('constant_id -> value'),
  scene: sceneSchema.optional(),
  accelerationStructures: accelerationStructuresSchema.optional(),
  launch: launchSchema.describe('the launch size, e.g. {"width": 64, "height": 64}'),
  spp: positive.optional(),
  bounces: count.optional(),
  seed: count.optional(),
  floatModel: z.enum(['ieee', 'gpu']).optional(),
  frames: positive.optional().describe('Trace-rays launches in sequence (default 1; run option --frames)'),
  perFramePushConstants: expecting(z.array(jsonObject).min(1), 'at least one frame\'s push constants').optional().describe('Multi-frame runs: frame i\'s push-constant changes'),
});

/** A manifest as the schema accepts it: what the semantic checks (validate-*.ts) read. */
export type ManifestJson = z.output<typeof manifestSchema>;
export type DescriptorJson = NonNullable<ManifestJson['descriptors']>[number];
export type StorageBufferJson = z.output<typeof descriptorSchemas.storageBuffer> | z.output<typeof namedBufferSchema>;
export type SceneJson = z.output<typeof sceneSchema>;
export type AccelerationStructuresJson = z.output<typeof accelerationStructuresSchema>;

/** The JSON Schema shipped as workloads/workload.schema.json. */
export function manifestJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(manifestSchema, { target: 'draft-07', io: 'input' }),
    title: 'vvision workload manifest',
    description: 'The host side of a Vulkan ray tracing application as data (workloads/README.md)',
  };
}
