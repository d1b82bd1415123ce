/**
 * The LumiBench "Ray Tracing in One Weekend" frame (shared/calibration/lumibench-wknd) as a
 * workload manifest: everything the real host (RayTracingInVulkan's Scene.cpp / Application.cpp)
 * does for that frame, written in the manifest format from the host data dumped beside it.
 * The generator reads the calibration folder at run time; nothing of it is copied into vvision.
 *
 * What the manifest expresses (issue 8 part 1):
 * - descriptor set 0 exactly as pipeline.json lists it: the TLAS, the accumulation and output
 *   images, the 320-byte std140 UBO from `ubo_<variant>.bin`, the storage buffers as the exact
 *   bytes the host uploads (`buffers/*.bin.gz`), the 1x1 dummy texture as raw RGBA8 texels;
 * - the 487 BLASes and TLAS instances from `instances.json` (one AABB geometry per BLAS, opaque;
 *   instance custom index = model index, SBT offset = hit group, TRIANGLE_FACING_CULL_DISABLE);
 * - the SBT of pipeline.json (raygen, one miss, hit groups triangles / spheres / cubes / cylinders);
 * - `floatModel: gpu`: float operations evaluated as the Mesa NIR code Vulkan-Sim runs does;
 * - run parameters written into the UBO members that hold them (`members`): `--width/--height`
 *   -> Width/Height, `--spp` -> NumberOfSamples and TotalNumberOfSamples (the first frame after an
 *   accumulation reset, as LumiBench renders it; with `--frames N`, frame f has (f + 1) x spp in
 *   total and accumulates into AccumulationImage as the application does), `--bounces` -> NumberOfBounces, `--seed` ->
 *   RandomSeed. The defaults are the dumped UBO's values, so a default run is the dumped frame.
 *   The projection's aspect ratio is the host's fixed 1.0: give square sizes, as LumiBench does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ManifestError, type JsonObject } from './manifest.js';

/** The three shader types of LumiBench over the same host data (pipeline.json `shader_types`). */
export const LUMIBENCH_VARIANTS = {
  'lumibench-wknd': { ubo: 'PT', raygen: 'RayTracing.rgen', triangleHit: 'RayTracing.rchit', what: 'path tracing (shader type 0)' },
  'lumibench-wknd-ao': { ubo: 'AO', raygen: 'TraceAO.rgen', triangleHit: 'TraceShadow.rchit', what: 'ambient occlusion, 4 rays (shader type 2)' },
  'lumibench-wknd-sh': { ubo: 'SH', raygen: 'TraceShadow.rgen', triangleHit: 'TraceShadow.rchit', what: 'shadows, 2 rays (shader type 1)' },
} as const;
export type LumibenchWorkload = keyof typeof LUMIBENCH_VARIANTS;

export function isLumibenchWorkload(name: string): name is LumibenchWorkload {
  return Object.hasOwn(LUMIBENCH_VARIANTS, name);
}

interface BlasEntry {
  index: number;
  geometryType: string;
  aabbBuffer?: string;
  stride?: number;
  primitiveOffsetBytes?: number;
  primitiveCount: number;
  geometryFlags?: string;
}

interface TlasInstance {
  transform3x4: number[][];
  instanceCustomIndex: number;
  mask: number;
  instanceShaderBindingTableRecordOffset: number;
  flags: number;
  blas: number;
}

/**
 * How to get the calibration data: the npm package does not ship it (tens of MB of host dumps and
 * Vulkan-Sim results), so every message that names a calibration workload says where it comes from.
 */
export function calibrationDataHint(calibrationDir: string): string {
  return 'the npm package does not ship it: it is the `shared/calibration` folder beside a vvision source checkout '
    + '(lumibench-wknd/shaders: the LumiBench WKND GLSL; lumibench-wknd/host-data: the bytes its host uploads; lumibench-wknd/vulkan-sim: '
    + 'Vulkan-Sim\'s results; docs/calibration.md, shipped in the package, says what each holds); '
    + `copy that folder to ${calibrationDir}, or point VVISION_CALIBRATION_DIR at it`;
}

/** Whether the calibration data of this frame is present. */
export function hasLumibenchData(calibrationDir: string): boolean {
  return existsSync(join(calibrationDir, 'lumibench-wknd', 'shaders/RayTracing.rgen'));
}

/** The calibration folder of this frame; throws a ManifestError naming the folder when it is absent. */
export function lumibenchWkndDir(calibrationDir: string): string {
  const dir = join(calibrationDir, 'lumibench-wknd');
  const needed = ['shaders/RayTracing.rgen', 'host-data/scene-WKND/instances.json', 'host-data/scene-WKND/ubo_PT.bin'];
  const missing = needed.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    throw new ManifestError([
      `lumibench-wknd: the LumiBench calibration data is not at ${dir} (missing ${missing.join(', ')}); `
      + `${calibrationDataHint(calibrationDir)}`,
    ]);
  }
  return dir;
}

/** The manifest JSON of one variant; every path in it is absolute. */
export function lumibenchWkndManifest(calibrationDir: string, name: LumibenchWorkload): JsonObject {
  const dir = lumibenchWkndDir(calibrationDir);
  const variant = LUMIBENCH_VARIANTS[name];
  const shader = (f: string): string => resolve(dir, 'shaders', f);
  const sceneDir = resolve(dir, 'host-data/scene-WKND');
  const buffer = (f: string): string => join(sceneDir, 'buffers', f);
  const instances = JSON.parse(readFileSync(join(sceneDir, 'instances.json'), 'utf8')) as { blas: BlasEntry[]; tlas_instances: TlasInstance[] };
  const textures = JSON.parse(readFileSync(buffer('b8_textures.json'), 'utf8')) as { textures: { file: string; width: number; height: number }[] };

  const procedural = (kind: string): JsonObject => ({
    type: 'procedural', closestHit: shader(`RayTracing.${kind}.rchit`), intersection: shader(`RayTracing.${kind}.rint`),
  });
  const storage = (binding: number, file: string, name: string): JsonObject => ({
    set: 0, binding, kind: 'storageBuffer', layout: 'std430', data: buffer(file), name,
  });
  return {
    name,
    description: `LumiBench WKND frame, ${variant.what}: the real application's shaders and host data, read from ${dir}`,
    shaders: {
      raygen: [shader(variant.raygen)],
      closestHit: [
        shader(variant.triangleHit), shader('RayTracing.Procedural.rchit'),
        shader('RayTracing.ProceduralCube.rchit'), shader('RayTracing.ProceduralCylinder.rchit'),
      ],
      intersection: [shader('RayTracing.Procedural.rint'), shader('RayTracing.ProceduralCube.rint'), shader('RayTracing.ProceduralCylinder.rint')],
      miss: [shader('RayTracing.rmiss')],
    },
    hitGroups: [
      { type: 'triangles', closestHit: shader(variant.triangleHit) },
      procedural('Procedural'), procedural('ProceduralCube'), procedural('ProceduralCylinder'),
    ],
    miss: [shader('RayTracing.rmiss')],
    maxRecursionDepth: 1,
    descriptors: [
      { set: 0, binding: 0, kind: 'accelerationStructure', name: 'Scene' },
      { set: 0, binding: 1, kind: 'storageImage', format: 'rgba32f', role: 'accumulation', name: 'AccumulationImage' },
      {
        set: 0, binding: 2, kind: 'storageImage', format: 'rgba8', role: 'output', name: 'OutputImage',
        notes: 'the offscreen build binds an R32G32B32A32_SFLOAT image although the shader declares rgba8; vvision follows the shader (the frame is 8-bit either way)',
      },
      {
        set: 0, binding: 3, kind: 'uniformBuffer', layout: 'std140', name: 'UniformBufferObjectStruct',
        data: join(sceneDir, `ubo_${variant.ubo}.bin`),
        members: {
          // The application's accumulation (Application.cpp): each frame adds spp samples to the total.
          Width: '${width}', Height: '${height}', NumberOfSamples: '${spp}', TotalNumberOfSamples: '${(frame + 1) * spp}',
          NumberOfBounces: '${bounces}', RandomSeed: '${seed}',
        },
      },
      storage(4, 'b4_vertices.bin.gz', 'VertexArray'),
      storage(5, 'b5_indices.bin.gz', 'IndexArray'),
      storage(6, 'b6_materials.bin.gz', 'MaterialArray'),
      storage(7, 'b7_offsets.bin.gz', 'OffsetArray'),
      {
        set: 0, binding: 8, kind: 'sampledImages', name: 'TextureSamplers', filter: 'linear', wrap: 'clampToEdge',
        files: textures.textures.map((t) => ({ file: buffer(`${t.file}.gz`), width: t.width, height: t.height })),
      },
      storage(9, 'b9_procedurals_spheres.bin.gz', 'SphereArray'),
      storage(10, 'b10_procedural_cubes.bin.gz', 'CubeArray'),
      storage(11, 'b11_procedural_cylinders.bin.gz', 'CylinderArray'),
    ],
    accelerationStructures: {
      blas: instances.blas.map((b) => ({ geometries: [aabbGeometry(b, buffer)] })),
      instances: instances.tlas_instances.map((t, i) => ({
        blas: t.blas,
        transform: t.transform3x4.flat(),
        customIndex: t.instanceCustomIndex,
        mask: t.mask,
        sbtOffset: t.instanceShaderBindingTableRecordOffset,
        flags: instanceFlags(t.flags, i),
      })),
    },
    launch: { width: 128, height: 128 },
    spp: 2,
    bounces: 16,
    seed: 1,
    // Vulkan-Sim runs Mesa's NIR, which divides by reciprocal, normalizes by rsq and takes pow as
    // exp2(y * log2(x)); the path tracer's paths depend on it (docs/calibration.md).
    floatModel: 'gpu',
  };
}

function aabbGeometry(b: BlasEntry, buffer: (f: string) => string): JsonObject {
  if (b.geometryType !== 'VK_GEOMETRY_TYPE_AABBS_KHR' || !b.aabbBuffer) {
    // The WKND dump holds only procedural models; triangle models (SHIP, CORNELL) would map to
    // `type: "triangles"` over b4/b5 and are not part of this calibration frame.
    throw new ManifestError([`lumibench-wknd: instances.json blas[${b.index}]: geometry type ${b.geometryType} is not in the WKND frame this generator reads`]);
  }
  return {
    type: 'aabbs',
    data: buffer(`${b.aabbBuffer}.gz`),
    stride: b.stride ?? 24,
    primitiveOffset: b.primitiveOffsetBytes ?? 0,
    primitiveCount: b.primitiveCount,
    opaque: (b.geometryFlags ?? '').includes('OPAQUE'),
  };
}

const FLAG_NAMES: [number, string][] = [[0x1, 'triangleFacingCullDisable'], [0x2, 'triangleFlipFacing'], [0x4, 'forceOpaque'], [0x8, 'forceNoOpaque']];

function instanceFlags(bits: number, i: number): string[] {
  const known = FLAG_NAMES.reduce((m, [b]) => m | b, 0);
  if ((bits & ~known) !== 0) throw new ManifestError([`lumibench-wknd: instances.json tlas_instances[${i}].flags: unknown bits 0x${(bits & ~known).toString(16)}`]);
  return FLAG_NAMES.filter(([b]) => (bits & b) !== 0).map(([, n]) => n);
}
