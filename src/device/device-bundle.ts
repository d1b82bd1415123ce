/**
 * A device bundle: a prepared run (src/driver/run-workload.ts `prepareRun`) resolved into what a
 * Vulkan host needs to run the workload's own pipeline on a real device, written as files for the
 * native host (native/vvision-host.c, whose header documents bundle.txt):
 *
 * - the stage modules as SPIR-V (the src/backend/spirv writer; instrumented when the run is),
 *   listed raygen, miss, hit groups, callables as the SBT orders them; each SBT record's
 *   shaderRecordEXT bytes;
 * - the descriptor layout and contents: the very bytes the simulator's host setup packed
 *   (uniform / storage buffers, push constants), storage images by format and size, the TLAS;
 * - BLAS geometry (float3 vertices with the build transform applied, uint32 indices with
 *   firstVertex added; AABBs) and TLAS instances, from the same descriptions the simulator builds;
 * - specialization constants, launch size, recursion depth and the subgroup size the
 *   instrumentation's ballots assume;
 * - sampled textures (combined image sampler arrays: texels of every mip level, filter, wrap);
 * - buffer_reference addresses: every buffer and address-only memory carries the address the
 *   simulator gave it, and `reloc` lines name each 64-bit word that holds such an address (found
 *   by building the host setup a second time at another base address: the words that moved by
 *   exactly that much), for the host to write the device's own addresses there;
 * - multi-frame runs (issue 24): what the simulator's host does before each frame
 *   (HostSetup.startFrame), found by running it over buffers filled with two different
 *   sentinel patterns: the bytes it wrote (the same under both) become `write` lines, images it
 *   zeroed `clear` lines, and the frame's push constants a `framepush` line.
 *
 * Invariant: the bundle holds nothing the simulator did not also run with; what the device host
 * cannot express (Zatel's pixel-cost counters) is refused here with a DeviceBundleError, before
 * any device runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { AS_BASE, buildHostSetup, SCENE_BASE } from '../sim/host/build-resources.js';
import { usesNamedBuffers } from '../sim/workload/acceleration-structures.js';
import { join } from 'node:path';
import { spirvBytes, writeSpirv } from '../backend/spirv/write-spirv.js';
import type { Module, Stage } from '../ir/module.js';
import { typeOf } from '../ir/types.js';
import type { PreparedRun } from '../driver/run-workload.js';
import { INSTRUMENTATION_BINDING, INSTRUMENTATION_SET, WARP_SIZE } from '../primitives/buffer-layout.js';
import {
  sceneAccelerationDescriptions, type BottomLevelDescription, type InstanceDescription, type TrianglesGeometryDescription,
} from '../sim/rt/acceleration-structure.js';
import { loadAccelerationStructureDescriptions } from '../sim/workload/acceleration-structures.js';
import type { TexelFormat } from '../sim/functional/images.js';

export class DeviceBundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceBundleError';
  }
}

/** Storage image formats the device host binds: VkFormat and bytes per texel. */
const VK_FORMATS: Partial<Record<TexelFormat, { vk: number; bytes: number }>> = {
  rgba8: { vk: 37, bytes: 4 },
  rgba16f: { vk: 97, bytes: 8 },
  rgba32f: { vk: 109, bytes: 16 },
  r32f: { vk: 100, bytes: 4 },
  rg32f: { vk: 103, bytes: 8 },
  r32ui: { vk: 98, bytes: 4 },
  rgba32ui: { vk: 107, bytes: 16 },
};

const STAGE_WORD: Record<Exclude<Stage, 'compute'>, string> = {
  raygen: 'rgen', miss: 'rmiss', closestHit: 'rchit', anyHit: 'rahit', intersection: 'rint', callable: 'rcall',
};

/** What the bundle's outputs are, for reading them back (device-outputs.ts). */
export interface DeviceBundle {
  dir: string;
  /** `image.bin`: the output storage image, tightly packed rows of this format. */
  image?: { format: TexelFormat; width: number; height: number };
  /** `dump.bin`: the whole instrumentation buffer, of this many words. */
  dumpWords?: number;
  stageCount: number;
  /** Launches in sequence (`frames`); with more than one, the host also writes OUT.fNNN.bin after each. */
  frames: number;
}

const FILTER_CODE = { nearest: 0, linear: 1 } as const;
const WRAP_CODE = { repeat: 0, mirroredRepeat: 1, clampToEdge: 2 } as const;
/** How far the second host setup moves the buffers (relocations): a 64-bit address word changes by exactly this. */
const RELOCATION_SHIFT = 2 ** 32;

/** Writes the bundle of `p` into `dir` (created). */
export function writeDeviceBundle(p: PreparedRun, dir: string, opts: { subgroupSize?: number } = {}): DeviceBundle {
  refuseUnsupported(p);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = ['vvision-device-bundle 1'];
  const file = (name: string, data: Uint8Array): string => {
    writeFileSync(join(dir, name), data);
    return name;
  };
  const [w, h, d] = p.host.launch;
  lines.push(`launch ${w} ${h} ${d}`, `recursion ${p.manifest.maxRecursionDepth}`);
  // The ballots of the instrumentation are one 32-bit word: ask for 32 lanes where the device can give them.
  lines.push(`subgroup ${opts.subgroupSize ?? (p.metadata ? WARP_SIZE : 0)}`);

  // Stages, each distinct module once, and the groups in SBT order.
  const stageIndex = new Map<Module, number>();
  const stageOf = (m: Module | undefined): number => {
    if (!m) return -1;
    let i = stageIndex.get(m);
    if (i === undefined) {
      i = stageIndex.size;
      stageIndex.set(m, i);
      const ep = m.entryPoints[0]!;
      if (ep.stage === 'compute') throw new DeviceBundleError(`${m.sources[0]?.path}: a compute module in a ray tracing pipeline`);
      const name = file(`stage${i}.spv`, spirvBytes(writeSpirv(m, { targetEnv: 'vulkan1.2' })));
      lines.push(`stage ${STAGE_WORD[ep.stage]} ${name} ${ep.name}`);
    }
    return i;
  };
  const s = p.stages;
  const groups: string[] = [`group general ${stageOf(s.raygen)}`];
  for (const m of s.miss) groups.push(`group general ${stageOf(m)}`);
  s.hitGroups.forEach((g, k) => {
    const type = p.manifest.hitGroups[k]?.type ?? (g.intersection ? 'procedural' : 'triangles');
    groups.push(type === 'procedural'
      ? `group procedural ${stageOf(g.closestHit)} ${stageOf(g.anyHit)} ${stageOf(g.intersection)}`
      : `group triangles ${stageOf(g.closestHit)} ${stageOf(g.anyHit)}`);
  });
  for (const m of s.callables) groups.push(`group general ${stageOf(m)}`);
  lines.push(...groups, `sbt 1 ${s.miss.length} ${s.hitGroups.length} ${s.callables.length}`);
  for (const [k, data] of shaderRecordsByGroup(p)) lines.push(`record ${k} ${file(`record${k}.bin`, data)} ${data.byteLength}`);

  for (const [id, value] of specConstants(p)) lines.push(`spec ${id} ${value >>> 0}`);
  lines.push(...geometryLines(p, file));

  const frames = p.params.frames;
  const out: DeviceBundle = { dir, stageCount: stageIndex.size, frames };
  const res = p.host.resources;
  /** Resource bytes -> the bundle file holding them (frame writes and relocations name it). */
  const fileOf = new Map<Uint8Array, string>();
  for (const a of res.accels ?? []) lines.push(`as ${a.set} ${a.binding}`);
  (res.buffers ?? []).forEach((b, k) => {
    const isDump = b.set === INSTRUMENTATION_SET && b.binding === INSTRUMENTATION_BINDING && p.metadata !== undefined;
    const kind = p.manifest.descriptors.find((x) => x.set === b.set && x.binding === b.binding)?.kind === 'uniformBuffer' ? 'uniform' : 'storage';
    if (isDump) {
      out.dumpWords = b.data.byteLength / 4;
      lines.push(`buffer ${b.set} ${b.binding} storage - ${b.data.byteLength} dump 1`);
    } else {
      const name = file(`buffer${k}.bin`, b.data);
      fileOf.set(b.data, name);
      lines.push(`buffer ${b.set} ${b.binding} ${kind} ${name} ${b.data.byteLength} - 0${b.address !== undefined ? ` ${b.address}` : ''}`);
    }
  });
  (res.memory ?? []).forEach((m, k) => {
    const name = file(`memory${k}.bin`, m.data);
    fileOf.set(m.data, name);
    lines.push(`memory ${name} ${m.data.byteLength} ${m.address}`);
  });
  const textureCount = new Map<string, number>();
  for (const i of res.images ?? []) if (isTexture(i)) textureCount.set(`${i.set}:${i.binding}`, Math.max(textureCount.get(`${i.set}:${i.binding}`) ?? 0, (i.arrayIndex ?? 0) + 1));
  (res.images ?? []).forEach((i, k) => {
    const level = i.image.levels[0]!;
    const f = VK_FORMATS[i.image.format];
    const what = isTexture(i) ? 'sampled texture' : 'storage image';
    if (!f) throw new DeviceBundleError(`${p.manifest.path}: ${what} (set ${i.set}, binding ${i.binding}) format ${i.image.format} is not supported by the device host`);
    if (isTexture(i)) {
      if (i.image.layers !== 1 || level.depth !== 1) throw new DeviceBundleError(`${p.manifest.path}: sampled texture (set ${i.set}, binding ${i.binding}): only 2D single-layer textures run on the device host`);
      const smp = i.image.sampler!;
      // Every mip level, level 0 first, tightly packed one after the other (the host copies each).
      const levels = i.image.levels.map((l) => bytesOf(l.data));
      const all = new Uint8Array(levels.reduce((n, l) => n + l.byteLength, 0));
      levels.reduce((at, l) => (all.set(l, at), at + l.byteLength), 0);
      const name = file(`texture${k}.bin`, all);
      lines.push(`texture ${i.set} ${i.binding} ${i.arrayIndex ?? 0} ${textureCount.get(`${i.set}:${i.binding}`)} ${f.vk} ${f.bytes} ${level.width} ${level.height} ${FILTER_CODE[smp.filter]} ${WRAP_CODE[smp.wrapU]} ${name} ${levels.length}`);
      return;
    }
    // The output as image.bin; other storage images (accumulation) as image-SET-BINDING.bin, for whoever keeps the bundle.
    const isOutput = i.image === p.host.output;
    lines.push(`image ${i.set} ${i.binding} ${f.vk} ${f.bytes} ${level.width} ${level.height} ${isOutput ? 'image' : `image-${i.set}-${i.binding}`}`);
    if (isOutput) out.image = { format: i.image.format, width: level.width, height: level.height };
  });
  if (res.pushConstants) {
    fileOf.set(res.pushConstants.data, 'push.bin');
    lines.push(`push ${file('push.bin', res.pushConstants.data)} ${res.pushConstants.data.byteLength}`);
  }
  for (const [k, data] of shaderRecordsByGroup(p)) fileOf.set(data, `record${k}.bin`);
  lines.push(...relocationLines(p, fileOf));
  if (frames > 1) lines.push(`frames ${frames}`, ...frameLines(p, file, fileOf));
  writeFileSync(join(dir, 'bundle.txt'), `${lines.join('\n')}\n`);
  return out;
}

function isTexture(i: { arrayIndex?: number; image: { sampler?: unknown } }): boolean {
  return i.arrayIndex !== undefined || i.image.sampler !== undefined;
}

/**
 * `reloc FILE OFFSET SIMVALUE` for every 64-bit word of the host's bytes that holds a simulated
 * buffer address: the host setup built again with its buffers RELOCATION_SHIFT higher, the words
 * that differ by exactly that much.
 */
function relocationLines(p: PreparedRun, fileOf: Map<Uint8Array, string>): string[] {
  const res = p.host.resources;
  const accel = usesNamedBuffers(p.manifest.accelerationStructures) ? undefined : p.host.accels[0];
  const moved = buildHostSetup(p.manifest, p.linked, p.scene, p.params, accel, {}, SCENE_BASE + RELOCATION_SHIFT).resources;
  const pairs: [Uint8Array, Uint8Array | undefined][] = [];
  const key = (b: { set: number; binding: number; arrayIndex?: number }) => `${b.set}:${b.binding}:${b.arrayIndex ?? 0}`;
  const movedBuffers = new Map((moved.buffers ?? []).map((b) => [key(b), b.data]));
  for (const b of res.buffers ?? []) pairs.push([b.data, movedBuffers.get(key(b))]);
  (res.memory ?? []).forEach((m, k) => pairs.push([m.data, moved.memory?.[k]?.data]));
  if (res.pushConstants) pairs.push([res.pushConstants.data, moved.pushConstants?.data]);
  const movedRecords = new Map((moved.shaderRecords ?? []).map((r) => [r.global, r.data]));
  for (const r of res.shaderRecords ?? []) pairs.push([r.data, movedRecords.get(r.global)]);
  const lines: string[] = [];
  const shift = BigInt(RELOCATION_SHIFT);
  // SCENE_BASE and AS_BASE are multiples of 2^32: x is in [SCENE_BASE, AS_BASE) exactly when its high
  // word is in [these), a test on one 32-bit read that skips the BigInts for almost every word.
  const lowHigh = SCENE_BASE / 2 ** 32;
  const endHigh = AS_BASE / 2 ** 32;
  for (const [a, b] of pairs) {
    const name = fileOf.get(a);
    if (!name || !b || b.byteLength !== a.byteLength) continue;
    const va = new DataView(a.buffer, a.byteOffset, a.byteLength);
    const vb = new DataView(b.buffer, b.byteOffset, b.byteLength);
    for (let k = 0; k + 8 <= a.byteLength; k += 4) {
      const high = va.getUint32(k + 4, true);
      if (high < lowHigh || high >= endHigh) continue;
      const x = va.getBigUint64(k, true);
      if (vb.getBigUint64(k, true) - x !== shift) continue;
      lines.push(`reloc ${name} ${k} ${x}`);
      k += 4;
    }
  }
  return lines;
}

/**
 * `frame F` and its host work for frames 1..N-1: HostSetup.startFrame(F) run over every buffer
 * filled with 0x5a and again with 0xa5; bytes equal after both are the ones it wrote. The
 * prepared run's bytes are restored afterwards.
 */
function frameLines(p: PreparedRun, file: (name: string, data: Uint8Array) => string, fileOf: Map<Uint8Array, string>): string[] {
  const res = p.host.resources;
  const buffers = [...(res.buffers ?? []).map((b) => b.data), ...(res.memory ?? []).map((m) => m.data)].filter((d) => fileOf.has(d));
  const images = (res.images ?? []).filter((i) => !isTexture(i));
  const imageBytes = images.map((i) => bytesOf(i.image.levels[0]!.data));
  const saved = [...buffers, ...imageBytes].map((d) => d.slice());
  const push = res.pushConstants?.data;
  const savedPush = push?.slice();
  const lines: string[] = [];
  let lastPush = savedPush;
  const run = (f: number, fill: number): Uint8Array[] => {
    for (const d of [...buffers, ...imageBytes]) d.fill(fill);
    p.host.startFrame(f);
    return [...buffers, ...imageBytes].map((d) => d.slice());
  };
  for (let f = 1; f < p.params.frames; f++) {
    lines.push(`frame ${f}`);
    const a = run(f, 0x5a);
    const b = run(f, 0xa5);
    buffers.forEach((d, k) => {
      const x = a[k]!;
      const y = b[k]!;
      for (let i = 0; i < x.length;) {
        if (x[i] !== y[i]) { i++; continue; }
        let j = i;
        while (j < x.length && x[j] === y[j]) j++;
        const patch = x.subarray(i, j);
        lines.push(`write ${fileOf.get(d)} ${i} ${file(`frame${f}-${fileOf.get(d)!.replace(/\.bin$/, '')}-${i}.bin`, patch)} ${j - i}`);
        i = j;
      }
    });
    images.forEach((img, k) => {
      const x = a[buffers.length + k]!;
      const y = b[buffers.length + k]!;
      if (x.every((v, i) => v === 0 && y[i] === 0)) lines.push(`clear ${img.set} ${img.binding}`);
    });
    if (push && lastPush && !push.every((v, i) => v === lastPush![i])) {
      lines.push(`framepush ${file(`frame${f}-push.bin`, push)}`);
    }
    lastPush = push?.slice();
  }
  // Back to frame 0: its values of what depends on the frame, then every byte as it was.
  p.host.startFrame(0);
  [...buffers, ...imageBytes].forEach((d, k) => d.set(saved[k]!));
  if (push && savedPush) push.set(savedPush);
  return lines;
}

function refuseUnsupported(p: PreparedRun): void {
  if (p.pixelCost) throw new DeviceBundleError('Zatel pixel-cost counters run on the simulator only');
}

/** Group index (raygen 0, then miss, hit, callable) -> the shaderRecordEXT bytes the simulator bound for it. */
function shaderRecordsByGroup(p: PreparedRun): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  const records = new Map((p.host.resources.shaderRecords ?? []).map((r) => [r.global, r.data]));
  if (records.size === 0) return out;
  const m = p.linked.module;
  const firstOf = { raygen: 0, miss: 1, hit: 1 + p.stages.miss.length, callable: 1 + p.stages.miss.length + p.stages.hitGroups.length };
  for (const sh of p.linked.shaders) {
    const g = m.globals.find((x) => x.storage === 'shaderRecordBuffer' && sh.globals.includes(x.id));
    const data = g ? records.get(g.id) : undefined;
    if (!data) continue;
    const group = sh.stage === 'raygen' ? 0 : sh.stage === 'miss' ? firstOf.miss + sh.sbtIndex
      : sh.stage === 'callable' ? firstOf.callable + sh.sbtIndex : firstOf.hit + sh.sbtIndex;
    if (!out.has(group)) out.set(group, data);
  }
  return out;
}

/** constant_id -> the 32-bit word the specialization data holds, typed by the shaders' declarations. */
function specConstants(p: PreparedRun): Map<number, number> {
  const out = new Map<number, number>();
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const modules = [p.stages.raygen, ...p.stages.miss, ...p.stages.callables, ...p.stages.hitGroups.flatMap((g) => [g.closestHit, g.anyHit, g.intersection])];
  for (const m of modules) {
    if (!m) continue;
    for (const c of m.constants) {
      if (c.specId === undefined || out.has(c.specId)) continue;
      const given = p.host.specConstants.get(c.specId);
      const value = given ?? c.value;
      const t = typeOf(m.types, c.type);
      if (t.kind === 'bool') out.set(c.specId, value ? 1 : 0);
      else if (t.kind === 'float') {
        f32[0] = Number(value);
        out.set(c.specId, u32[0]!);
      } else out.set(c.specId, Number(value) | 0);
    }
  }
  return out;
}

/** `blas` / `tris` / `aabbs` / `instance` lines, from the same descriptions the simulator builds its BVH from. */
function geometryLines(p: PreparedRun, file: (name: string, data: Uint8Array) => string): string[] {
  let blases: BottomLevelDescription[];
  let instances: InstanceDescription[];
  if (p.manifest.accelerationStructures) {
    // BLAS inputs that name a buffer read the bytes the host packed for the shaders, as the simulator's do.
    const d = loadAccelerationStructureDescriptions(p.manifest.accelerationStructures, p.manifest.path, (name) => p.host.namedBuffers.get(name));
    blases = d.blas;
    instances = d.instances;
  } else {
    ({ blases, instances } = sceneAccelerationDescriptions(p.scene));
  }
  const lines: string[] = [];
  blases.forEach((b, k) => {
    lines.push(`blas ${k}`);
    b.geometries.forEach((g, j) => {
      if (g.type === 'aabbs') {
        const src = bytesOf(g.data);
        const out = new Uint8Array(g.primitiveCount * 24);
        for (let i = 0; i < g.primitiveCount; i++) out.set(src.subarray(g.primitiveOffset + i * g.stride, g.primitiveOffset + i * g.stride + 24), i * 24);
        lines.push(`aabbs ${file(`blas${k}-${j}.aabbs`, out)} ${g.primitiveCount} ${g.flags}`);
      } else {
        const t = normalizeTriangles(g);
        lines.push(`tris ${file(`blas${k}-${j}.vertices`, bytesOf(t.vertices))} ${t.vertices.length / 3} ${file(`blas${k}-${j}.indices`, bytesOf(t.indices))} ${t.indices.length} ${g.flags}`);
      }
    });
  });
  for (const i of instances) {
    const t = Array.from(i.transform, (x) => String(Math.fround(x)));
    lines.push(`instance ${i.blas} ${i.instanceCustomIndex} ${i.mask} ${i.instanceShaderBindingTableRecordOffset} ${i.flags} ${t.join(' ')}`);
  }
  return lines;
}

function bytesOf(d: ArrayBuffer | ArrayBufferView): Uint8Array {
  return d instanceof ArrayBuffer ? new Uint8Array(d) : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/** float3 vertices (build transform applied) and uint32 indices (firstVertex added) of one triangle geometry. */
export function normalizeTriangles(g: TrianglesGeometryDescription): { vertices: Float32Array; indices: Uint32Array } {
  const vbytes = bytesOf(g.vertexData);
  const vview = new DataView(vbytes.buffer, vbytes.byteOffset, vbytes.byteLength);
  const comps = g.vertexFormat === 'R32G32_SFLOAT' ? 2 : 3;
  const n = g.primitiveCount * 3;
  const indices = new Uint32Array(n);
  let vertexBase = 0;
  if (g.indexType === 'none') {
    vertexBase = g.primitiveOffset;
    for (let i = 0; i < n; i++) indices[i] = g.firstVertex + i;
  } else {
    const ib = bytesOf(g.indexData!);
    const iview = new DataView(ib.buffer, ib.byteOffset, ib.byteLength);
    const size = g.indexType === 'uint16' ? 2 : 4;
    for (let i = 0; i < n; i++) {
      const at = g.primitiveOffset + i * size;
      indices[i] = g.firstVertex + (size === 2 ? iview.getUint16(at, true) : iview.getUint32(at, true));
    }
  }
  let vertexCount = 0;
  for (let i = 0; i < n; i++) if (indices[i]! + 1 > vertexCount) vertexCount = indices[i]! + 1;
  vertexCount = Math.max(vertexCount, Math.min(g.maxVertex + 1, Math.floor((vbytes.byteLength - vertexBase) / g.vertexStride)));
  const vertices = new Float32Array(vertexCount * 3);
  const m = g.transformData;
  for (let v = 0; v < vertexCount; v++) {
    const at = vertexBase + v * g.vertexStride;
    if (at + 4 * comps > vbytes.byteLength) break;
    const x = vview.getFloat32(at, true);
    const y = vview.getFloat32(at + 4, true);
    const z = comps === 3 ? vview.getFloat32(at + 8, true) : 0;
    if (m) {
      vertices[3 * v] = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
      vertices[3 * v + 1] = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
      vertices[3 * v + 2] = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
    } else {
      vertices[3 * v] = x;
      vertices[3 * v + 1] = y;
      vertices[3 * v + 2] = z;
    }
  }
  return { vertices, indices };
}
