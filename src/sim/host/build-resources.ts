/**
 * The host side of a Vulkan ray tracing application, done from a manifest: fill every descriptor
 * the manifest declares (acceleration structure, storage images, uniform / storage buffers packed
 * in the layout the shader's block declares, sampled textures), push constants and shader
 * records, and place everything in the one simulated address space.
 *
 * Address plan (byte addresses, never overlapping): the descriptors' buffers from SCENE_BASE up in
 * manifest order (scene buffers first, instance descriptions last), then the `buffers` section's
 * in its order, each 256-byte aligned; the acceleration structure at AS_BASE; the functional core
 * places the rest (images, push constants) from its own allocator, which starts far below both.
 * Values holding `{"addressOf": name}` are packed again once every buffer is placed (address-plan.ts).
 */
import type { Global, Module } from '../../ir/module.js';
import { typeOf, typeName, type TypeId, type TypeTable } from '../../ir/types.js';
import { buildAccelerationStructure, buildAccelerationStructureFromDescriptions, type AccelerationStructure, type BuildOptions } from '../rt/acceleration-structure.js';
import { fitToBlock } from '../workload/check-interface.js';
import { loadAccelerationStructureDescriptions, usesNamedBuffers, type NamedBufferBytes } from '../workload/acceleration-structures.js';
import type { Scene, Texture } from '../rt/scene.js';
import { createImage, isTexelFormat, withMipChain, type SimImage } from '../functional/images.js';
import type { BufferResource, ImageResource, Resources } from '../functional/resources.js';
import { packCamera } from '../workload/camera.js';
import {
  ManifestError, type DescriptorBinding, type JsonValue, type SceneBufferKind, type StorageBufferContent, type WorkloadManifest,
} from '../workload/manifest.js';
import { readDataFile } from '../workload/data-file.js';
import { decodeTextureBytes, decodeTextureFile } from '../workload/texture-files.js';
import { LayoutPackError, layoutSize, packMembers, packValue, type PackOptions } from '../workload/pack-layout.js';
import { sceneRecords } from './scene-records.js';
import { srgbToLinear } from './scene-conversions.js';
import { dependsOnFrame, substitutePlaceholders, type PlaceholderValues } from '../workload/run-placeholders.js';
import { AddressPlan } from './address-plan.js';
import { alignUp, elementLayout, emptyBuffer, packDataFile, packJson, packSceneRecords, scalarRecordStride } from './buffer-contents.js';

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

/** Run parameters that override the manifest (CLI `--width`, `--spp`, `--frames`, ...). */
export interface RunParameters {
  width: number;
  height: number;
  spp: number;
  bounces: number;
  seed: number;
  /** Trace-rays launches, one per frame (manifest `frames`, default 1). */
  frames: number;
}

export interface HostSetup {
  resources: Resources;
  accels: AccelerationStructure[];
  /** The storage image with role 'output' (the rendered frame), if any. */
  output?: SimImage;
  specConstants: Map<number, number | boolean>;
  launch: [number, number, number];
  /** The packed bytes of every named buffer (`buffers` entries and storage buffers with an `id`): what declared BLAS inputs `{"buffer": name}` read. */
  namedBuffers: ReadonlyMap<string, Uint8Array>;
  /**
   * Multi-frame runs: what the host does before launching frame `frame` (0-based, in order):
   * resets the resources whose `eachFrame` is 'clear' or 'upload' (from frame 1 on) and writes the
   * uniform buffers and push constants whose values depend on the frame. Its cost does not depend
   * on the frame index.
   */
  startFrame(frame: number): void;
}

export function runParameters(manifest: WorkloadManifest, overrides: Partial<RunParameters> = {}): RunParameters {
  return {
    width: overrides.width ?? manifest.launch.width,
    height: overrides.height ?? manifest.launch.height,
    spp: overrides.spp ?? manifest.spp,
    bounces: overrides.bounces ?? manifest.bounces,
    seed: overrides.seed ?? manifest.seed,
    frames: overrides.frames ?? manifest.frames ?? 1,
  };
}

/** `accel`: an acceleration structure already built for this manifest and scene (runs of one workload share it). */
export function buildHostSetup(
  manifest: WorkloadManifest, linked: LinkedPipeline, scene: Scene, runParams: RunParameters, accel?: AccelerationStructure,
  accelLayout: Pick<BuildOptions, 'layout' | 'treeletBytes'> = {},
  /** Where the descriptors' and named buffers go (default SCENE_BASE): the device bundle moves it to find the bytes that hold addresses. */
  addressBase = SCENE_BASE,
): HostSetup {
  const params = { ...runParams, depth: manifest.launch.depth };
  const m = linked.module;
  const where = manifest.path;
  const problems: string[] = [];
  /** Packed bytes of every named buffer, for BLAS inputs that name one. */
  const named = new Map<string, Uint8Array>();
  // Declared geometry reading the host's own buffers is built once they are packed (below).
  const afterBuffers = usesNamedBuffers(manifest.accelerationStructures);
  let as = afterBuffers ? undefined : accel ?? buildAccelerationStructureFor(manifest, scene, accelLayout);
  const buffers: BufferResource[] = [];
  const images: ImageResource[] = [];
  const accels: Resources['accels'] = [];
  let output: SimImage | undefined;
  let next = addressBase;
  const place = (bytes: number): number => {
    const at = next;
    next = alignUp(next + Math.max(bytes, 16), 256);
    return at;
  };

  const plan = new AddressPlan();
  const opts: PackOptions = { resolveAddress: plan.resolve };
  const aspect = params.width / params.height;
  const memory: NonNullable<Resources['memory']> = [];
  /** The frame whose values the packers write (startFrame sets it). */
  let frame = 0;
  const placeholders = (): PlaceholderValues => ({ ...params, depth: manifest.launch.depth, frame, frames: params.frames });
  /** Per frame: resets (from frame 1 on), then repacks. */
  const resets: (() => void)[] = [];
  const repacks: (() => void)[] = [];
  /** Buffers uploaded again each frame: their content once every address is final. */
  const uploads: Uint8Array[] = [];
  /** Named buffers that could not be packed (already reported). */
  const failed = new Set<string>();
  const fail = (e: unknown, path: string, name?: string): void => {
    if (e instanceof ManifestError) problems.push(...e.problems);
    // Pack errors thrown under a key path that already names the file and key are not prefixed again.
    else if (e instanceof LayoutPackError) problems.push(e.path.startsWith(where) ? e.message : `${path}: ${e.message}`);
    else throw e;
    // A buffer that failed still gets an address, so values naming it do not add "no buffer named" follow-ons.
    if (name !== undefined && !plan.address(name)) plan.place(name, place(16), 0);
    if (name !== undefined) failed.add(name);
  };

  // Scene buffers first: instance descriptions need the others' addresses.
  const sceneBuffers = new Map<SceneBufferKind, { address: number; stride: number; data: Uint8Array }>();
  /** A storage buffer's bytes; whole-scene buffers are recorded for instance descriptions. */
  const storageBuffer = (content: StorageBufferContent, global: Global | undefined, path: string, name: string | undefined): { data: Uint8Array; address: number } => {
    const layout = elementLayout(m, global, content, path);
    let stride = layout?.stride ?? 0;
    let data: Uint8Array;
    if (content.from === 'scene' && content.what) {
      const what = content.what;
      const pack = () => packSceneRecords(
        layout, what, sceneRecords(scene, what, { get: (k) => sceneBuffers.get(k) }, content.model), content.fields ?? {}, path, opts, content.field,
      ).data;
      // Records holding addresses of other scene buffers are packed again once all are placed.
      data = plan.packed(pack, path, what === 'instanceDescriptions' || what === 'models');
      if (!layout) stride = scalarRecordStride(what);
    } else if (content.data) {
      const file = content.data;
      data = plan.packed(() => packDataFile(layout, file, path, opts, fitToBlock), path);
    } else if (content.value !== undefined) {
      const value = content.value;
      data = plan.packed(() => packJson(layout, value, path, opts, fitToBlock), path);
    } else {
      data = emptyBuffer(layout, content.elements ?? 1);
    }
    const address = place(data.byteLength);
    if (content.from === 'scene' && content.what && content.model === undefined && !sceneBuffers.has(content.what)) {
      sceneBuffers.set(content.what, { address, stride, data });
    }
    if (name !== undefined) {
      plan.place(name, address, stride);
      named.set(name, data);
    }
    if (content.eachFrame === 'clear') resets.push(() => data.fill(0));
    else if (content.eachFrame === 'upload') uploads.push(data);
    return { data, address };
  };

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
          if (d.eachFrame === 'clear' || d.eachFrame === 'upload') resets.push(() => img.levels.forEach((l) => l.data.fill(0)));
          if (d.role === 'output' && !output) output = img;
          break;
        }
        case 'uniformBuffer': {
          // Stages may declare one binding differently (a raygen's block without the member a
          // closest-hit adds): the buffer is what the host binds, so it is as large as the largest
          // declaration and every declaration's members can be filled. Per-frame overrides
          // (camera path, members) apply to the frame being packed.
          const declarations = blockDeclarations(m, d.set, d.binding);
          if (declarations.length === 0) break; // declared for shaders that are not in this pipeline
          const values = (v: JsonValue): unknown => substitutePlaceholders(v, placeholders());
          const pack = (): Uint8Array => {
            const override = frameEntry(d.perFrame, frame);
            const framed = override === undefined ? d : {
              ...d,
              ...(override.camera && d.camera ? { camera: { ...d.camera, ...override.camera } } : {}),
              ...(override.members ? { members: { ...(d.members ?? {}), ...override.members } } : {}),
            };
            return packUniformBlock(m.types, declarations, framed, values, aspect, path, opts);
          };
          const data = plan.packed(pack, path);
          buffers.push({ set: d.set, binding: d.binding, data, address: place(data.byteLength) });
          if (d.perFrame || dependsOnFrame(d.value) || dependsOnFrame(d.members)) repacks.push(() => data.set(pack()));
          break;
        }
        case 'storageBuffer': {
          const { data, address } = storageBuffer(d, global, path, d.id);
          buffers.push({ set: d.set, binding: d.binding, data, address });
          break;
        }
        case 'sampledImages':
          if (d.files === 'scene' && scene.textures.length === 0) throw new ManifestError([`${path}.files: "scene", but the scene has no textures`]);
          (d.files === 'scene' ? scene.textures : d.files).forEach((file, index) => {
            const at = `${path}.files[${index}]`;
            const loaded = loadTexture(file, at, d.mipmaps === 'file');
            const base = d.format === 'R8G8B8A8_SRGB' ? srgbToLinearImage(loaded) : loaded;
            const img = d.mipmaps === 'generate' ? withMipChain(base) : base;
            img.sampler = { filter: d.filter, wrapU: d.wrap, wrapV: d.wrap, wrapW: d.wrap };
            images.push({ set: d.set, binding: d.binding, arrayIndex: index, image: img });
          });
          break;
      }
    } catch (e) {
      fail(e, path, d.kind === 'storageBuffer' ? d.id : undefined);
    }
  }
  // Named buffers no descriptor binds: device memory reached through their addresses only.
  for (const b of manifest.buffers ?? []) {
    const path = `${where}: ${b.key} ("${b.name}")`;
    try {
      const { data, address } = storageBuffer(b.content, undefined, path, b.name);
      memory.push({ address, data, label: b.name });
    } catch (e) {
      fail(e, path, b.name);
    }
  }
  try {
    plan.repackAll();
  } catch (e) {
    fail(e, where);
  }
  if (!as) {
    // Geometry read from a buffer that failed to pack adds only follow-ons (no such buffer, counts
    // and ranges over no data): the buffer's own problem is the one to report.
    let readsFailed = false;
    try {
      as = buildAccelerationStructureFor(manifest, scene, accelLayout, (name) => {
        if (failed.has(name)) readsFailed = true;
        return named.get(name);
      });
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      if (!readsFailed) problems.push(...e.problems);
    }
  }

  const resources: Resources = { buffers, images, accels, ...(memory.length > 0 ? { memory } : {}) };
  // One push constant range, which stages may declare differently (a miss shader reading only its
  // first member, other block names): packed through the largest declaration the value fits.
  const pcs = m.globals.filter((g) => g.storage === 'pushConstant')
    .map((g) => ({ g, block: pointee(m.types, g) }))
    .sort((a, b) => layoutSize(m.types, b.block) - layoutSize(m.types, a.block));
  const pc = pcs[0]?.g;
  if (pc) {
    if (!manifest.pushConstants) {
      problems.push(`${where}: pushConstants: missing, but the shaders declare a push_constant block '${pc.name}'`);
    } else {
      const data = new Uint8Array(alignUp(layoutSize(m.types, pcs[0]!.block), 16));
      const base = manifest.pushConstants;
      const pack = (): void => {
        const over = frameEntry(manifest.perFramePushConstants, frame);
        const value = substitutePlaceholders(over ? { ...base, ...over } : base, placeholders());
        let first: unknown;
        for (const { block } of pcs) {
          data.fill(0);
          try {
            packValue(new DataView(data.buffer), 0, block, m.types, fitToBlock(m.types, block, value), `${where}: pushConstants`, opts);
            return;
          } catch (e) {
            if (!(e instanceof LayoutPackError)) throw e;
            first ??= e;
          }
        }
        throw first;
      };
      try {
        pack();
        resources.pushConstants = { data };
        if (manifest.perFramePushConstants || dependsOnFrame(base)) repacks.push(pack);
      } catch (e) {
        if (e instanceof LayoutPackError) problems.push(`${where}: pushConstants: ${e.message}`);
        else throw e;
      }
    }
  }
  resources.shaderRecords = shaderRecords(manifest, linked, problems, opts);
  for (const data of uploads) {
    const initial = data.slice();
    resets.push(() => data.set(initial));
  }
  // Every per-frame entry is packed once here, so a bad value is reported before any frame runs.
  const distinctFrames = Math.min(params.frames, Math.max(
    dependsOnFrame(manifest.pushConstants) || repacks.length > 0 ? 1 : 0, manifest.perFramePushConstants?.length ?? 0,
    ...manifest.descriptors.map((d) => (d.kind === 'uniformBuffer' ? d.perFrame?.length ?? 0 : 0)),
  ));
  for (let f = 1; f < distinctFrames && problems.length === 0; f++) {
    frame = f;
    try {
      for (const r of repacks) r();
    } catch (e) {
      fail(e, `${where}: frame ${f}`);
    }
  }
  frame = 0;
  if (problems.length === 0) for (const r of repacks) r();
  if (problems.length > 0) throw new ManifestError(problems);
  return {
    resources,
    accels: [as!],
    output,
    specConstants: new Map(Object.entries(manifest.specConstants).map(([k, v]) => [Number(k), v])),
    launch: [params.width, params.height, manifest.launch.depth],
    namedBuffers: named,
    startFrame(f: number): void {
      frame = f;
      if (f > 0) for (const r of resets) r();
      for (const r of repacks) r();
    },
  };
}

/** A per-frame list's entry for `frame`: frames past the list use its last entry. */
function frameEntry<T>(list: readonly T[] | undefined, frame: number): T | undefined {
  return list === undefined || list.length === 0 ? undefined : list[Math.min(frame, list.length - 1)];
}

/**
 * The shader-record bytes of every shader that declares a shaderRecordEXT block, from its SBT
 * entry's `shaderRecord`. The record is bound per shader: a shader file used by two SBT entries
 * with different record data is reported (give each entry its own file).
 */
function shaderRecords(manifest: WorkloadManifest, linked: LinkedPipeline, problems: string[], opts: PackOptions): NonNullable<Resources['shaderRecords']> {
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
      packValue(new DataView(data.buffer), 0, block, m.types, fitToBlock(m.types, block, record), `${manifest.path}: ${from}`, opts);
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

/** The block types (pointees) of every global bound at (set, binding), largest first. */
function blockDeclarations(m: Module, set: number, binding: number): { name: string; block: TypeId; size: number }[] {
  const seen = new Set<TypeId>();
  const out: { name: string; block: TypeId; size: number }[] = [];
  for (const g of m.globals) {
    if (g.set !== set || g.binding !== binding || g.storage !== 'uniform') continue;
    const block = pointee(m.types, g);
    if (seen.has(block)) continue;
    seen.add(block);
    out.push({ name: g.name, block, size: layoutSize(m.types, block) });
  }
  return out.sort((a, b) => b.size - a.size);
}

/**
 * A uniform buffer's bytes. Raw `data` is kept whole (never cut to a declaration) and must cover
 * the largest declaration; `value` and `camera` fill the first declaration (largest first) they
 * fit; each `members` entry is written through the first declaration that has that member.
 */
function packUniformBlock(
  types: TypeTable, declarations: { name: string; block: TypeId; size: number }[], d: Extract<DescriptorBinding, { kind: 'uniformBuffer' }>,
  values: (v: JsonValue) => unknown, aspect: number, path: string, opts: PackOptions,
): Uint8Array {
  const widest = declarations[0]!;
  let data = new Uint8Array(alignUp(Math.max(widest.size, 4), 16));
  if (d.data) {
    const bytes = readDataFile(d.data, `${path}.data`);
    if (bytes.byteLength < widest.size) {
      throw new ManifestError([`${path}.data: ${bytes.byteLength} bytes, but the block ${widest.name} (${structName(types, widest.block)}), the largest declaration of this binding, is ${widest.size} bytes`]);
    }
    data = new Uint8Array(alignUp(bytes.byteLength, 16));
    data.set(bytes);
  } else {
    const fill = (view: DataView, block: TypeId): void => {
      if (d.camera) packCamera(view, d.camera, aspect, types, block, `${path}.camera`);
      else packValue(view, 0, block, types, fitToBlock(types, block, values(d.value!)), path, opts);
    };
    let first: unknown;
    let packed = false;
    for (const decl of declarations) {
      const scratch = new Uint8Array(data.byteLength);
      try {
        fill(new DataView(scratch.buffer), decl.block);
      } catch (e) {
        if (!(e instanceof LayoutPackError)) throw e;
        first ??= e;
        continue;
      }
      data = scratch;
      packed = true;
      break;
    }
    if (!packed) throw first;
  }
  if (d.members) {
    const view = new DataView(data.buffer);
    for (const [name, value] of Object.entries(values(d.members) as Record<string, unknown>)) {
      let first: unknown;
      const written = declarations.some((decl) => {
        try {
          packMembers(view, decl.block, types, { [name]: value }, `${path}.members`, opts);
          return true;
        } catch (e) {
          if (!(e instanceof LayoutPackError)) throw e;
          first ??= e;
          return false;
        }
      });
      if (!written) throw first;
    }
  }
  return data;
}

/** The BLAS/TLAS of a workload: declared ones (as the application builds them) win over the scene-derived ones. */
/** `layout`: node placement and treelet budget (the treelet paper's layout packs each treelet). */
/** `namedBytes`: the host's packed buffers, for declared geometry that names one (`{"buffer": name}`). */
export function buildAccelerationStructureFor(
  manifest: WorkloadManifest, scene: Scene, layout: Pick<BuildOptions, 'layout' | 'treeletBytes'> = {}, namedBytes?: NamedBufferBytes,
): AccelerationStructure {
  return manifest.accelerationStructures
    ? buildFromDescriptions(manifest, manifest.accelerationStructures, layout, namedBytes)
    : buildAccelerationStructure(scene, { baseAddress: AS_BASE, ...layout });
}

function buildFromDescriptions(
  manifest: WorkloadManifest, spec: NonNullable<WorkloadManifest['accelerationStructures']>, layout: Pick<BuildOptions, 'layout' | 'treeletBytes'>,
  namedBytes?: NamedBufferBytes,
): AccelerationStructure {
  const { blas, instances } = loadAccelerationStructureDescriptions(spec, manifest.path, namedBytes);
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

/** One sampler array element: a PNG / JPEG / KTX2 file or scene texture, or raw R8G8B8A8 texels. */
function loadTexture(file: string | { file: string; width: number; height: number } | Texture, path: string, fileMips = false): SimImage {
  if (typeof file !== 'string' && !('path' in file)) {
    if (fileMips) throw new ManifestError([`${path}: mipmaps "file": raw texels have no mip levels; use "generate"`]);
    return loadRawRgba8(file, path);
  }
  const t = typeof file === 'string' ? decodeTextureFile(file, path)
    : file.data ? decodeTextureBytes(file.data, file.path, file.mimeType, path) : decodeTextureFile(file.path, path);
  const extra = fileMips ? t.mipLevels ?? [] : [];
  if (fileMips && extra.length === 0) {
    throw new ManifestError([`${path}: mipmaps "file": ${typeof file === 'string' ? file : file.path} stores no mip levels beyond level 0 (only KTX2 files can); use "generate"`]);
  }
  const img = createImage(t.format, t.width, t.height, { levels: 1 + extra.length });
  (img.levels[0]!.data as Uint8Array | Float32Array).set(t.texels);
  extra.forEach((l, k) => (img.levels[k + 1]!.data as Uint8Array | Float32Array).set(l.texels));
  return img;
}

/**
 * An R8G8B8A8_SRGB image as the sampler sees it: colour channels decoded to linear before
 * filtering (so a float image of the decoded texels filters exactly as the hardware does), alpha
 * as stored. Images that are not 8-bit RGBA are returned as they are.
 */
function srgbToLinearImage(img: SimImage): SimImage {
  if (img.format !== 'rgba8') return img;
  const level = img.levels[0]!;
  const out = createImage('rgba32f', level.width, level.height, { levels: img.levels.length });
  img.levels.forEach((l, k) => {
    const src = l.data as Uint8Array;
    const dst = out.levels[k]!.data as Float32Array;
    for (let i = 0; i < src.length; i++) dst[i] = i % 4 === 3 ? src[i]! / 255 : srgbToLinear(src[i]! / 255);
  });
  return out;
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

/** A block as its shader spells it (`UBO`), not the IR's `%UBO`. */
function structName(types: TypeTable, block: TypeId): string {
  const t = typeOf(types, block);
  return t.kind === 'struct' ? t.name : typeName(types, block);
}
