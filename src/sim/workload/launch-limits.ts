/**
 * Bounds on one launch, checked before anything is compiled or allocated:
 *
 * - MAX_LAUNCH_INVOCATIONS: width x height x depth at most 2^30, Vulkan's
 *   maxRayDispatchInvocationCount as the spec's minimum and NVIDIA's and AMD's drivers give it.
 *   A manifest past it is refused at its `launch` key (it used to end in "Invalid typed array
 *   length"); the CLI's --width/--height past it likewise.
 * - A memory budget: the simulator keeps state for every invocation (launch order, per-lane
 *   registers of the warps in flight, ray records) and one texel per storage image, so a launch
 *   needs about `invocations x (BYTES_PER_INVOCATION + storage image texels)`. Past the budget
 *   (DEFAULT_MEMORY_BUDGET_BYTES, `--memory-budget GiB` / `RunOptions.memoryBudgetBytes`) the run
 *   is refused with the estimate, instead of Node running out of heap minutes later.
 */
import type { StorageImageFormat, WorkloadManifest } from './manifest.js';

export const MAX_LAUNCH_INVOCATIONS = 2 ** 30;

/** A launch too large to simulate (past MAX_LAUNCH_INVOCATIONS or the memory budget). */
export class LaunchLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchLimitError';
  }
}

/**
 * Simulator state per launch invocation, measured: `tri` grows by ~190 B of resident memory per
 * invocation from 256x256 to 512x512 (functional run); rounded up for heavier workloads.
 */
export const BYTES_PER_INVOCATION = 256;

/** 4 GiB: what a default Node heap plus typed arrays holds on a machine of 8 GiB or more. */
export const DEFAULT_MEMORY_BUDGET_BYTES = 4 * 2 ** 30;

/** Bytes of one texel as the simulator stores each storage image format (src/sim/functional/images.ts). */
const TEXEL_BYTES: Readonly<Record<StorageImageFormat, number>> = { rgba8: 4, rgba16f: 8, rgba32f: 16, r32f: 4, rg32f: 8, r32ui: 4, rgba32ui: 16 };

export interface LaunchEstimate {
  invocations: number;
  /** Bytes of storage images (they are launch-sized). */
  imageBytes: number;
  /** Simulator state: invocations x BYTES_PER_INVOCATION. */
  stateBytes: number;
  totalBytes: number;
}

export function estimateLaunch(manifest: Pick<WorkloadManifest, 'descriptors'>, width: number, height: number, depth: number): LaunchEstimate {
  const invocations = width * height * depth;
  let texel = 0;
  for (const d of manifest.descriptors) if (d.kind === 'storageImage') texel += TEXEL_BYTES[d.format];
  const imageBytes = invocations * texel;
  const stateBytes = invocations * BYTES_PER_INVOCATION;
  return { invocations, imageBytes, stateBytes, totalBytes: imageBytes + stateBytes };
}

export function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)} GiB`;
}

/** Why a launch is too large to simulate within `budgetBytes`, or undefined when it fits. `what` names where the size came from. */
export function launchProblem(
  manifest: Pick<WorkloadManifest, 'descriptors'>, size: { width: number; height: number; depth: number }, budgetBytes: number, what: string,
): string | undefined {
  const { width, height, depth } = size;
  const dims = `${width}x${height}${depth === 1 ? '' : `x${depth}`}`;
  const e = estimateLaunch(manifest, width, height, depth);
  if (e.invocations > MAX_LAUNCH_INVOCATIONS) {
    return `${what}: launch ${dims} is ${e.invocations} invocations, over ${MAX_LAUNCH_INVOCATIONS} (2^30, Vulkan's maxRayDispatchInvocationCount)`;
  }
  if (e.totalBytes > budgetBytes) {
    return `${what}: launch ${dims} needs about ${gib(e.totalBytes)} to simulate (${e.invocations} invocations x ${BYTES_PER_INVOCATION} B of simulator state, ${gib(e.imageBytes)} of storage images), over the memory budget of ${gib(budgetBytes)}; ` +
      'use a smaller launch, or raise the budget with --memory-budget <GiB> (and Node\'s heap with NODE_OPTIONS=--max-old-space-size=<MiB>)';
  }
  return undefined;
}
