/**
 * Which storage classes hold the ray tracing pipeline's per-thread state: the variables a traceRay
 * or executeCallable passes between shaders (payloads, callable data) and the hit attributes an
 * intersection shader reports. Vulkan-Sim keeps each of them in its own per-thread global
 * allocation (vulkan_rt_thread_data.h `variable_decleration_table`); the timing model can lay
 * their accesses out that way (gpgpu_rt_thread_state).
 */
import type { StorageClass } from '../../ir/types.js';

export function isRtStateStorage(s: StorageClass): boolean {
  return s === 'rayPayload' || s === 'incomingRayPayload' || s === 'hitAttribute' || s === 'callableData' || s === 'incomingCallableData';
}
