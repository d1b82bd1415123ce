/**
 * Primary rays exactly as workloads/common/camera.glsl builds them from the camera block the host
 * packs (src/sim/workload/camera.ts `cameraMatrices`): pixel centre + jitter -> NDC -> camera
 * space through projInverse -> world space through viewInverse. The matrices are rounded to f32
 * as the std140 uniform buffer stores them, and every product is an f32 dot product.
 */
import { cameraMatrices, type Mat4Columns } from '../workload/camera.js';
import type { CameraSpec } from '../workload/manifest.js';
import { fr, normalize, type Vec3 } from './f32-vector.js';

export interface CameraBlock {
  /** Column-major, f32. */
  viewInverse: Float32Array;
  projInverse: Float32Array;
}

function columns(m: Mat4Columns): Float32Array {
  return Float32Array.from(m.flat());
}

export function cameraBlock(spec: CameraSpec, width: number, height: number): CameraBlock {
  const { viewInverse, projInverse } = cameraMatrices(spec, width / height);
  return { viewInverse: columns(viewInverse), projInverse: columns(projInverse) };
}

/** mat4 (column-major) times vec4, each row an f32 dot product over the columns in order. */
function mat4TimesVec4(m: Float32Array, v: readonly number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < 4; r++) {
    let acc = fr(m[r]! * v[0]!);
    for (let c = 1; c < 4; c++) acc = fr(acc + fr(m[4 * c + r]! * v[c]!));
    out.push(acc);
  }
  return out;
}

export interface Ray {
  origin: Vec3;
  direction: Vec3;
}

/** camera.glsl primaryRay(cam, jitter, origin, direction) for launch id (x, y). */
export function primaryRay(cam: CameraBlock, x: number, y: number, width: number, height: number, jitter: [number, number]): Ray {
  const cx = fr(x + jitter[0]);
  const cy = fr(y + jitter[1]);
  const dx = fr(fr(fr(cx / width) * 2) - 1);
  const dy = fr(fr(fr(cy / height) * 2) - 1);
  const o = mat4TimesVec4(cam.viewInverse, [0, 0, 0, 1]);
  const t = mat4TimesVec4(cam.projInverse, [dx, dy, 1, 1]);
  const tn = normalize([t[0]!, t[1]!, t[2]!]);
  const dir = mat4TimesVec4(cam.viewInverse, [tn[0], tn[1], tn[2], 0]);
  return { origin: [o[0]!, o[1]!, o[2]!], direction: normalize([dir[0]!, dir[1]!, dir[2]!]) };
}
