/**
 * Memory the functional core executes against.
 *
 * - `AddressSpace`: one simulated byte address space shared by every buffer the host side placed
 *   (storage/uniform buffers, push constants, shader records, buffer_reference targets). Each
 *   region is a host-owned byte array at a base address; shaders write straight into the host's
 *   arrays, so the host reads results without copying. Regions never overlap and are 4-byte
 *   aligned, so every 32-bit leaf is read through the 32-bit views.
 * - `PrivateMemory`: per-lane byte memory of one warp (private globals, ray payloads, hit
 *   attributes, callable data, function-storage variables). Lane-major with a fixed lane stride
 *   that grows (copying) when deeper call frames need more; pointers into it are lane-relative
 *   offsets, so growth never invalidates them.
 */
import { SimError, type Site } from './errors.js';

export interface Region {
  /** Byte address of the first byte. */
  base: number;
  /** Bytes. */
  size: number;
  u8: Uint8Array;
  u32: Uint32Array;
  i32: Int32Array;
  f32: Float32Array;
  /** What this region is, for error messages ("set=0 binding=2", "push constants"). */
  label: string;
}

export function makeRegion(base: number, bytes: Uint8Array, label: string): Region {
  if (base % 4 !== 0) throw new SimError('resource', `${label}: base address ${base} is not 4-byte aligned`);
  if (bytes.byteOffset % 4 !== 0) throw new SimError('resource', `${label}: data must start on a 4-byte boundary of its ArrayBuffer`);
  const words = bytes.byteLength >> 2;
  return {
    base,
    size: bytes.byteLength,
    u8: bytes,
    u32: new Uint32Array(bytes.buffer, bytes.byteOffset, words),
    i32: new Int32Array(bytes.buffer, bytes.byteOffset, words),
    f32: new Float32Array(bytes.buffer, bytes.byteOffset, words),
    label,
  };
}

export class AddressSpace {
  /** Sorted by base. */
  private regions: Region[] = [];
  private last: Region | undefined;

  add(r: Region): Region {
    for (const o of this.regions) {
      if (r.base < o.base + Math.max(o.size, 1) && o.base < r.base + Math.max(r.size, 1)) {
        throw new SimError('resource', `${r.label} at 0x${r.base.toString(16)} overlaps ${o.label} at 0x${o.base.toString(16)}`);
      }
    }
    this.regions.push(r);
    this.regions.sort((a, b) => a.base - b.base);
    return r;
  }

  all(): readonly Region[] {
    return this.regions;
  }

  /** The region holding [addr, addr+size), or undefined. */
  lookup(addr: number, size: number): Region | undefined {
    const c = this.last;
    if (c && addr >= c.base && addr + size <= c.base + c.size) return c;
    let lo = 0;
    let hi = this.regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.regions[mid]!;
      if (addr < r.base) hi = mid - 1;
      else if (addr >= r.base + r.size) lo = mid + 1;
      else {
        if (addr + size > r.base + r.size) return undefined;
        this.last = r;
        return r;
      }
    }
    return undefined;
  }

  /** Like `lookup`, but an address outside every region is a located shader error. */
  find(addr: number, size: number, site: Site, lane: number, thread: number): Region {
    const r = this.lookup(addr, size);
    if (r && ((addr - r.base) & 3) === 0) return r;
    throw new SimError('outOfBounds', `out-of-bounds memory access: address 0x${addr.toString(16)} (${size} bytes) is in no bound buffer`, {
      site, lane, thread,
    });
  }
}

/** First address the bump allocator hands out; 0 stays invalid so null buffer_reference pointers fault. */
export const FIRST_ADDRESS = 0x10000;

/** Places regions at increasing, `align`-aligned addresses. */
export class AddressAllocator {
  private next: number;
  constructor(start = FIRST_ADDRESS) {
    this.next = start;
  }
  allocate(bytes: number, align = 256): number {
    const a = Math.ceil(this.next / align) * align;
    this.next = a + Math.max(bytes, 4);
    return a;
  }
  /** Skip past an externally placed range so later allocations do not overlap it. */
  reserve(base: number, bytes: number): void {
    this.next = Math.max(this.next, base + bytes);
  }
}

export class PrivateMemory {
  /** 32-bit words per lane. */
  laneWords: number;
  u32: Uint32Array;
  i32: Int32Array;
  f32: Float32Array;
  /** Bumped whenever the views are replaced, so cached per-lane views can be refreshed. */
  generation = 0;

  constructor(initialLaneBytes: number) {
    this.laneWords = Math.max(8, Math.ceil(initialLaneBytes / 4));
    const buf = new ArrayBuffer(this.laneWords * 4 * 32);
    this.u32 = new Uint32Array(buf);
    this.i32 = new Int32Array(buf);
    this.f32 = new Float32Array(buf);
  }

  /** Makes every lane at least `bytes` long, preserving contents. */
  ensure(bytes: number): void {
    const words = Math.ceil(bytes / 4);
    if (words <= this.laneWords) return;
    const nw = Math.max(words, this.laneWords * 2);
    const buf = new ArrayBuffer(nw * 4 * 32);
    const u32 = new Uint32Array(buf);
    for (let l = 0; l < 32; l++) u32.set(this.u32.subarray(l * this.laneWords, (l + 1) * this.laneWords), l * nw);
    this.laneWords = nw;
    this.u32 = u32;
    this.i32 = new Int32Array(buf);
    this.f32 = new Float32Array(buf);
    this.generation++;
  }

  /** A byte view of `bytes` bytes of one lane starting at byte `offset` (for the RT runtime's hit attributes). */
  laneBytes(lane: number, offset: number, bytes: number): Uint8Array {
    return new Uint8Array(this.u32.buffer, (lane * this.laneWords) * 4 + offset, bytes);
  }
}
