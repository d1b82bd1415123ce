/**
 * Memory coalescing of one warp memory instruction, as GPGPU-Sim does for sm_70+
 * (`gpgpu_coalesce_arch` >= 40, warp_inst_t::memory_coalescing_arch with 32 B segments): the
 * active lanes' byte ranges are grouped by 32 B sector, and each touched sector is one request
 * (one L1D access, one MSHR entry in a sectored cache, one packet), carrying its 128 B line and
 * the 4-byte words it touches (sectored caches track partially written sectors by word).
 *
 * Invariants: output sectors are unique, in first-touch lane order of their line, then sector
 * order (deterministic); `bytes` is 32; `words` lies inside one sector of `line`.
 */
import type { MemAccess } from '../warp-step.js';
import { sectorsOf } from './cache.js';
import { popcount } from './bit-count.js';

export const LINE_BYTES = 128;
export const SECTOR_BYTES = 32;

/**
 * Where an access's requests go, in order: the LD/ST queue (ldst-queue.ts), without an object per
 * request. `words`: the 4-byte words of the line the request touches (bit i: bytes 4i..4i+3).
 */
export interface LineRequestSink {
  pushLine(line: number, bytes: number, words: number): void;
}

// Scratch for one access, grown when a lane's bytes span more than two lines.
let scratchLines = new Float64Array(64);
let scratchMasks = new Int32Array(64);

export function coalesce(access: MemAccess, out: LineRequestSink): void {
  let n = 0;
  const size = Math.max(1, access.size);
  const maxLines = 32 * (Math.ceil(size / LINE_BYTES) + 1);
  if (maxLines > scratchLines.length) {
    scratchLines = new Float64Array(maxLines);
    scratchMasks = new Int32Array(maxLines);
  }
  for (let lane = 0; lane < 32; lane++) {
    if (((access.laneMask >>> lane) & 1) === 0) continue;
    const a0 = access.addresses[lane]!;
    const a1 = a0 + size - 1;
    // Math.trunc(x / m) * m is x - x % m (exact: m is a power of two), without a floating-point modulo.
    for (let w = Math.trunc(a0 / 4) * 4; w <= a1; w += 4) {
      const line = Math.trunc(w / LINE_BYTES) * LINE_BYTES;
      const bit = 1 << ((w - line) >> 2);
      // Linear search: a warp touches few distinct lines, and it keeps first-touch order.
      let k = n - 1;
      if (k < 0 || scratchLines[k] !== line) {
        k = 0;
        while (k < n && scratchLines[k] !== line) k++;
        if (k === n) {
          scratchLines[n] = line;
          scratchMasks[n] = 0;
          n++;
        }
      }
      scratchMasks[k]! |= bit;
    }
  }
  flush(n, out);
}

function flush(n: number, out: LineRequestSink): void {
  for (let k = 0; k < n; k++) {
    const words = scratchMasks[k]! >>> 0;
    const sectors = sectorsOf(words);
    for (let q = 0; q < 4; q++) {
      if (((sectors >> q) & 1) === 0) continue;
      out.pushLine(scratchLines[k]!, SECTOR_BYTES, (words & (0xff << (8 * q))) >>> 0);
    }
  }
}

/**
 * The number of requests an access split word by word makes (one per active lane and 32-bit word):
 * `perComponentRequests` here, `perThreadRequests` (rt-thread-state.ts) for per-thread state.
 */
export function perWordRequestCount(access: MemAccess): number {
  return popcount(access.laneMask >>> 0) * sentWords(access);
}

/** The words of one lane's access that are sent (MemAccess.wordMask). */
export function sentWords(access: MemAccess): number {
  const words = Math.max(1, Math.ceil(access.size / 4));
  return access.wordMask === -1 ? words : popcount(access.wordMask & (words >= 32 ? -1 : (1 << words) - 1));
}

/**
 * The requests of an access that Vulkan-Sim's translator splits into one 32-bit load per component
 * (the ray built-ins it reads from Traversal_data, `load_ray_world_origin` / `_direction`): word
 * by word, each word's active lanes in lane order, one 32 B sector request per lane and word.
 */
export function perComponentRequests(access: MemAccess, out: LineRequestSink): void {
  const words = Math.max(1, Math.ceil(access.size / 4));
  for (let k = 0; k < words; k++) {
    for (let m = access.laneMask >>> 0; m !== 0; m &= m - 1) {
      const lane = 31 - Math.clz32(m & -m);
      const w = Math.trunc(access.addresses[lane]! / 4) * 4 + 4 * k;
      const line = Math.trunc(w / LINE_BYTES) * LINE_BYTES;
      out.pushLine(line, SECTOR_BYTES, (1 << ((w - line) >> 2)) >>> 0);
    }
  }
}
