/**
 * The functional core's float models (src/sim/functional/float-model.ts): `ieee` rounds each GLSL
 * operation exactly; `gpu` lowers division, normalize, inversesqrt and pow as GPU compilers do.
 */
import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { compileProgram, runFunctional } from '../../../src/sim/functional/index.js';
import type { FloatModel } from '../../../src/sim/functional/float-model.js';

function run(floatModel: FloatModel): Float32Array {
  const src = `#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Out { float f[8]; } o;
void main() {
  float a = 1.0 + o.f[7];   // 1, not a constant the front end could fold
  o.f[0] = a / 3.0;
  o.f[1] = (5.0 * a) / 49.0;
  vec3 v = normalize(vec3(a, 2.0 * a, 3.0 * a));
  o.f[2] = v.x; o.f[3] = v.y; o.f[4] = v.z;
  o.f[5] = pow(0.7 * a, 5.0);
  o.f[6] = inversesqrt(3.0 * a);
}
`;
  const r = compileGlsl('float.comp', src);
  if (!r.module) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const data = new Uint8Array(32);
  runFunctional(compileProgram(r.module, floatModel), { buffers: [{ set: 0, binding: 0, data }] }, { entry: r.module.entryPoints[0]!.function, size: [1, 1, 1] });
  return new Float32Array(data.buffer);
}

const f = Math.fround;

test('ieee: exactly rounded division, normalize, pow and inversesqrt', (t) => {
  const o = run('ieee');
  t.is(o[0], f(1 / 3));
  t.is(o[1], f(5 / 49));
  const len = f(Math.sqrt(14));
  t.deepEqual([o[2], o[3], o[4]], [f(1 / len), f(2 / len), f(3 / len)]);
  t.is(o[5], f(Math.pow(f(0.7), 5)));
  t.is(o[6], f(1 / Math.sqrt(3)));
});

test('gpu: x / y = x * rcp(y), normalize = v * rsq(dot), pow = exp2(y * log2 x), rsq = rcp(sqrt)', (t) => {
  const o = run('gpu');
  t.is(o[0], f(1 * f(1 / 3)));
  t.is(o[1], f(5 * f(1 / 49)));
  t.not(o[1], f(5 / 49), 'the reciprocal-multiply differs from exact division for 5 / 49');
  const rsq = f(1 / f(Math.sqrt(14)));
  t.deepEqual([o[2], o[3], o[4]], [f(1 * rsq), f(2 * rsq), f(3 * rsq)]);
  t.is(o[5], f(2 ** f(5 * f(Math.log2(f(0.7))))));
  t.is(o[6], f(1 / f(Math.sqrt(3))));
});
