// cameraMatrices against the way workloads/common/camera.glsl uses them: a pixel's NDC goes
// through projInverse, then viewInverse. The centre pixel must look at lookAt, the top row up,
// the left column left, and the field of view must be the one asked for.
import test from 'ava';
import { cameraMatrices, type Mat4Columns } from '../../../src/sim/workload/camera.js';
import type { CameraSpec } from '../../../src/sim/workload/manifest.js';

type V = number[];
const mul = (m: Mat4Columns, v: V): V => [0, 1, 2, 3].map((r) => m[0][r]! * v[0]! + m[1][r]! * v[1]! + m[2][r]! * v[2]! + m[3][r]! * v[3]!);
const normalize = (v: V): V => {
  const l = Math.hypot(v[0]!, v[1]!, v[2]!);
  return [v[0]! / l, v[1]! / l, v[2]! / l];
};
const dot = (a: V, b: V) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

/** camera.glsl's primaryRay for NDC (dx, dy): dy = -1 is the top image row. */
function ray(cam: { viewInverse: Mat4Columns; projInverse: Mat4Columns }, dx: number, dy: number): { origin: V; dir: V } {
  const origin = mul(cam.viewInverse, [0, 0, 0, 1]);
  const target = mul(cam.projInverse, [dx, dy, 1, 1]);
  const t = normalize(target);
  return { origin: origin.slice(0, 3), dir: normalize(mul(cam.viewInverse, [t[0]!, t[1]!, t[2]!, 0])) };
}

const spec: CameraSpec = { lookFrom: [13, 2, 3], lookAt: [0, 0, 0], up: [0, 1, 0], fovY: 20, near: 0.1, far: 1000 };

test('the centre ray starts at lookFrom and points at lookAt', (t) => {
  const cam = cameraMatrices(spec, 2);
  const { origin, dir } = ray(cam, 0, 0);
  t.deepEqual(origin.map((x) => Math.round(x * 1e6) / 1e6), [13, 2, 3]);
  const want = normalize([-13, -2, -3]);
  t.true(dot(dir, want) > 1 - 1e-9);
});

test('the top row looks up and the left column looks left (Vulkan y-down NDC)', (t) => {
  const cam = cameraMatrices({ ...spec, lookFrom: [0, 0, 5], lookAt: [0, 0, 0] }, 1);
  t.true(ray(cam, 0, -1).dir[1]! > 0, 'NDC y = -1 (launch row 0) looks up');
  t.true(ray(cam, 0, 1).dir[1]! < 0);
  t.true(ray(cam, -1, 0).dir[0]! < 0, 'NDC x = -1 looks towards -x');
});

test('the vertical field of view and the aspect ratio are the ones asked for', (t) => {
  for (const [fovY, aspect] of [[20, 1], [60, 16 / 9], [90, 0.5]] as const) {
    const cam = cameraMatrices({ ...spec, fovY }, aspect);
    const top = ray(cam, 0, -1).dir;
    const bottom = ray(cam, 0, 1).dir;
    const vertical = (Math.acos(dot(top, bottom)) * 180) / Math.PI;
    t.true(Math.abs(vertical - fovY) < 1e-6, `fovY ${fovY}: measured ${vertical}`);
    const right = ray(cam, 1, 0).dir;
    const centre = ray(cam, 0, 0).dir;
    const halfH = Math.tan(Math.acos(dot(right, centre)));
    t.true(Math.abs(halfH / Math.tan((fovY * Math.PI) / 360) - aspect) < 1e-6, `aspect ${aspect}`);
  }
});

test('a camera looking straight down still gets an orthonormal basis', (t) => {
  const cam = cameraMatrices({ ...spec, lookFrom: [0, 10, 0], lookAt: [0, 0, 0], up: [0, 1, 0] }, 1);
  const { dir } = ray(cam, 0, 0);
  t.true(dir[1]! < -1 + 1e-9);
  const [r, u] = [cam.viewInverse[0], cam.viewInverse[1]];
  t.true(Math.abs(dot(r, u)) < 1e-12 && Math.abs(dot(r, r) - 1) < 1e-12);
});

// The camera helper fills blocks by member name: nvpro's GlobalUniforms {viewProj, viewInverse,
// projInverse}, or any names through camera.members.
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { typeOf } from '../../../src/ir/types.js';
import { cameraMemberValues, cameraQuantities } from '../../../src/sim/workload/camera.js';

function blockOf(decl: string) {
  const src = `#version 460
#extension GL_EXT_ray_tracing : require
${decl}
void main() {}
`;
  const r = compileGlsl('cam.rgen', src);
  if (!r.module) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const g = r.module.globals.find((x) => x.binding === 0)!;
  const pt = typeOf(r.module.types, g.type);
  return { types: r.module.types, block: pt.kind === 'pointer' ? pt.pointee : g.type };
}

const mat = (m: number[][]) => m;
const mulM = (a: number[][], b: number[][]) => [0, 1, 2, 3].map((c) => [0, 1, 2, 3].map((r) => [0, 1, 2, 3].reduce((s, k) => s + a[k]![r]! * b[c]![k]!, 0)));

test('view, proj and viewProj are consistent with the inverses the ray generation uses', (t) => {
  const q = cameraQuantities(spec, 1.5);
  const id = mulM(mulM(mat(q.viewInverse as number[][]), mat(q.projInverse as number[][])), mat(q.viewProj as number[][]));
  id.forEach((col, c) => col.forEach((x, r) => t.true(Math.abs(x - (c === r ? 1 : 0)) < 1e-9, `(viewProj)^-1 * viewProj [${c}][${r}] = ${x}`)));
  const eye = mul(q.view as Mat4Columns, [13, 2, 3, 1]);
  t.true(eye.slice(0, 3).every((x) => Math.abs(x) < 1e-9), 'the eye is the view-space origin');
  t.deepEqual(q.position, [13, 2, 3]);
});

test('an nvpro GlobalUniforms block is filled by member name, position as vec4 when the member is one', (t) => {
  const { types, block } = blockOf(`struct GlobalUniforms { mat4 viewProj; mat4 viewInverse; mat4 projInverse; vec4 eye; };
layout(set = 0, binding = 0) uniform _GlobalUniforms { GlobalUniforms uni; };`);
  const v = cameraMemberValues(spec, 1, types, block, 'descriptors[0].camera');
  t.deepEqual(Object.keys(v).sort(), ['uni.eye', 'uni.projInverse', 'uni.viewInverse', 'uni.viewProj']);
  t.deepEqual(v['uni.eye'], [13, 2, 3, 1]);
});

test('camera.members maps quantities to other member names; a block without camera members says how to map them', (t) => {
  const { types, block } = blockOf(`layout(set = 0, binding = 0) uniform Ubo { mat4 P; mat4 V; vec3 camPos; float time; } ubo;`);
  const v = cameraMemberValues({ ...spec, members: { proj: 'P', view: 'V', position: 'camPos' } }, 1, types, block, 'd.camera');
  t.deepEqual(Object.keys(v).sort(), ['P', 'V', 'camPos']);
  const e = t.throws(() => cameraMemberValues(spec, 1, types, block, 'd.camera'));
  t.regex(e!.message, /d\.camera: the block has no camera member .*"members"/);
  const bad = t.throws(() => cameraMemberValues({ ...spec, members: { proj: 'Proj' } }, 1, types, block, 'd.camera'));
  t.regex(bad!.message, /d\.camera\.members\.proj: the block has no member "Proj"/);
});
