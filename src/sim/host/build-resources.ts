/**
 * The host side of a Vulkan ray tracing application, done from a manifest: fill every descriptor
 * the manifest declares (acceleration structure, storage images, uniform / storage buffers packed
 * in the layout the shader's block declares, sampled textures), push constants and shader
 * records, and place everything in the one simulated address space.
 *
 * Address plan (byte addresses, never overlapping): scene / manifest buffers from SCENE_BASE up
 * (known before packing, so instance descriptions can hold device addresses of other buffers);
 * the acceleration structure at AS_BASE; the functional core places the rest (images, push
 * constants) from its own allocator, which starts far below both.
 */
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import type { Global, Module } from '../../ir/module.js';
import { typeOf, typeName, type TypeId, type TypeTable } from '../../ir/types.js';
import { buildAccelerationStructure, buildAccelerationStructureFromDescriptions, type AccelerationStructure, type BuildOptions } from '../rt/acceleration-structure.js';
import { loadAccelerationStructureDescriptions } from '../workload/acceleration-structures.js';
import type { Scene } from '../rt/scene.js';
import { createImage, isTexelFormat, type SimImage } from '../functional/images.js';
import type { BufferResource, ImageResource, Resources } from '../functional/resources.js';
import { cameraMatrices } from '../workload/camera.js';
import {
  ManifestError, SCENE_BUFFER_FIELDS, type DescriptorBinding, type JsonValue, type SceneBufferKind, type WorkloadManifest,
} from '../workload/manifest.js';
import { JSON_DATA_FILE, readDataFile, readJsonDataFile } from '../workload/data-file.js';
import { LayoutPackError, layoutSize, packMembers, packValue } from '../workload/pack-layout.js';
import { sceneRecords, type SceneRecord } from './scene-records.js';

/**
 * What the host needs of a linked pipeline (src/passes/lower/rt-pipeline.ts `LinkedPipeline`,
 * restated here because the simulator does not depend on the passes): the module, and which
 * globals belong to which shader of the SBT.
 */
export interface LinkedPipeline {
  module: Module;
  shaders: { stage: string; path: string; sbtIndex: number; globals: readonly number[] }[];
}

export const SCENE_BASE = 2 ** 36;
export const AS_BASE = 2 ** 40;

/** Run parameters that override the manifest (CLI `--width`, `--spp`, ...). */
export interface RunParameters {
  width: number;
  height: number;
  spp: number;
  bounces: number;
  seed: number;
}

export interface HostSetup {
  resources: Resources;
  accels: AccelerationStructure[];
  /** The storage image with role 'output' (the rendered frame), if any. */
  output?: SimImage;
  specConstants: Map<number, number | boolean>;
  launch: [number, number, number];
}

export function runParameters(manifest: WorkloadManifest, overrides: Partial<RunParameters> = {}): RunParameters {
  return {
    width: overrides.width ?? manifest.launch.width,
    height: overrides.height ?? manifest.launch.height,
    spp: overrides.spp ?? manifest.spp,
    bounces: overrides.bounces ?? manifest.bounces,
    seed: overrides.seed ?? manifest.seed,
  };
}

/** `accel`: an acceleration structure already built for this manifest and scene (runs of one workload share it). */
export function buildHostSetup(
  manifest: WorkloadManifest, linked: LinkedPipeline, scene: Scene, params: RunParameters, accel?: AccelerationStructure,
): HostSetup {
  const m = linked.module;
  const where = manifest.path;
  const problems: string[] = [];
  const as = accel ?? buildAccelerationStructureFor(manifest, scene);
  const buffers: BufferResource[] = [];
  const images: ImageResource[] = [];
  const accels: Resources['accels'] = [];
  let output: SimImage | undefined;
  let next = SCENE_BASE;
  const place = (bytes: number): number => {
    const at = next;
    next = alignUp(next + Math.max(bytes, 16), 256);
    return at;
  };

  // Scene buffers first: instance descriptions need the others' addresses.
  const sceneBuffers = new Map<SceneBufferKind, { address: number; stride: number; data: Uint8Array }>();
  const descriptors = [...manifest.descriptors].sort((a, b) => sceneOrder(a) - sceneOrder(b));
  for (const d of descriptors) {
    const path = `${where}: descriptors[${manifest.descriptors.indexOf(d)}] (set=${d.set}, binding=${d.binding})`;
    const global = m.globals.find((g) => g.set === d.set && g.binding === d.binding);
    try {
      switch (d.kind) {
        case 'accelerationStructure':
          accels.push({ set: d.set, binding: d.binding, handle: 0 });
          break;
        case 'storageImage': {
          if (!isTexelFormat(d.format)) throw new ManifestError([`${path}.format: unsupported image format ${d.format}`]);
          const img = createImage(d.format, params.width, params.height);
          images.push({ set: d.set, binding: d.binding, image: img });
          if (d.role === 'output' && !output) output = img;
          break;
        }
        case 'uniformBuffer': {
          if (!global) break; // declared for shaders that are not in this pipeline
          const block = pointee(m.types, global);
          const data = new Uint8Array(alignUp(layoutSize(m.types, block), 16));
          if (d.data) {
            const bytes = readDataFile(d.data, `${path}.data`);
            if (bytes.byteLength < layoutSize(m.types, block)) {
              throw new ManifestError([`${path}.data: ${bytes.byteLength} bytes, but the block ${global.name} is ${layoutSize(m.types, block)} bytes`]);
            }
            data.set(bytes.subarray(0, data.byteLength));
          } else {
            const value: JsonValue | undefined = d.camera
              ? (cameraMatrices(d.camera, params.width / params.height) as unknown as JsonValue)
              : substituteRunParameters(d.value!, params);
            packInto(data, m.types, block, fitToBlock(m.types, block, value), path);
          }
          if (d.members) {
            packMembers(new DataView(data.buffer), block, m.types, substituteRunParameters(d.members, params) as Record<string, unknown>, `${path}.members`);
          }
          buffers.push({ set: d.set, binding: d.binding, data, address: place(data.byteLength) });
          break;
        }
        case 'storageBuffer': {
          let data: Uint8Array;
          let stride = 0;
          if (d.from === 'scene' && d.what) {
            const records = sceneRecords(scene, d.what, { get: (k) => sceneBuffers.get(k) });
            ({ data, stride } = packSceneBuffer(m, global, d.what, records, d.fields ?? {}, path));
            const address = place(data.byteLength);
            sceneBuffers.set(d.what, { address, stride, data });
            buffers.push({ set: d.set, binding: d.binding, data, address });
            break;
          }
          if (d.data) {
            data = JSON_DATA_FILE.test(d.data)
              ? packJsonBuffer(m, global, readJsonDataFile(d.data, `${path}.data`) as JsonValue, path)
              : readDataFile(d.data, `${path}.data`);
          } else if (d.value !== undefined) {
            data = packJsonBuffer(m, global, d.value, path);
          } else {
            const block = global ? pointee(m.types, global) : undefined;
            const elementBytes = block ? runtimeElementStride(m.types, block) : 4;
            data = new Uint8Array(Math.max(16, (d.elements ?? 1) * elementBytes + (block ? layoutSize(m.types, block) : 0)));
          }
          buffers.push({ set: d.set, binding: d.binding, data, address: place(data.byteLength) });
          break;
        }
        case 'sampledImages':
          d.files.forEach((file, index) => {
            const img = typeof file === 'string' ? loadPng(file, `${path}.files[${index}]`) : loadRawRgba8(file, `${path}.files[${index}]`);
            img.sampler = { filter: d.filter, wrapU: d.wrap, wrapV: d.wrap, wrapW: d.wrap };
            images.push({ set: d.set, binding: d.binding, arrayIndex: index, image: img });
          });
          break;
      }
    } catch (e) {
      if (e instanceof ManifestError) problems.push(...e.problems);
      else if (e instanceof LayoutPackError) problems.push(`${path}: ${e.message}`);
      else throw e;
    }
  }

  const resources: Resources = { buffers, images, accels };
  const pc = m.globals.find((g) => g.storage === 'pushConstant');
  if (pc) {
    if (!manifest.pushConstants) {
      problems.push(`${where}: pushConstants: missing, but the shaders declare a push_constant block '${pc.name}'`);
    } else {
      const block = pointee(m.types, pc);
      const data = new Uint8Array(alignUp(layoutSize(m.types, block), 16));
      try {
        packInto(data, m.types, block, substituteRunParameters(manifest.pushConstants, params), `${where}: pushConstants`);
        resources.pushConstants = { data };
      } catch (e) {
        if (e instanceof LayoutPackError) problems.push(`${where}: pushConstants: ${e.message}`);
        else throw e;
      }
    }
  }
  resources.shaderRecords = shaderRecords(manifest, linked, problems);
  if (problems.length > 0) throw new ManifestError(problems);
  return {
    resources,
    accels: [as],
    output,
    specConstants: new Map(Object.entries(manifest.specConstants).map(([k, v]) => [Number(k), v])),
    launch: [params.width, params.height, manifest.launch.depth],
  };
}

/**
 * The shader-record bytes of every shader that declares a shaderRecordEXT block, from its SBT
 * entry's `shaderRecord`. The record is bound per shader: a shader file used by two SBT entries
 * with different record data is reported (give each entry its own file).
 */
function shaderRecords(manifest: WorkloadManifest, linked: LinkedPipeline, problems: string[]): NonNullable<Resources['shaderRecords']> {
  const m = linked.module;
  const out = new Map<number, { data: Uint8Array; from: string; json: string }>();
  for (const s of linked.shaders) {
    const global = m.globals.find((g) => g.storage === 'shaderRecordBuffer' && s.globals.includes(g.id));
    if (!global) continue;
    const [from, record] =
      s.stage === 'raygen' ? ['raygenShaderRecord', manifest.raygenShaderRecord]
        : s.stage === 'miss' ? [`miss[${s.sbtIndex}].shaderRecord`, manifest.miss[s.sbtIndex]?.shaderRecord]
          : s.stage === 'callable' ? [`callables[${s.sbtIndex}].shaderRecord`, manifest.callables[s.sbtIndex]?.shaderRecord]
            : [`hitGroups[${s.sbtIndex}].shaderRecord`, manifest.hitGroups[s.sbtIndex]?.shaderRecord];
    if (record === undefined) continue;
    const json = JSON.stringify(record);
    const seen = out.get(global.id);
    if (seen) {
      if (seen.json !== json) {
        problems.push(`${manifest.path}: ${from}: ${s.path} is also bound by ${seen.from} with different shader record data; vvision binds one record per shader file, so give each SBT entry its own file`);
      }
      continue;
    }
    const block = pointee(m.types, global);
    const data = new Uint8Array(alignUp(Math.max(layoutSize(m.types, block), 4), 16));
    try {
      packInto(data, m.types, block, fitToBlock(m.types, block, record), `${manifest.path}: ${from}`);
    } catch (e) {
      if (e instanceof LayoutPackError) problems.push(`${manifest.path}: ${from}: ${e.message}`);
      else throw e;
    }
    out.set(global.id, { data, from, json });
  }
  for (const s of linked.shaders) {
    const global = m.globals.find((g) => g.storage === 'shaderRecordBuffer' && s.globals.includes(g.id));
    if (global && !out.has(global.id)) out.set(global.id, { data: new Uint8Array(16), from: '', json: '' });
  }
  return [...out].map(([global, r]) => ({ global, data: r.data }));
}

/** The BLAS/TLAS of a workload: declared ones (as the application builds them) win over the scene-derived ones. */
/** `layout`: node placement and treelet budget (the treelet paper's layout packs each treelet). */
export function buildAccelerationStructureFor(
  manifest: WorkloadManifest, scene: Scene, layout: Pick<BuildOptions, 'layout' | 'treeletBytes'> = {},
): AccelerationStructure {
  return manifest.accelerationStructures
    ? buildFromDescriptions(manifest, manifest.accelerationStructures, layout)
    : buildAccelerationStructure(scene, { baseAddress: AS_BASE, ...layout });
}

function buildFromDescriptions(
  manifest: WorkloadManifest, spec: NonNullable<WorkloadManifest['accelerationStructures']>, layout: Pick<BuildOptions, 'layout' | 'treeletBytes'>,
): AccelerationStructure {
  const { blas, instances } = loadAccelerationStructureDescriptions(spec, `${manifest.path}: accelerationStructures`);
  return buildAccelerationStructureFromDescriptions(blas, instances, { baseAddress: AS_BASE, ...layout });
}

/** Scene buffers before the instance descriptions that point into them. */
function sceneOrder(d: DescriptorBinding): number {
  if (d.kind !== 'storageBuffer' || d.from !== 'scene') return 1;
  return d.what === 'instanceDescriptions' ? 2 : 0;
}

function pointee(types: TypeTable, g: Global): TypeId {
  const t = typeOf(types, g.type);
  return t.kind === 'pointer' ? t.pointee : g.type;
}

function alignUp(x: number, a: number): number {
  return Math.ceil(x / a) * a;
}

function packInto(data: Uint8Array, types: TypeTable, type: TypeId, value: unknown, path: string): void {
  packValue(new DataView(data.buffer, data.byteOffset, data.byteLength), 0, type, types, value, path);
}

/** A block with a single struct member accepts the member's value directly (`uniform B { Camera cam; }`). */
function fitToBlock(types: TypeTable, block: TypeId, value: unknown): unknown {
  const t = typeOf(types, block);
  if (t.kind !== 'struct' || t.members.length !== 1 || typeof value !== 'object' || value === null) return value;
  const only = t.members[0]!;
  if (only.name in (value as object)) return value;
  return typeOf(types, only.type).kind === 'struct' ? { [only.name]: value } : value;
}

/** The block's trailing runtime array (the usual `buffer B { Elem e[]; }`), if any. */
function runtimeArrayMember(types: TypeTable, block: TypeId): { name: string; offset: number; elem: TypeId; stride: number } | undefined {
  const t = typeOf(types, block);
  if (t.kind !== 'struct') return undefined;
  const last = t.members[t.members.length - 1];
  if (!last) return undefined;
  const lt = typeOf(types, last.type);
  if (lt.kind !== 'runtimeArray') return undefined;
  return { name: last.name, offset: last.offset ?? 0, elem: lt.elem, stride: lt.stride ?? layoutSize(types, lt.elem) };
}

function runtimeElementStride(types: TypeTable, block: TypeId): number {
  return runtimeArrayMember(types, block)?.stride ?? 0;
}

function packJsonBuffer(m: Module, global: Global | undefined, value: JsonValue, path: string): Uint8Array {
  if (!global) throw new ManifestError([`${path}: no shader declares this binding, so its layout is unknown`]);
  const block = pointee(m.types, global);
  const ra = runtimeArrayMember(m.types, block);
  const fitted = fitToBlock(m.types, block, value);
  const n = ra && typeof fitted === 'object' && fitted && Array.isArray((fitted as Record<string, unknown>)[ra.name])
    ? ((fitted as Record<string, unknown[]>)[ra.name]!.length)
    : 0;
  const data = new Uint8Array(alignUp(layoutSize(m.types, block, n), 16));
  packInto(data, m.types, block, fitted, path);
  return data;
}

/**
 * Packs scene records into the element type of the shader's runtime array: each struct member
 * takes the record field of the same name (or the one `fields` maps it to). Without a shader
 * declaration (a buffer reached only through buffer_reference addresses), the records are packed
 * in scalar layout with the fields in `SCENE_BUFFER_FIELDS` order.
 */
function packSceneBuffer(
  m: Module, global: Global | undefined, kind: SceneBufferKind, records: SceneRecord[], fields: Record<string, string>, path: string,
): { data: Uint8Array; stride: number } {
  const ra = global ? runtimeArrayMember(m.types, pointee(m.types, global)) : undefined;
  if (!ra) return packScalarRecords(kind, records);
  const elem = typeOf(m.types, ra.elem);
  let values: unknown[];
  if (elem.kind === 'struct') {
    values = records.map((r, i) =>
      Object.fromEntries(elem.members.map((mem) => {
        const field = fields[mem.name] ?? mem.name;
        if (!(field in r)) {
          const known = Object.keys(SCENE_BUFFER_FIELDS[kind]).join(', ');
          throw new ManifestError([
            `${path}: element ${i}: the shader's ${typeName(m.types, ra.elem)} member '${mem.name}' has no scene field '${field}' in ${kind} (fields: ${known}; rename with "fields")`,
          ]);
        }
        return [mem.name, r[field]];
      })));
  } else if (elem.kind === 'vector' || kind !== 'indices') {
    values = records.map((r) => r['']);
  } else {
    values = records.flatMap((r) => r[''] as number[]); // `uint indices[]`: three per triangle
  }
  const data = new Uint8Array(alignUp(ra.offset + values.length * ra.stride, 16) || 16);
  const view = new DataView(data.buffer);
  values.forEach((v, i) => packValue(view, ra.offset + i * ra.stride, ra.elem, m.types, v, `${path}[${i}]`));
  return { data, stride: ra.stride };
}

const SCALAR_FIELD_BYTES: Record<string, number> = {
  vec3: 12, vec2: 8, float: 4, int: 4, uint: 4, uvec3: 12, uint64_t: 8,
};

function packScalarRecords(kind: SceneBufferKind, records: SceneRecord[]): { data: Uint8Array; stride: number } {
  const fields = Object.entries(SCENE_BUFFER_FIELDS[kind]);
  const stride = fields.reduce((s, [, t]) => s + SCALAR_FIELD_BYTES[t]!, 0);
  const data = new Uint8Array(Math.max(16, records.length * stride));
  const view = new DataView(data.buffer);
  records.forEach((r, i) => {
    let at = i * stride;
    for (const [name, t] of fields) {
      const v = r[name];
      const items = Array.isArray(v) ? v : [v];
      for (const x of items) {
        if (t === 'uint64_t') view.setBigUint64(at, BigInt(x as bigint), true);
        else if (t === 'int') view.setInt32(at, Number(x), true);
        else if (t === 'uint' || t === 'uvec3') view.setUint32(at, Number(x), true);
        else view.setFloat32(at, Number(x), true);
        at += t === 'uint64_t' ? 8 : 4;
      }
    }
  });
  return { data, stride };
}

/** "${spp}"-style strings in push constants become the run's parameters. */
function substituteRunParameters(value: JsonValue, params: RunParameters): JsonValue {
  if (typeof value === 'string') {
    const m = /^\$\{(spp|bounces|seed|width|height)\}$/.exec(value);
    return m ? params[m[1] as keyof RunParameters] : value;
  }
  if (Array.isArray(value)) return value.map((v) => substituteRunParameters(v, params));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteRunParameters(v, params)]));
  }
  return value;
}

function loadRawRgba8(t: { file: string; width: number; height: number }, path: string): SimImage {
  const texels = readDataFile(t.file, `${path}.file`);
  if (texels.byteLength !== t.width * t.height * 4) {
    throw new ManifestError([`${path}.file: ${texels.byteLength} bytes, but ${t.width}x${t.height} R8G8B8A8 texels are ${t.width * t.height * 4}`]);
  }
  const img = createImage('rgba8', t.width, t.height);
  (img.levels[0]!.data as Uint8Array).set(texels);
  return img;
}

function loadPng(file: string, path: string): SimImage {
  let png: PNG;
  try {
    png = PNG.sync.read(readFileSync(file));
  } catch (e) {
    throw new ManifestError([`${path}: cannot read PNG ${file}: ${(e as Error).message}`]);
  }
  const img = createImage('rgba8', png.width, png.height);
  (img.levels[0]!.data as Uint8Array).set(png.data);
  return img;
}
