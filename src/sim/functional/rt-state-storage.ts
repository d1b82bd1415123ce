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

/** A per-thread ray tracing variable in private memory: its name, byte offset (block-aligned) and size. */
export interface RtStateVariable {
  name: string;
  offset: number;
  bytes: number;
}

/**
 * The 256-byte block of Vulkan-Sim's per-thread state that each block of private memory stands
 * for: itself, except that a variable with the name and size of an earlier one gets the earlier
 * one's blocks. Vulkan-Sim finds a thread's variable by name (vulkan_rt_thread_data.h
 * `get_variable_decleration_entry`, called by `rt_alloc_mem` at every `decl_var`), so the raygen
 * shader's `rayPayloadEXT Ray` and every hit or miss shader's `rayPayloadInEXT Ray` are one
 * allocation; that is how it passes a payload (`translate_trace_ray` drops the payload operand).
 * The functional model keeps each shader's variable apart (a recursive trace must not clobber its
 * caller's incoming payload); the timing model addresses them through this table
 * (gpgpu_rt_thread_state per_thread). Hit attributes share one area already (offset 0); unnamed
 * variables stay apart.
 */
export function vulkanSimBlocks(vars: readonly RtStateVariable[], privateBytes: number): Int32Array {
  const blocks = Int32Array.from({ length: Math.ceil(privateBytes / RT_STATE_ALLOC_BYTES) }, (_, i) => i);
  const first = new Map<string, RtStateVariable>();
  for (const v of vars) {
    if (v.name === '') continue;
    const key = `${v.name}/${v.bytes}`;
    const was = first.get(key);
    if (was === undefined) {
      first.set(key, v);
      continue;
    }
    const from = Math.floor(v.offset / RT_STATE_ALLOC_BYTES);
    const to = Math.floor(was.offset / RT_STATE_ALLOC_BYTES);
    for (let k = 0; k < Math.ceil(v.bytes / RT_STATE_ALLOC_BYTES); k++) blocks[from + k] = to + k;
  }
  return blocks;
}
