/**
 * The manifest's `camera` -> the nvpro camera block `{viewInverse, projInverse}` (std140 mat4s).
 * Conventions the shaders rely on (workloads/common/camera.glsl): right-handed view looking down
 * -Z; a Vulkan projection (y flipped, depth 0..1) so launch row 0 is the top of the image.
 * Matrices are returned column-major as 4 columns of 4 numbers, the JSON form `packValue` takes.
 */
import type { CameraSpec } from './manifest.js';

export type Mat4Columns = [number[], number[], number[], number[]];

type V3 = [number, number, number];

function sub(a: V3, b: V3): V3 { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function cross(a: V3, b: V3): V3 { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function normalize(a: V3): V3 {
  const l = Math.hypot(a[0], a[1], a[2]);
  return l > 0 ? [a[0] / l, a[1] / l, a[2] / l] : [0, 0, 0];
}

/**
 * viewInverse is the camera-to-world matrix (columns: right, up, back, eye). projInverse inverts
 * perspective(fovY, aspect, near, far) with proj[1][1] negated (nvpro's Vulkan flip).
 */
export function cameraMatrices(camera: CameraSpec, aspect: number): { viewInverse: Mat4Columns; projInverse: Mat4Columns } {
  const back = normalize(sub(camera.lookFrom, camera.lookAt));
  let right = normalize(cross(camera.up, back));
  if (right.every((x) => x === 0)) right = normalize(cross([0, 0, 1], back)); // up parallel to the view: pick any right
  const up = cross(back, right);
  const viewInverse: Mat4Columns = [
    [...right, 0], [...up, 0], [...back, 0], [...camera.lookFrom, 1],
  ];
  const f = 1 / Math.tan((camera.fovY * Math.PI) / 360);
  const { near: n, far: z } = camera;
  // Vulkan perspective, depth 0..1: x' = (f/a) x, y' = -f y, z' = z*far/(n-far) + n*far/(n-far), w' = -z.
  const p00 = f / aspect;
  const p11 = -f;
  const p22 = z / (n - z);
  const p32 = (n * z) / (n - z);
  // Inverse of [[p00,0,0,0],[0,p11,0,0],[0,0,p22,p32],[0,0,-1,0]] (row-major), written column-major.
  const projInverse: Mat4Columns = [
    [1 / p00, 0, 0, 0],
    [0, 1 / p11, 0, 0],
    [0, 0, 0, 1 / p32],
    [0, 0, -1, p22 / p32],
  ];
  return { viewInverse, projInverse };
}
