import test from 'ava';
import { runGlsl, words } from './run-ir.js';
import { SimError } from '../../../src/sim/functional/errors.js';

const LOOP = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint i = 0u;
  while (g == 7u || i < 5u) {
    i++;
    if (g == 7u) i = 0u;
  }
  o.v[g] = i;
}`;

const OOB = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  float local[8];
  for (int i = 0; i < 8; i++) local[i] = float(i);
  o.v[g * 2u] = uint(local[g % 8u]);
}`;

const LOCAL_OOB = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  float local[8];
  for (int i = 0; i < 8; i++) local[i] = float(i);
  o.v[g] = uint(local[g]);
}`;

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`watchdog names shader, line, lane and thread (${engine})`, (t) => {
    const err = t.throws(() => runGlsl(LOOP, { buffers: [{ set: 0, binding: 0, data: words(32) }] }, { size: [1, 1, 1], watchdogInstructions: 10_000, engine }, 'loop.comp'), { instanceOf: SimError });
    t.is(err!.kind, 'watchdog');
    t.regex(err!.message, /^shader loops forever\? loop\.comp:\d+:\d+ lane 7 \(thread 7\) exceeded 10000 instructions$/);
  });

  test(`out-of-bounds storage buffer access is a located error (${engine})`, (t) => {
    const err = t.throws(() => runGlsl(OOB, { buffers: [{ set: 0, binding: 0, data: words(40) }] }, { size: [1, 1, 1], engine }, 'oob.comp'), { instanceOf: SimError });
    t.is(err!.kind, 'outOfBounds');
    // lane 20 writes word 40 = byte offset 160 of a 160-byte buffer
    t.regex(err!.message, /out-of-bounds access to buffer set=0 binding=0: byte offset 160 \(4 bytes\) of a 160-byte buffer at oob\.comp:8:\d+ lane 20 \(thread 20\)/);
  });

  test(`out-of-bounds index into a local array is a located error (${engine})`, (t) => {
    const err = t.throws(() => runGlsl(LOCAL_OOB, { buffers: [{ set: 0, binding: 0, data: words(32) }] }, { size: [1, 1, 1], engine }, 'local.comp'), { instanceOf: SimError });
    t.is(err!.kind, 'outOfBounds');
    t.regex(err!.message, /index 8 out of bounds for length 8 at local\.comp:8:\d+ lane 8 \(thread 8\)/);
  });
}

test('a binding the shader uses but the host did not give is an error naming it', (t) => {
  const err = t.throws(() => runGlsl(OOB, {}, { size: [1, 1, 1] }), { instanceOf: SimError });
  t.is(err!.kind, 'resource');
  t.regex(err!.message, /no buffer bound for 'o' \(set=0 binding=0\)/);
});

test('the same launch twice gives identical counters (determinism)', (t) => {
  const a = runGlsl(OOB, { buffers: [{ set: 0, binding: 0, data: words(64) }] }, { size: [1, 1, 1] }).counters;
  const b = runGlsl(OOB, { buffers: [{ set: 0, binding: 0, data: words(64) }] }, { size: [1, 1, 1] }).counters;
  t.deepEqual(a, b);
});

test('an unsupported operation is reported at compile time with its shader location', (t) => {
  const src = `#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCube tex;
layout(std430, set = 0, binding = 1) buffer Out { vec4 v[]; } o;
void main() {
  o.v[0] = textureGather(tex, vec3(0.5));
}`;
  const err = t.throws(() => runGlsl(src, {}, { size: [1, 1, 1] }, 'gather.comp'), { instanceOf: SimError });
  t.is(err!.kind, 'unsupported');
  t.regex(err!.message, /textureGather is only supported on 2D textures at gather\.comp:6:\d+/);
});
