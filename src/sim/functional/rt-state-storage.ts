/**
 * Which storage classes hold the ray tracing pipeline's per-thread state: the variables a traceRay
 * or executeCallable passes between shaders (payloads, callable data) and the hit attributes an
 * intersection shader reports. Vulkan-Sim keeps each of them in its own per-thread global
 * allocation (vulkan_rt_thread_data.h `variable_decleration_table`); the timing model can lay
 * their accesses out that way (gpgpu_rt_thread_state).
 */
import type { StorageClass } from '../../ir/types.js';

/**
 * Vulkan-Sim gives each such variable of each thread its own allocation (`rt_alloc_mem` ->
 * `gpgpusim_alloc` -> GPGPU-Sim `gpu_malloc`, which rounds every allocation up to 256 bytes), so
 * every variable starts a 256-byte block. The private layout starts each one on such a block, so
 * the timing model's per-thread layout (gpgpu_rt_thread_state per_thread) gives each variable its
 * own block, at the block's start, as Vulkan-Sim's addresses are.
 */
export const RT_STATE_ALLOC_BYTES = 256;

export function isRtStateStorage(s: StorageClass): boolean {
  return s === 'rayPayload' || s === 'incomingRayPayload' || s === 'hitAttribute' || s === 'callableData' || s === 'incomingCallableData';
}
