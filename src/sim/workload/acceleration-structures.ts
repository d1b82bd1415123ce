/**
 * Acceleration structures declared in the manifest exactly as a Vulkan application builds them
 * (issue 5 section 2): BLAS geometries with vertex / index / AABB data from files or inline
 * numbers, formats, strides and build ranges, and TLAS instances. The schema (manifest-schema.ts)
 * types the JSON; `readAccelerationStructures` checks files and keys that go together; `loadAccelerationStructureDescriptions` reads the data and
 * returns the build descriptions src/sim/rt builds from (`buildAccelerationStructureFromDescriptions`),
 * after checking every build range lies inside its data, as the Vulkan valid-usage rules require.
 * Invariant: all problems are collected and reported together, as a ManifestError when loading.
 */
import type {
  BottomLevelDescription, GeometryDescription, IndexType, InstanceDescription, VertexFormat,
} from '../rt/acceleration-structure.js';
import type { z } from 'zod';
import { describeJson, existingFile, key, report, type JsonChecks } from './json-checks.js';
import { JSON_DATA_FILE, RAW_DATA_FILE, readDataFile, readJsonDataFile } from './data-file.js';
import { ManifestError, type InstanceFlag } from './manifest.js';
import type { aabbsGeometrySchema, AccelerationStructuresJson, trianglesGeometrySchema } from './manifest-schema.js';
import { checkedEntries, flatTransform } from './validate-resources.js';
import type { Vouch } from './schema-issues.js';

/** Where a buffer's bytes come from: a .bin file (raw, little-endian), a .json array, or inline numbers. */
export type BufferData = { file: string } | { values: number[] } | NamedBufferData;

/**
 * `{"buffer": name, "offset": bytes}`: the bytes of a buffer the manifest names (a `buffers` entry or
 * a storage buffer's `id`), as the host packs them for the shaders: an application builds its BLAS
 * from the same vertex and index buffers its shaders read (VkDeviceOrHostAddressConstKHR).
 */
export interface NamedBufferData {
  buffer: string;
  offset: number;
}

/** The packed bytes of a named buffer, from the host (undefined when no such buffer was packed). */
export type NamedBufferBytes = (name: string) => Uint8Array | undefined;

/** Whether any geometry takes its data from a named buffer (the host must pack buffers before building). */
export function usesNamedBuffers(spec: AccelerationStructuresSpec | undefined): boolean {
  return namedBufferReferences(spec).length > 0;
}

/** Every named-buffer reference with its manifest key, for the load-time name check. */
export function namedBufferReferences(spec: AccelerationStructuresSpec | undefined): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  spec?.blas.forEach((b, i) => b.geometries.forEach((g, j) => {
    const path = `accelerationStructures.blas[${i}].geometries[${j}]`;
    const datas: [string, BufferData | undefined][] = g.type === 'aabbs' ? [['data', g.data]] : [['vertexData', g.vertexData], ['indexData', g.indexData]];
    for (const [k, d] of datas) if (d && 'buffer' in d) out.push({ name: d.buffer, path: `${path}.${k}.buffer` });
  }));
  return out;
}

export const VERTEX_FORMATS = ['R32G32B32_SFLOAT', 'R32G32B32A32_SFLOAT', 'R32G32_SFLOAT'] as const satisfies readonly VertexFormat[];
const VERTEX_COMPONENTS: Readonly<Record<VertexFormat, number>> = { R32G32B32_SFLOAT: 3, R32G32B32A32_SFLOAT: 4, R32G32_SFLOAT: 2 };
const INDEX_BYTES: Readonly<Record<IndexType, number>> = { uint16: 2, uint32: 4, none: 0 };

export interface TrianglesGeometrySpec {
  type: 'triangles';
  vertexData: BufferData;
  vertexFormat: VertexFormat;
  /** Default: the format's size. */
  vertexStride: number;
  /** Absent: the last vertex the data holds (vertex bytes / stride - 1). */
  maxVertex?: number;
  indexType: IndexType;
  indexData?: BufferData;
  /** 3x4 row-major, applied at build time (VkAccelerationStructureGeometryTrianglesDataKHR::transformData). */
  transform?: number[];
  /** Absent: every triangle the index data (or, without indices, the vertex data) holds from primitiveOffset. */
  primitiveCount?: number;
  primitiveOffset: number;
  firstVertex: number;
  opaque: boolean;
  noDuplicateAnyHitInvocation: boolean;
}

export interface AabbsGeometrySpec {
  type: 'aabbs';
  data: BufferData;
  /** Default 24 (VkAabbPositionsKHR); a multiple of 8. */
  stride: number;
  primitiveCount: number;
  primitiveOffset: number;
  opaque: boolean;
  noDuplicateAnyHitInvocation: boolean;
}

export interface AccelerationStructuresSpec {
  blas: { geometries: (TrianglesGeometrySpec | AabbsGeometrySpec)[] }[];
  instances: { blas: number; transform: number[]; customIndex: number; mask: number; sbtOffset: number; flags: InstanceFlag[] }[];
}

type BufferDataJson = TrianglesGeometryJson['vertexData'];
type TrianglesGeometryJson = z.output<typeof trianglesGeometrySchema>;
type AabbsGeometryJson = z.output<typeof aabbsGeometrySchema>;

function bufferData(c: JsonChecks, v: BufferDataJson, path: string): BufferData | undefined {
  if (Array.isArray(v)) return { values: v };
  if (typeof v === 'object') return { buffer: v.buffer, offset: v.offset ?? 0 };
  const file = existingFile(c, v, path);
  if (file && !RAW_DATA_FILE.test(file) && !JSON_DATA_FILE.test(file)) {
    report(c, path, `expected a .bin (raw bytes) or .json (array of numbers) file, optionally .gz, found ${describeJson(v)}`);
    return undefined;
  }
  return file ? { file } : undefined;
}

function geometry(c: JsonChecks, g: TrianglesGeometryJson | AabbsGeometryJson, path: string): TrianglesGeometrySpec | AabbsGeometrySpec | undefined {
  const common = { primitiveOffset: g.primitiveOffset ?? 0, opaque: g.opaque ?? true, noDuplicateAnyHitInvocation: g.noDuplicateAnyHitInvocation ?? false };
  if (g.type === 'aabbs') {
    const data = bufferData(c, g.data, key(path, 'data'));
    return data && { type: g.type, data, stride: g.stride ?? 24, primitiveCount: g.primitiveCount, ...common };
  }
  const indexType = g.indexType ?? 'none';
  if (indexType !== 'none' && g.indexData === undefined) report(c, key(path, 'indexData'), `missing (indexType is ${indexType})`);
  if (indexType === 'none' && g.indexData !== undefined) report(c, key(path, 'indexData'), 'given, but indexType is "none"');
  const vertexData = bufferData(c, g.vertexData, key(path, 'vertexData'));
  const indexData = g.indexData === undefined ? undefined : bufferData(c, g.indexData, key(path, 'indexData'));
  if (!vertexData || (g.indexData !== undefined && !indexData)) return undefined;
  const vertexFormat = g.vertexFormat ?? 'R32G32B32_SFLOAT';
  // Triangles may leave the count to the data, as a host that builds over a whole buffer does.
  return {
    type: g.type, vertexData, vertexFormat, vertexStride: g.vertexStride ?? VERTEX_COMPONENTS[vertexFormat] * 4, indexType,
    firstVertex: g.firstVertex ?? 0, ...common,
    ...(g.primitiveCount !== undefined ? { primitiveCount: g.primitiveCount } : {}), ...(g.maxVertex !== undefined ? { maxVertex: g.maxVertex } : {}),
    ...(indexData ? { indexData } : {}), ...(g.transform ? { transform: flatTransform(g.transform) } : {}),
  };
}

/**
 * The manifest's `accelerationStructures` key, as far as the schema vouches for it (`v`): files
 * checked, one geometry type per BLAS, instances' BLAS indices in range, defaults filled.
 */
export function readAccelerationStructures(c: JsonChecks, root: AccelerationStructuresJson, path: string, v: Vouch): AccelerationStructuresSpec {
  const blasPath = key(path, 'blas');
  const blas = (v.shapeOk(blasPath) ? root.blas : []).map((b, i) => {
    const bp = key(key(path, 'blas'), i);
    const list = v.shapeOk(bp) ? b.geometries : undefined;
    const types = new Set((v.shapeOk(key(bp, 'geometries')) ? list ?? [] : []).filter((_, j) => v.ok(key(key(key(bp, 'geometries'), j), 'type'))).map((g) => g.type));
    if (types.size > 1) report(c, key(bp, 'geometries'), 'mixes triangles and aabbs; Vulkan requires one geometry type per BLAS');
    const geometries = checkedEntries(list, key(bp, 'geometries'), v);
    return { geometries: geometries.map((g) => geometry(c, g.value, g.path)).filter((g) => g !== undefined) };
  });
  const instancesPath = key(path, 'instances');
  (v.shapeOk(instancesPath) ? root.instances : []).forEach((inst, i) => {
    const at = key(key(instancesPath, i), 'blas');
    if (v.ok(at) && v.shapeOk(blasPath) && inst.blas >= root.blas.length) report(c, at, `${inst.blas} is out of range (${root.blas.length} BLAS declared)`);
  });
  const instances = checkedEntries(root.instances, instancesPath, v).map(({ value: inst }) => ({
    blas: inst.blas, transform: flatTransform(inst.transform), customIndex: inst.customIndex ?? 0, mask: inst.mask ?? 0xff,
    sbtOffset: inst.sbtOffset ?? 0, flags: inst.flags ?? [],
  }));
  return { blas, instances };
}

/** Bytes of a BufferData; `as` says how inline / JSON numbers are stored. */
function bytesOf(d: { file: string } | { values: number[] }, as: 'f32' | 'u16' | 'u32', path: string): Uint8Array {
  let values: number[];
  if ('values' in d) {
    values = d.values;
  } else if (JSON_DATA_FILE.test(d.file)) {
    const parsed = readJsonDataFile(d.file, path);
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'number')) throw new Error('expected a JSON array of numbers');
    values = parsed as number[];
  } else {
    return readDataFile(d.file, path);
  }
  const typed = as === 'f32' ? Float32Array.from(values) : as === 'u16' ? Uint16Array.from(values) : Uint32Array.from(values);
  return new Uint8Array(typed.buffer);
}

const INSTANCE_FLAG_BITS: Readonly<Record<InstanceFlag, number>> = {
  triangleFacingCullDisable: 0x1, triangleFlipFacing: 0x2, forceOpaque: 0x4, forceNoOpaque: 0x8,
};

/**
 * Reads every data buffer and returns the Vulkan-style build descriptions. `where` prefixes
 * messages (the manifest path). Throws ManifestError listing every range that falls outside its data.
 */
export function loadAccelerationStructureDescriptions(
  spec: AccelerationStructuresSpec, where: string, namedBytes?: NamedBufferBytes,
): { blas: BottomLevelDescription[]; instances: InstanceDescription[] } {
  const problems: string[] = [];
  const files = new Map<string, Uint8Array>();
  const readData = (d: BufferData, as: 'f32' | 'u16' | 'u32', path: string, problems: string[], cache: Map<string, Uint8Array>): Uint8Array => {
    if (!('buffer' in d)) return readDataOf(d, as, path, problems, cache);
    const bytes = namedBytes?.(d.buffer);
    if (!bytes) {
      problems.push(`${path}.buffer: no buffer named "${d.buffer}" was packed by the host`);
      return new Uint8Array(0);
    }
    if (d.offset > bytes.byteLength) problems.push(`${path}.offset: ${d.offset} is beyond the ${bytes.byteLength}-byte buffer "${d.buffer}"`);
    return bytes.subarray(Math.min(d.offset, bytes.byteLength));
  };
  const blas = spec.blas.map((b, i) => ({
    geometries: b.geometries.map((g, j): GeometryDescription => {
      const path = `${where}: accelerationStructures.blas[${i}].geometries[${j}]`;
      const flags = (g.opaque ? 0x1 : 0) | (g.noDuplicateAnyHitInvocation ? 0x2 : 0);
      if (g.type === 'aabbs') {
        const data = readData(g.data, 'f32', `${path}.data`, problems, files);
        const need = g.primitiveCount === 0 ? 0 : g.primitiveOffset + (g.primitiveCount - 1) * g.stride + 24;
        if (data.byteLength < need) problems.push(`${path}.data: ${g.primitiveCount} AABBs from byte ${g.primitiveOffset} at stride ${g.stride} need ${need} bytes, the data has ${data.byteLength}`);
        return { type: 'aabbs', data, stride: g.stride, flags, primitiveCount: g.primitiveCount, primitiveOffset: g.primitiveOffset };
      }
      const vertexData = readData(g.vertexData, 'f32', `${path}.vertexData`, problems, files);
      const vertexBytes = VERTEX_COMPONENTS[g.vertexFormat] * 4;
      const indexBytes = INDEX_BYTES[g.indexType];
      const indexSource = g.indexType !== 'none' && g.indexData
        ? readData(g.indexData, g.indexType === 'uint16' ? 'u16' : 'u32', `${path}.indexData`, problems, files)
        : undefined;
      // Left out: the whole data, as a host building over a whole buffer passes its counts.
      const wholeVertices = Math.floor(Math.max(0, vertexData.byteLength - (g.indexType === 'none' ? g.primitiveOffset : 0) - vertexBytes) / g.vertexStride) + 1;
      const t = {
        ...g,
        maxVertex: g.maxVertex ?? Math.max(0, wholeVertices - 1),
        primitiveCount: g.primitiveCount ?? (indexSource
          ? Math.floor(Math.max(0, indexSource.byteLength - g.primitiveOffset) / (3 * indexBytes))
          : Math.floor(Math.max(0, wholeVertices - g.firstVertex) / 3)),
      };
      let indexData: Uint8Array | undefined;
      let highest: number;
      if (t.indexType !== 'none' && t.indexData) {
        indexData = indexSource!;
        const need = t.primitiveOffset + t.primitiveCount * 3 * indexBytes;
        if (t.primitiveOffset % indexBytes !== 0) problems.push(`${path}.primitiveOffset: ${t.primitiveOffset} is not a multiple of the ${indexBytes}-byte index size`);
        if (indexData.byteLength < need) {
          problems.push(`${path}.indexData: ${t.primitiveCount} triangles from byte ${t.primitiveOffset} need ${need} bytes of ${t.indexType} indices, the data has ${indexData.byteLength}`);
          highest = 0;
        } else {
          const view = new DataView(indexData.buffer, indexData.byteOffset, indexData.byteLength);
          highest = 0;
          for (let k = 0; k < t.primitiveCount * 3; k++) {
            const at = t.primitiveOffset + k * indexBytes;
            const idx = indexBytes === 2 ? view.getUint16(at, true) : view.getUint32(at, true);
            if (idx > t.maxVertex) {
              problems.push(`${path}.indexData: index ${idx} (element ${k}) exceeds maxVertex ${t.maxVertex}`);
              break;
            }
            highest = Math.max(highest, idx);
          }
        }
      } else {
        highest = t.primitiveCount * 3 - 1;
        if (highest > t.maxVertex) problems.push(`${path}.maxVertex: ${t.primitiveCount} non-indexed triangles read vertex ${highest}, beyond maxVertex ${t.maxVertex}`);
      }
      const vertexStart = t.indexType === 'none' ? t.primitiveOffset : 0;
      const need = t.primitiveCount === 0 ? 0 : vertexStart + (t.firstVertex + highest) * t.vertexStride + vertexBytes;
      if (vertexData.byteLength < need) {
        problems.push(`${path}.vertexData: vertex ${t.firstVertex + highest} at stride ${t.vertexStride} needs ${need} bytes, the data has ${vertexData.byteLength}`);
      }
      const out: GeometryDescription = {
        type: 'triangles', vertexData, vertexFormat: t.vertexFormat, vertexStride: t.vertexStride, maxVertex: t.maxVertex,
        indexType: t.indexType, flags, primitiveCount: t.primitiveCount, primitiveOffset: t.primitiveOffset, firstVertex: t.firstVertex,
      };
      if (indexData) out.indexData = indexData;
      if (t.transform) out.transformData = t.transform;
      return out;
    }),
  }));
  const instances = spec.instances.map((inst): InstanceDescription => ({
    transform: inst.transform,
    instanceCustomIndex: inst.customIndex,
    mask: inst.mask,
    instanceShaderBindingTableRecordOffset: inst.sbtOffset,
    flags: inst.flags.reduce((bits, f) => bits | INSTANCE_FLAG_BITS[f], 0),
    blas: inst.blas,
  }));
  if (problems.length > 0) throw new ManifestError(problems);
  return { blas, instances };
}

function readDataOf(d: { file: string } | { values: number[] }, as: 'f32' | 'u16' | 'u32', path: string, problems: string[], cache: Map<string, Uint8Array>): Uint8Array {
  try {
    // Many geometries often share one input buffer (one AABB file for hundreds of BLASes): read it once.
    const id = 'file' in d ? `${as}:${d.file}` : undefined;
    const hit = id === undefined ? undefined : cache.get(id);
    if (hit) return hit;
    const bytes = bytesOf(d, as, path);
    if (id !== undefined) cache.set(id, bytes);
    return bytes;
  } catch (e) {
    if (e instanceof ManifestError) {
      problems.push(...e.problems);
      return new Uint8Array(0);
    }
    problems.push(`${path}: cannot read ${'file' in d ? d.file : 'inline data'}: ${(e as Error).message}`);
    return new Uint8Array(0);
  }
}
