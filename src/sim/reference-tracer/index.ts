/**
 * The independent reference ray tracer (issue 5 section 4): plain TypeScript ports of the
 * built-in workloads' shaders for tri, ao, cornell and pt — no IR, no SIMT — on the project's
 * own scene loading, acceleration structure and traversal, with the host's camera matrices and
 * the shaders' RNG streams, so the simulator's image can be checked pixel by pixel.
 *
 * Invariant: the output is the value the raygen shader passes to imageStore for each pixel
 * (before the storage format's conversion), row 0 at the top, RGBA interleaved.
 */
import type { AccelerationStructure } from '../rt/acceleration-structure.js';
import type { Scene } from '../rt/scene.js';
import type { RunParameters } from '../host/build-resources.js';
import type { WorkloadManifest } from '../workload/manifest.js';
import { renderContext, ReferenceTracerError, type RenderContext } from './render-context.js';
import { traceTri } from './trace-tri.js';
import { traceAo } from './trace-ao.js';
import { traceCornell } from './trace-cornell.js';
import { tracePt } from './trace-pt.js';

export { ReferenceTracerError } from './render-context.js';

export type ReferenceWorkload = 'tri' | 'ao' | 'cornell' | 'pt';

export const REFERENCE_WORKLOADS: readonly ReferenceWorkload[] = ['tri', 'ao', 'cornell', 'pt'];

export interface ReferenceImage {
  rgba: Float32Array;
  width: number;
  height: number;
  /** traceRayEXT calls the shaders would make (primary, secondary and shadow / occlusion rays). */
  rays: number;
  /** Of those, rays with terminate-on-first-hit (shadow / occlusion). */
  anyHitRays: number;
}

const TRACERS: Record<ReferenceWorkload, (ctx: RenderContext) => void> = {
  tri: traceTri, ao: traceAo, cornell: traceCornell, pt: tracePt,
};

export function referenceRender(
  workload: ReferenceWorkload, manifest: WorkloadManifest, scene: Scene, as: AccelerationStructure, params: RunParameters,
): ReferenceImage {
  const trace = TRACERS[workload];
  if (!trace) throw new ReferenceTracerError(`no reference tracer for workload '${String(workload)}' (have: ${REFERENCE_WORKLOADS.join(', ')})`);
  const ctx = renderContext(manifest, scene, as, params);
  trace(ctx);
  return { rgba: ctx.rgba, width: params.width, height: params.height, rays: ctx.count.rays, anyHitRays: ctx.count.anyHitRays };
}

/** round(clamp(x, 0, 1) * 255): what an rgba8 (unorm) storage image keeps of a shader value. */
export function quantizeUnorm8(x: number): number {
  return Math.round(Math.min(Math.max(x, 0), 1) * 255);
}
