/**
 * The manifest's `camera` -> camera matrices, written into the uniform block's members by name:
 * `view`, `proj`, `viewProj`, `viewInverse`, `projInverse` (mat4) and `position` (vec3 / vec4;
 * a member named `eye` or `cameraPosition` also takes it), or the members `camera.members` names.
 * nvpro's `{viewInverse, projInverse}` and its GlobalUniforms `{viewProj, viewInverse, projInverse}`
 * both fill without a mapping.
 * Conventions the shaders rely on (workloads/common/camera.glsl): right-handed view looking down
 * -Z; a Vulkan projection (y flipped, depth 0..1) so launch row 0 is the top of the image. With
 * `flipY: false` the projection is glm's `perspective` as it is (no flip), as applications that
 * flip Y elsewhere (in the loaded geometry, like Sascha Willems' glTF loader) upload it.
 * Matrices are returned column-major as 4 columns of 4 numbers, the JSON form `packValue` takes.
 */
import { typeOf, type TypeId, type TypeTable } from '../../ir/types.js';
import type { CameraQuantity, CameraSpec, JsonValue } from './manifest.js';
import { LayoutPackError, packMembers } from './pack-layout.js';

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
  const p11 = camera.flipY === false ? f : -f;
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

/** The 4x4 product a * b of column-major matrices. */
function mul4(a: Mat4Columns, b: Mat4Columns): Mat4Columns {
  return [0, 1, 2, 3].map((c) => [0, 1, 2, 3].map((r) => a[0]![r]! * b[c]![0]! + a[1]![r]! * b[c]![1]! + a[2]![r]! * b[c]![2]! + a[3]![r]! * b[c]![3]!)) as Mat4Columns;
}

/** Every quantity the camera helper provides (`position` as vec3). */
export function cameraQuantities(camera: CameraSpec, aspect: number): Record<CameraQuantity, number[] | Mat4Columns> {
  const { viewInverse, projInverse } = cameraMatrices(camera, aspect);
  // view = inverse of the rigid viewInverse: transpose the rotation, rotate the negated eye.
  const [r, u, b, e] = viewInverse;
  const dot3 = (x: number[], y: number[]) => x[0]! * y[0]! + x[1]! * y[1]! + x[2]! * y[2]!;
  const view: Mat4Columns = [
    [r[0]!, u[0]!, b[0]!, 0], [r[1]!, u[1]!, b[1]!, 0], [r[2]!, u[2]!, b[2]!, 0], [-dot3(r, e), -dot3(u, e), -dot3(b, e), 1],
  ];
  const f = 1 / Math.tan((camera.fovY * Math.PI) / 360);
  const { near: n, far: z } = camera;
  const proj: Mat4Columns = [[f / aspect, 0, 0, 0], [0, camera.flipY === false ? f : -f, 0, 0], [0, 0, z / (n - z), -1], [0, 0, (n * z) / (n - z), 0]];
  return { view, proj, viewProj: mul4(proj, view), viewInverse, projInverse, position: [...camera.lookFrom] };
}

/** Member names that take a quantity when `camera.members` does not name one. */
const DEFAULT_MEMBER_NAMES: Record<CameraQuantity, string[]> = {
  view: ['view'], proj: ['proj'], viewProj: ['viewProj'], viewInverse: ['viewInverse'], projInverse: ['projInverse'],
  position: ['position', 'eye', 'cameraPosition'],
};

/**
 * Member path -> value for each camera quantity the block has a member for (`camera.members`
 * first, else by name at the top level or inside the block's only struct member). Throws a
 * LayoutPackError naming `path` when the block has none of them, or a mapped member is missing.
 */
export function cameraMemberValues(
  camera: CameraSpec, aspect: number, types: TypeTable, block: TypeId, path: string,
): Record<string, JsonValue> {
  const q = cameraQuantities(camera, aspect);
  const out: Record<string, JsonValue> = {};
  const top = typeOf(types, block);
  const scopes: { prefix: string; type: TypeId }[] = [{ prefix: '', type: block }];
  if (top.kind === 'struct' && top.members.length === 1 && typeOf(types, top.members[0]!.type).kind === 'struct') {
    scopes.push({ prefix: `${top.members[0]!.name}.`, type: top.members[0]!.type });
  }
  const memberType = (dotted: string): TypeId | undefined => {
    let t: TypeId | undefined = block;
    for (const part of dotted.split('.')) {
      const s: ReturnType<typeof typeOf> | undefined = t === undefined ? undefined : typeOf(types, t);
      t = s?.kind === 'struct' ? s.members.find((m) => m.name === part)?.type : undefined;
    }
    return t;
  };
  const valueFor = (quantity: CameraQuantity, member: string): JsonValue => {
    const v = q[quantity];
    if (quantity !== 'position') return v as JsonValue;
    const t = memberType(member);
    const vt = t === undefined ? undefined : typeOf(types, t);
    return (vt?.kind === 'vector' && vt.count === 4 ? [...(v as number[]), 1] : v) as JsonValue;
  };
  for (const quantity of Object.keys(DEFAULT_MEMBER_NAMES) as CameraQuantity[]) {
    const mapped = camera.members?.[quantity];
    if (mapped !== undefined) {
      if (memberType(mapped) === undefined && memberType(`${scopes[1]?.prefix ?? ''}${mapped}`) === undefined) {
        throw new LayoutPackError(`${path}.members.${quantity}`, `the block has no member "${mapped}"`);
      }
      const full = memberType(mapped) !== undefined ? mapped : `${scopes[1]!.prefix}${mapped}`;
      out[full] = valueFor(quantity, full);
      continue;
    }
    for (const scope of scopes) {
      const name = DEFAULT_MEMBER_NAMES[quantity].map((n) => `${scope.prefix}${n}`).find((n) => memberType(n) !== undefined);
      if (name) {
        out[name] = valueFor(quantity, name);
        break;
      }
    }
  }
  if (Object.keys(out).length === 0) {
    const known = Object.values(DEFAULT_MEMBER_NAMES).flat().join(', ');
    throw new LayoutPackError(path, `the block has no camera member (${known}); name them with "camera": {..., "members": {"viewProj": "..."}}`);
  }
  return out;
}

/** Writes the camera into an already zeroed (or data-filled) block image. */
export function packCamera(view: DataView, camera: CameraSpec, aspect: number, types: TypeTable, block: TypeId, path: string): void {
  packMembers(view, block, types, cameraMemberValues(camera, aspect, types, block, path), path);
}
