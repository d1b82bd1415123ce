import test from 'ava';
import { runGlsl, words, u32s, f32s } from './run-ir.js';
import { createImage, writeTexel } from '../../../src/sim/functional/images.js';

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`descriptor arrays of buffers and textures, indexed per lane (${engine})`, (t) => {
    const src = `#version 460
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data { uint v[]; } data[3];
layout(set = 0, binding = 1) uniform sampler2D texs[2];
layout(std430, set = 0, binding = 2) buffer Out { float o[]; } outp;
void main() {
  uint l = gl_GlobalInvocationID.x;
  uint which = l % 3u;
  uint x = data[nonuniformEXT(which)].v[l / 3u];
  data[nonuniformEXT(which)].v[l / 3u] = x + 1u;
  float s = texture(texs[nonuniformEXT(l % 2u)], vec2(0.5)).r;
  outp.o[l] = float(x) + s;
}`;
    const bufs = [0, 1, 2].map((k) => new Uint8Array(new Uint32Array([100 * k, 100 * k + 1, 100 * k + 2]).buffer));
    const texs = [0, 1].map((k) => {
      const img = createImage('r32f', 1, 1);
      writeTexel(img, 0, 0, 0, 0, [0.25 + k * 0.5]);
      return img;
    });
    const out = words(8);
    runGlsl(src, {
      buffers: [
        ...bufs.map((data, i) => ({ set: 0, binding: 0, arrayIndex: i, data })),
        { set: 0, binding: 2, data: out },
      ],
      images: texs.map((image, i) => ({ set: 0, binding: 1, arrayIndex: i, image })),
    }, { size: [1, 1, 1], engine });
    t.deepEqual(f32s(out), Array.from({ length: 8 }, (_, l) => 100 * (l % 3) + Math.floor(l / 3) + (l % 2 ? 0.75 : 0.25)));
    t.deepEqual(Array.from(new Uint32Array(bufs[1]!.buffer)), [101, 102, 103]);
  });

  test(`specialization constants and constant tables in private memory (${engine})`, (t) => {
    const src = `#version 460
layout(local_size_x = 8) in;
layout(constant_id = 3) const uint N = 4u;
layout(constant_id = 4) const bool DOUBLE = false;
const float table[4] = float[](1.5, 2.5, 3.5, 4.5);
layout(std430, set = 0, binding = 0) buffer Out { float o[]; } outp;
void main() {
  uint l = gl_GlobalInvocationID.x;
  float acc = 0.0;
  for (uint i = 0u; i < N; i++) acc += table[(l + i) % 4u];
  outp.o[l] = DOUBLE ? acc * 2.0 : acc;
}`;
    const a = words(8);
    runGlsl(src, { buffers: [{ set: 0, binding: 0, data: a }] }, { size: [1, 1, 1], engine });
    t.deepEqual(f32s(a), new Array(8).fill(12));
    const b = words(8);
    runGlsl(src, { buffers: [{ set: 0, binding: 0, data: b }] }, { size: [1, 1, 1], engine, specConstants: new Map<number, number | boolean>([[3, 2], [4, true]]) });
    const table = [1.5, 2.5, 3.5, 4.5];
    t.deepEqual(f32s(b), Array.from({ length: 8 }, (_, l) => 2 * (table[l % 4]! + table[(l + 1) % 4]!)));
    void u32s;
  });
}
