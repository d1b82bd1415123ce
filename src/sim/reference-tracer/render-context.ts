/**
 * What every workload port reads from the host side: the manifest's camera, push constants and
 * uniform values (with run parameters substituted as the host does), the scene, the acceleration
 * structure, and the output frame it writes. Missing manifest entries are reported by key as a
 * ReferenceTracerError, never as a stack trace from deep inside a port.
 */
import type { AccelerationStructure } from '../rt/acceleration-structure.js';
import type { Scene } from '../rt/scene.js';
import type { RunParameters } from '../host/build-resources.js';
import { substitutePlaceholders } from '../workload/run-placeholders.js';
import type { CameraSpec, JsonValue, WorkloadManifest } from '../workload/manifest.js';
import { cameraBlock, type CameraBlock } from './camera.js';
import type { RayCount } from './scene-query.js';

export class ReferenceTracerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceTracerError';
  }
}

export interface RenderContext {
  manifest: WorkloadManifest;
  scene: Scene;
  as: AccelerationStructure;
  params: RunParameters;
  camera: CameraBlock;
  count: RayCount;
  /** Linear RGBA, row 0 at the top; what the shader passes to imageStore before format conversion. */
  rgba: Float32Array;
}

export function renderContext(manifest: WorkloadManifest, scene: Scene, as: AccelerationStructure, params: RunParameters): RenderContext {
  const cam = manifest.descriptors.find((d) => d.kind === 'uniformBuffer' && d.camera);
  const spec = cam && cam.kind === 'uniformBuffer' ? cam.camera : undefined;
  if (!spec) throw new ReferenceTracerError(`${manifest.path}: descriptors: no uniform buffer with a 'camera' entry`);
  return {
    manifest, scene, as, params,
    camera: cameraBlock(spec as CameraSpec, params.width, params.height),
    count: { rays: 0, anyHitRays: 0 },
    rgba: new Float32Array(params.width * params.height * 4),
  };
}

/** Run parameters substituted as the host does for a one-frame run (frame 0; the reference renders one frame). */
function substitute(value: JsonValue | undefined, params: RunParameters): JsonValue | undefined {
  return value === undefined ? undefined : substitutePlaceholders(value, { ...params, depth: 1, frame: 0, frames: 1 });
}

/** A numeric push constant by member name, run parameters substituted. */
export function pushConstant(ctx: RenderContext, name: string): number {
  const v = substitute(ctx.manifest.pushConstants?.[name], ctx.params);
  if (typeof v !== 'number') throw new ReferenceTracerError(`${ctx.manifest.path}: pushConstants.${name}: expected a number, got ${JSON.stringify(v)}`);
  return v;
}

/** The inline `value` of the uniform buffer bound at (set, binding). */
export function uniformValue(ctx: RenderContext, set: number, binding: number): Record<string, JsonValue> {
  const d = ctx.manifest.descriptors.find((x) => x.set === set && x.binding === binding);
  if (!d || d.kind !== 'uniformBuffer' || !d.value) {
    throw new ReferenceTracerError(`${ctx.manifest.path}: descriptors (set=${set}, binding=${binding}): expected a uniform buffer with a value`);
  }
  return d.value as Record<string, JsonValue>;
}

export function specConstant(ctx: RenderContext, id: number, fallback: number): number {
  const v = ctx.manifest.specConstants[id];
  return typeof v === 'number' ? v : fallback;
}

export function storePixel(ctx: RenderContext, x: number, y: number, r: number, g: number, b: number, a = 1): void {
  const i = 4 * (y * ctx.params.width + x);
  ctx.rgba[i] = r;
  ctx.rgba[i + 1] = g;
  ctx.rgba[i + 2] = b;
  ctx.rgba[i + 3] = a;
}
