/**
 * Where the ray tracing pipeline's per-thread state (payloads, hit attributes, callable data:
 * `rtState` accesses) lives, per `gpgpu_rt_thread_state`:
 * - `interleaved`: CUDA-style local memory, interleaved across a warp's lanes (a warp's access to
 *   one word is one 128-byte line) and written back in the L1D like other local memory;
 * - `per_thread` (Vulkan-Sim): every thread's variables are separate global allocations
 *   (vulkan_rt_thread_data.h `add_variable_decleration_entry` -> `gpgpusim_alloc`, which GPGPU-Sim
 *   aligns to 256 bytes), read and written by scalar 32-bit PTX loads / stores. A warp's access
 *   to one word is then one request per active lane, and stores write through to the L2 as
 *   other global stores do. That is where most of Vulkan-Sim's L2 write traffic comes from.
 *
 * Invariant: `per_thread` requests are one per active lane and 32-bit word, in word order then
 * lane order (one scalar PTX instruction per word), each 32 bytes (one sector) at its thread's own
 * block.
 */
import { LINE_BYTES, SECTOR_BYTES, type LineRequestSink } from './coalescer.js';
import { decodeLocalAddress, type MemAccess } from '../warp-step.js';
import { RT_STATE_ALLOC_BYTES } from '../functional/rt-state-storage.js';

/** Base of the per-thread blocks, above every other region of the address plan. */
export const RT_STATE_BASE = 2 ** 46;
/** Base of the per-warp intersection tables the RT unit writes (rt/rt-unit.ts). */
export const RT_TABLE_BASE = 2 ** 47;
/** Base of the GPU's device heap (device-heap.ts), from which the RT units allocate their triangle-hit result stores (Vulkan-Sim RT_WRITE_BACK_SIZE each). */
export const RT_HIT_STORE_BASE = 2 ** 50;
/** gpgpusim_alloc's alignment: each allocation starts a new 256-byte block (each variable starts one: rt-state-storage.ts). */
export const RT_STATE_BLOCK_BYTES = RT_STATE_ALLOC_BYTES;
/** Blocks reserved per thread (its private state up to 16 KiB). */
const BLOCKS_PER_THREAD = 64;

/**
 * The per-thread address of byte `offset` of a thread's private state: the state is cut into
 * 256-byte blocks, and block b of the 32 lanes of a warp are consecutive allocations (GPGPU-Sim
 * runs a warp's threads one after another, so their allocations of one variable are adjacent).
 * Every variable starts a block (the private layout aligns them: rt-state-storage.ts), so a
 * variable of up to 256 bytes is its own block, at its start, as Vulkan-Sim's allocation is; a
 * larger one continues in block b + 1 of the same lane rather than in the lane's next 256 bytes.
 */
export function perThreadAddress(warp: number, lane: number, offset: number): number {
  const block = Math.floor(offset / RT_STATE_BLOCK_BYTES);
  return RT_STATE_BASE + ((warp * BLOCKS_PER_THREAD + block) * 32 + lane) * RT_STATE_BLOCK_BYTES + (offset % RT_STATE_BLOCK_BYTES);
}

/**
 * Appends the `per_thread` requests of one rtState access, word by word, every active lane for
 * each word: Vulkan-Sim's NIR-to-PTX scalarises a vector load or store into one 32-bit instruction
 * per component, each of which makes one request per active lane, in lane order. `blocks` gives,
 * per 256-byte block of private memory, the block of the Vulkan-Sim allocation it stands for
 * (ModuleStatics.rtStateBlocks: same-named variables of different shaders are one allocation).
 */
export function perThreadRequests(access: MemAccess, out: LineRequestSink, blocks?: Int32Array): void {
  const words = Math.max(1, Math.ceil(access.size / 4));
  for (let k = 0; k < words; k++) {
    if (k < 32 && ((access.wordMask >>> k) & 1) === 0) continue;
    for (let m = access.laneMask >>> 0; m !== 0; m &= m - 1) {
      const lane = 31 - Math.clz32(m & -m);
      const { warp, word } = decodeLocalAddress(access.addresses[lane]!);
      let offset = (word + k) * 4;
      const b = Math.floor(offset / RT_STATE_BLOCK_BYTES);
      if (blocks !== undefined && b < blocks.length) offset += (blocks[b]! - b) * RT_STATE_BLOCK_BYTES;
      const inBlock = offset % RT_STATE_BLOCK_BYTES;
      const a = perThreadAddress(warp, lane, offset);
      // Blocks are 256-byte aligned, so the line is the block start or its second half.
      out.pushLine(a - (inBlock % LINE_BYTES), SECTOR_BYTES, (1 << ((inBlock % LINE_BYTES) >> 2)) >>> 0);
    }
  }
}
