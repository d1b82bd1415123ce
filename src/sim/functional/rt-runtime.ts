/**
 * The interface through which the functional core delegates ray tracing to the RT runtime (the
 * lowered pipeline's `rtCall` ops and the RT built-in variables). The lead's RT runtime implements
 * it; tests implement small fakes. The core calls it per active lane, in ascending lane order.
 */
import type { RtRuntimeFn } from '../../ir/inst.js';
import type { Builtin } from '../../ir/module.js';
import type { RtLaneWork } from '../warp-step.js';

export interface LaneAccess {
  /** The lane's 32-byte hit attribute storage (all 'hitAttribute' globals alias it at offset 0, like Vulkan). */
  hitAttributes: Uint8Array;
}

export interface RtRuntime {
  /** Per lane; `thread` is the linear launch index; args flattened scalars (vectors as components). Returns the scalar result (bool as 0/1) or undefined for void. */
  call(fn: RtRuntimeFn, thread: number, args: readonly number[], lane: LaneAccess): number | undefined;
  /** RT built-in variables (HitT, ObjectToWorld, WorldRayOrigin, ...): components, column-major for matrices. */
  builtin(name: Builtin, thread: number): readonly number[];
  /**
   * Where Vulkan-Sim would load the built-in from (its per-traceRay Traversal_data; see
   * TRAVERSAL_DATA_BASE), for the timing model. Optional: without it the read is not a memory access.
   */
  traversalDataAddress?(name: 'WorldRayDirection' | 'WorldRayOrigin', thread: number): number;
  /** Called once per warp step that executed `traverse` calls, so the RT unit work can be reported in WarpStep.rt. */
  takeLaneWork?(thread: number): RtLaneWork | undefined;
}
