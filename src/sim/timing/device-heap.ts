/**
 * GPGPU-Sim's device allocator (`gpgpu_t::gpu_malloc`) as Vulkan-Sim's RT unit calls it once per
 * triangle hit, for the hit's 32-byte result store (`warp_inst_t::dec_thread_latency`): one bump
 * pointer for the whole GPU, every allocation rounded up to 256 bytes. Consecutive hits, from
 * whichever SM, therefore write consecutive 256-byte blocks, each at its block's start, which the
 * address map spreads over the channels; no two hits share a line.
 *
 * Invariant: every address returned is 256-byte aligned and above every earlier one.
 */
import { RT_STATE_ALLOC_BYTES } from '../functional/rt-state-storage.js';

/** gpu_malloc's rounding (the same rounding gives each per-thread variable its own block). */
export const GPU_MALLOC_ALIGN = RT_STATE_ALLOC_BYTES;

export class DeviceHeap {
  private next: number;

  constructor(base: number) {
    if (base % GPU_MALLOC_ALIGN !== 0) throw new Error(`internal: device heap base ${base} is not ${GPU_MALLOC_ALIGN}-byte aligned`);
    this.next = base;
  }

  /** The address of a fresh allocation of `bytes` bytes. */
  malloc(bytes: number): number {
    const a = this.next;
    this.next += Math.max(1, Math.ceil(bytes / GPU_MALLOC_ALIGN)) * GPU_MALLOC_ALIGN;
    return a;
  }
}
