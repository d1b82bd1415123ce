/**
 * Descriptor bindings the host side gives a launch (the simulator's stand-in for descriptor sets,
 * push constants and the shader binding table's shader records), and their resolution against a
 * module's globals into the tables the compiled code indexes.
 *
 * Invariants of a `BoundResources`:
 * - Every buffer has a base address (given by the host or allocated here, 256-byte aligned) and
 *   a region in `space`; shaders read/write the host's byte arrays directly.
 * - `globalBase[g]` is the value of global g's pointer: a byte address for buffer-like storage
 *   classes, an index into `images` / `samplers` / `accels` for uniformConstant handles; descriptor
 *   arrays of buffers resolve through `globalArrays[g]` instead.
 * - A global the program uses but the host did not bind is an error naming set/binding and the
 *   variable, raised before any warp runs.
 */
import type { Module, Global } from '../../ir/module.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { AddressAllocator, AddressSpace, makeRegion, type Region } from './memory.js';
import { SimError } from './errors.js';
import { DEFAULT_SAMPLER, imageBytes, type SamplerState, type SimImage } from './images.js';

export interface BindingKey {
  set: number;
  binding: number;
  /** Element of a descriptor array; 0 when absent. */
  arrayIndex?: number;
}

export interface BufferResource extends BindingKey {
  data: Uint8Array;
  /** Base address in the simulated address space; allocated when absent. */
  address?: number;
}

export interface ImageResource extends BindingKey {
  image: SimImage;
}

export interface SamplerResource extends BindingKey {
  sampler: SamplerState;
}

export interface AccelResource extends BindingKey {
  /** The acceleration-structure handle the RT runtime understands (what a shader's accel value holds). */
  handle: number;
}

export interface Resources {
  buffers?: BufferResource[];
  /** Storage images, sampled images and combined image samplers (the latter carry `image.sampler`). */
  images?: ImageResource[];
  samplers?: SamplerResource[];
  accels?: AccelResource[];
  pushConstants?: { data: Uint8Array; address?: number };
  /** Shader-record bytes, keyed by the id of the shaderRecordBuffer global that reads them. */
  shaderRecords?: { global: number; data: Uint8Array; address?: number }[];
  /** Memory reachable only through buffer_reference addresses (no descriptor). */
  memory?: { address: number; data: Uint8Array; label?: string }[];
}

export interface BoundResources {
  space: AddressSpace;
  /** Indexed by position in `Module.globals`. */
  globalBase: number[];
  /** Region of a single buffer global (for the fast bounds check), by global position. */
  globalRegion: (Region | undefined)[];
  /** Regions of a descriptor array of buffers, by global position. */
  globalArrays: (Region[] | undefined)[];
  /** Element count of a descriptor array (buffers or handles), by global position. */
  globalCount: number[];
  images: (SimImage | undefined)[];
  /** samplers[0] is "the image's own sampler". */
  samplers: (SamplerState | undefined)[];
  accels: number[];
}

const BUFFER_CLASSES = new Set(['storageBuffer', 'uniform', 'pushConstant', 'shaderRecordBuffer']);

function keyOf(set: number, binding: number, index: number): string {
  return `${set}/${binding}/${index}`;
}

function describe(g: Global): string {
  return `'${g.name}' (set=${g.set ?? 0} binding=${g.binding ?? 0})`;
}

/** Descriptor-array length of a global's pointee (1 when it is not an array of descriptors). */
function descriptorCount(m: Module, g: Global): { count: number; elem: TypeId; isArray: boolean; runtime: boolean } {
  const pt = typeOf(m.types, g.type);
  const pointee = pt.kind === 'pointer' ? pt.pointee : g.type;
  const t = typeOf(m.types, pointee);
  if (t.kind === 'array') {
    const e = typeOf(m.types, t.elem);
    if (e.kind === 'struct' || e.kind === 'image' || e.kind === 'sampledImage' || e.kind === 'sampler' || e.kind === 'accelerationStructure') {
      return { count: t.length, elem: t.elem, isArray: true, runtime: false };
    }
  }
  if (t.kind === 'runtimeArray' && !BUFFER_CLASSES.has(g.storage)) return { count: 0, elem: t.elem, isArray: true, runtime: true };
  if (t.kind === 'runtimeArray') {
    const e = typeOf(m.types, t.elem);
    if (e.kind === 'struct' && e.block) return { count: 0, elem: t.elem, isArray: true, runtime: true };
  }
  return { count: 1, elem: pointee, isArray: false, runtime: false };
}

/**
 * Places and resolves `res` for the globals of `m` whose positions are in `used`.
 * `privateGlobals` are handled by the core (per-lane memory) and skipped here.
 */
export function bindResources(m: Module, res: Resources, used: ReadonlySet<number>): BoundResources {
  const space = new AddressSpace();
  const alloc = new AddressAllocator();
  const explicit: { address: number; size: number }[] = [];
  for (const b of res.buffers ?? []) if (b.address !== undefined) explicit.push({ address: b.address, size: b.data.byteLength });
  for (const r of res.memory ?? []) explicit.push({ address: r.address, size: r.data.byteLength });
  if (res.pushConstants?.address !== undefined) explicit.push({ address: res.pushConstants.address, size: res.pushConstants.data.byteLength });
  for (const s of res.shaderRecords ?? []) if (s.address !== undefined) explicit.push({ address: s.address, size: s.data.byteLength });
  for (const i of res.images ?? []) if (i.image.address) explicit.push({ address: i.image.address, size: imageBytes(i.image) });
  for (const e of explicit) alloc.reserve(e.address, e.size);

  const buffers = new Map<string, Region>();
  for (const b of res.buffers ?? []) {
    const idx = b.arrayIndex ?? 0;
    const label = `buffer set=${b.set} binding=${b.binding}${b.arrayIndex !== undefined ? `[${idx}]` : ''}`;
    const k = keyOf(b.set, b.binding, idx);
    if (buffers.has(k)) throw new SimError('resource', `${label} is bound twice`);
    buffers.set(k, space.add(makeRegion(b.address ?? alloc.allocate(b.data.byteLength), b.data, label)));
  }
  for (const r of res.memory ?? []) space.add(makeRegion(r.address, r.data, r.label ?? `memory at 0x${r.address.toString(16)}`));
  let pushRegion: Region | undefined;
  if (res.pushConstants) {
    const pc = res.pushConstants;
    pushRegion = space.add(makeRegion(pc.address ?? alloc.allocate(pc.data.byteLength), pc.data, 'push constants'));
  }
  const records = new Map<number, Region>();
  for (const s of res.shaderRecords ?? []) {
    records.set(s.global, space.add(makeRegion(s.address ?? alloc.allocate(s.data.byteLength), s.data, `shader record of global %${s.global}`)));
  }
  for (const i of res.images ?? []) if (!i.image.address) i.image.address = alloc.allocate(imageBytes(i.image));

  const imageMap = new Map<string, SimImage>();
  for (const i of res.images ?? []) imageMap.set(keyOf(i.set, i.binding, i.arrayIndex ?? 0), i.image);
  const samplerMap = new Map<string, SamplerState>();
  for (const s of res.samplers ?? []) samplerMap.set(keyOf(s.set, s.binding, s.arrayIndex ?? 0), s.sampler);
  const accelMap = new Map<string, number>();
  for (const a of res.accels ?? []) accelMap.set(keyOf(a.set, a.binding, a.arrayIndex ?? 0), a.handle);

  const out: BoundResources = {
    space,
    globalBase: [],
    globalRegion: [],
    globalArrays: [],
    globalCount: [],
    images: [],
    samplers: [DEFAULT_SAMPLER],
    accels: [],
  };
  m.globals.forEach((g, gi) => {
    out.globalBase[gi] = 0;
    out.globalCount[gi] = 1;
    if (!used.has(gi)) return;
    const set = g.set ?? 0;
    const binding = g.binding ?? 0;
    const dc = descriptorCount(m, g);
    const countFor = (has: (i: number) => boolean): number => {
      if (!dc.runtime) return dc.count;
      let n = 0;
      while (has(n)) n++;
      return n;
    };
    if (g.storage === 'storageBuffer' || g.storage === 'uniform') {
      if (dc.isArray) {
        const n = countFor((i) => buffers.has(keyOf(set, binding, i)));
        const regions: Region[] = [];
        for (let i = 0; i < n; i++) {
          const r = buffers.get(keyOf(set, binding, i));
          if (!r) throw new SimError('resource', `no buffer bound for ${describe(g)}[${i}]`);
          regions.push(r);
        }
        out.globalArrays[gi] = regions;
        out.globalCount[gi] = n;
      } else {
        const r = buffers.get(keyOf(set, binding, 0));
        if (!r) throw new SimError('resource', `no buffer bound for ${describe(g)}`);
        out.globalRegion[gi] = r;
        out.globalBase[gi] = r.base;
      }
    } else if (g.storage === 'pushConstant') {
      if (!pushRegion) throw new SimError('resource', `shader reads push constants '${g.name}' but the launch has none`);
      out.globalRegion[gi] = pushRegion;
      out.globalBase[gi] = pushRegion.base;
    } else if (g.storage === 'shaderRecordBuffer') {
      const r = records.get(g.id);
      if (!r) throw new SimError('resource', `no shader record bytes for shaderRecordEXT block '${g.name}' (global %${g.id})`);
      out.globalRegion[gi] = r;
      out.globalBase[gi] = r.base;
    } else if (g.storage === 'uniformConstant') {
      const et = typeOf(m.types, dc.elem);
      if (et.kind === 'accelerationStructure') {
        const n = countFor((i) => accelMap.has(keyOf(set, binding, i)));
        out.globalBase[gi] = out.accels.length;
        for (let i = 0; i < n; i++) {
          const h = accelMap.get(keyOf(set, binding, i));
          if (h === undefined) throw new SimError('resource', `no acceleration structure bound for ${describe(g)}`);
          out.accels.push(h);
        }
        out.globalCount[gi] = n;
      } else if (et.kind === 'sampler') {
        const n = countFor((i) => samplerMap.has(keyOf(set, binding, i)));
        out.globalBase[gi] = out.samplers.length;
        for (let i = 0; i < n; i++) {
          const s = samplerMap.get(keyOf(set, binding, i));
          if (!s) throw new SimError('resource', `no sampler bound for ${describe(g)}`);
          out.samplers.push(s);
        }
        out.globalCount[gi] = n;
      } else if (et.kind === 'image' || et.kind === 'sampledImage') {
        const n = countFor((i) => imageMap.has(keyOf(set, binding, i)));
        out.globalBase[gi] = out.images.length;
        for (let i = 0; i < n; i++) {
          const img = imageMap.get(keyOf(set, binding, i));
          if (!img) throw new SimError('resource', `no image bound for ${describe(g)}${dc.isArray ? `[${i}]` : ''}`);
          out.images.push(img);
        }
        out.globalCount[gi] = n;
      }
    }
  });
  return out;
}
