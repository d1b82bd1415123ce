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
 *   instrumentation's ballots assume.
 *
 * Invariant: the bundle holds nothing the simulator did not also run with; what the device host
 * cannot express yet (sampled textures, buffer_reference addresses, Zatel's pixel filters) is
 * refused here with a DeviceBundleError naming the workload's feature, before any device runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
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
}

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

  const out: DeviceBundle = { dir, stageCount: stageIndex.size };
  const res = p.host.resources;
  for (const a of res.accels ?? []) lines.push(`as ${a.set} ${a.binding}`);
  (res.buffers ?? []).forEach((b, k) => {
    const isDump = b.set === INSTRUMENTATION_SET && b.binding === INSTRUMENTATION_BINDING && p.metadata !== undefined;
    const kind = p.manifest.descriptors.find((x) => x.set === b.set && x.binding === b.binding)?.kind === 'uniformBuffer' ? 'uniform' : 'storage';
    if (isDump) {
      out.dumpWords = b.data.byteLength / 4;
      lines.push(`buffer ${b.set} ${b.binding} storage - ${b.data.byteLength} dump 1`);
    } else {
      lines.push(`buffer ${b.set} ${b.binding} ${kind} ${file(`buffer${k}.bin`, b.data)} ${b.data.byteLength} - 0`);
    }
  });
  for (const i of res.images ?? []) {
    const level = i.image.levels[0]!;
    const f = VK_FORMATS[i.image.format];
    if (!f) throw new DeviceBundleError(`${p.manifest.path}: storage image (set ${i.set}, binding ${i.binding}) format ${i.image.format} is not supported by the device host`);
    const isOutput = i.image === p.host.output;
    lines.push(`image ${i.set} ${i.binding} ${f.vk} ${f.bytes} ${level.width} ${level.height} ${isOutput ? 'image' : '-'}`);
    if (isOutput) out.image = { format: i.image.format, width: level.width, height: level.height };
  }
  if (res.pushConstants) lines.push(`push ${file('push.bin', res.pushConstants.data)} ${res.pushConstants.data.byteLength}`);
  writeFileSync(join(dir, 'bundle.txt'), `${lines.join('\n')}\n`);
  return out;
}

function refuseUnsupported(p: PreparedRun): void {
  const where = p.manifest.path;
  const res = p.host.resources;
  if ((res.images ?? []).some((i) => i.arrayIndex !== undefined || i.image.sampler !== undefined)) {
    throw new DeviceBundleError(`${where}: sampled textures are not supported by the device host yet (issue 21); the simulator runs this workload`);
  }
  if ((res.memory ?? []).length > 0 || p.manifest.descriptors.some((d) => d.kind === 'storageBuffer' && (d.what === 'instanceDescriptions' || d.what === 'models'))) {
    throw new DeviceBundleError(`${where}: buffer_reference device addresses are not supported by the device host yet (issue 21); the simulator runs this workload`);
  }
  for (const m of [p.stages.raygen, ...p.stages.miss, ...p.stages.callables, ...p.stages.hitGroups.flatMap((g) => [g.closestHit, g.anyHit, g.intersection])]) {
    if (m?.types.types.some((t) => t.kind === 'pointer' && t.storage === 'physicalStorageBuffer')) {
      throw new DeviceBundleError(`${where}: ${m.sources[0]?.path}: buffer_reference device addresses are not supported by the device host yet (issue 21)`);
    }
  }
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
    const d = loadAccelerationStructureDescriptions(p.manifest.accelerationStructures, `${p.manifest.path}: accelerationStructures`);
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
