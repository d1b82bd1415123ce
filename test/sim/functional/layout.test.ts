import test from 'ava';
import { runGlsl as runGlslDefault, words, f32s, u32s } from './run-ir.js';

let engine: 'warp' | 'laneSerial' = 'warp';
const runGlsl: typeof runGlslDefault = (src, res, opts, path) => runGlslDefault(src, res, { ...opts, engine }, path);

/** Registers the test once per engine. */
function both(title: string, fn: (t: import('ava').ExecutionContext) => void): void {
  for (const e of ['warp', 'laneSerial'] as const) {
    test(`${title} (${e})`, (t) => {
      engine = e;
      fn(t);
    });
  }
}

function bytes(n: number): { u8: Uint8Array; f32: Float32Array; u32: Uint32Array } {
  const u8 = new Uint8Array(n);
  return { u8, f32: new Float32Array(u8.buffer), u32: new Uint32Array(u8.buffer) };
}

both('std140 uniform block: vec3 + float packing, array stride 16, mat3 columns of 16 bytes, row_major', (t) => {
  const src = `#version 460
layout(local_size_x = 1) in;
layout(std140, set = 0, binding = 0) uniform U {
  vec3 a;          // offset 0
  float b;         // offset 12 (fills the vec3's padding)
  float arr[3];    // offset 16, stride 16
  mat3 m;          // offset 64, columns at 64, 80, 96
  layout(row_major) mat2 r; // offset 112, rows at 112, 128
} u;
layout(std430, set = 0, binding = 1) buffer Out { float v[]; } o;
void main() {
  o.v[0] = u.a.z; o.v[1] = u.b; o.v[2] = u.arr[2];
  o.v[3] = u.m[1][2];   // column 1, row 2
  o.v[4] = u.r[0][1];   // column 0, row 1 = second element of row 1
  vec3 c = u.m[2];
  o.v[5] = c.x;
}`;
  const ub = bytes(144);
  ub.f32.set([1, 2, 3], 0);
  ub.f32[3] = 4;
  ub.f32[4] = 10; ub.f32[8] = 11; ub.f32[12] = 12;
  ub.f32.set([20, 21, 22], 16); ub.f32.set([23, 24, 25], 20); ub.f32.set([26, 27, 28], 24);
  ub.f32.set([30, 31], 28); ub.f32.set([32, 33], 32); // row 0 = (30, 31), row 1 = (32, 33)
  const out = words(8);
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: ub.u8 }, { set: 0, binding: 1, data: out }] }, { size: [1, 1, 1] });
  t.deepEqual(f32s(out).slice(0, 6), [3, 4, 12, 25, 32, 26]);
});

both('std430 storage block: struct array stride, vec3 alignment, runtime array and length()', (t) => {
  const src = `#version 460
layout(local_size_x = 4) in;
struct S { vec3 p; uint id; vec2 q; };   // std430: p@0 id@12 q@16, size 24 (align 16) -> stride 32
layout(std430, set = 0, binding = 0) buffer In { uint count; S items[]; } inp;   // items at 16
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  S s = inp.items[g];
  o.v[g * 4u] = s.id;
  o.v[g * 4u + 1u] = uint(s.p.y);
  o.v[g * 4u + 2u] = uint(s.q.y);
  o.v[g * 4u + 3u] = uint(inp.items.length());
}`;
  const inb = bytes(16 + 4 * 32);
  inb.u32[0] = 4;
  for (let i = 0; i < 4; i++) {
    const w = (16 + i * 32) / 4;
    inb.f32.set([i, 100 + i, 0], w);
    inb.u32[w + 3] = 7 + i;
    inb.f32.set([0, 200 + i], w + 4);
  }
  const out = words(16);
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: inb.u8 }, { set: 0, binding: 1, data: out }] }, { size: [1, 1, 1] });
  const v = u32s(out);
  for (let i = 0; i < 4; i++) t.deepEqual(v.slice(i * 4, i * 4 + 4), [7 + i, 100 + i, 200 + i, 4]);
});

both('scalar block layout: vec3 array with 12-byte stride, no padding', (t) => {
  const src = `#version 460
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
layout(scalar, set = 0, binding = 0) buffer In { float f; vec3 v[2]; uint tail; } inp;  // f@0 v@4 (stride 12) tail@28
layout(std430, set = 0, binding = 1) buffer Out { float o[]; } o;
void main() {
  o.o[0] = inp.v[1].x;
  o.o[1] = inp.v[0].z;
  o.o[2] = float(inp.tail);
}`;
  const inb = bytes(32);
  inb.f32.set([1, 2, 3, 4, 5, 6, 7]);
  inb.u32[7] = 9;
  const out = words(4);
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: inb.u8 }, { set: 0, binding: 1, data: out }] }, { size: [1, 1, 1] });
  t.deepEqual(f32s(out).slice(0, 3), [5, 4, 9]);
});

both('push constants and buffer_reference pointers into another buffer', (t) => {
  const src = `#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 4) in;
layout(buffer_reference, std430) buffer Values { uint x[]; };
layout(push_constant) uniform Push { uint64_t addr; uint scale; } pc;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  Values vals = Values(pc.addr);
  o.v[g] = vals.x[g] * pc.scale;
  vals.x[g] = 0u;
}`;
  const target = new Uint8Array(new Uint32Array([5, 6, 7, 8]).buffer);
  const push = bytes(16);
  push.u32[0] = 0x40000; // address of `target` (low word), high word 0
  push.u32[2] = 3;
  const out = words(4);
  runGlsl(src, {
    buffers: [{ set: 0, binding: 0, data: out }],
    memory: [{ address: 0x40000, data: target, label: 'values' }],
    pushConstants: { data: push.u8 },
  }, { size: [1, 1, 1] });
  t.deepEqual(u32s(out), [15, 18, 21, 24]);
  t.deepEqual(Array.from(new Uint32Array(target.buffer)), [0, 0, 0, 0]);
});
