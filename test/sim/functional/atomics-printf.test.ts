import test from 'ava';
import { runGlsl, words, u32s } from './run-ir.js';

test('atomics return the old value in lane order; min/max/exchange/compSwap', (t) => {
  const src = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint counter; int mn; uint mx; uint cas; uint slot[32]; } o;
void main() {
  uint l = gl_GlobalInvocationID.x;
  if (l % 2u == 1u) {
    uint old = atomicAdd(o.counter, 10u);
    o.slot[l] = old;
  }
  atomicMin(o.mn, int(l) - 5);
  atomicMax(o.mx, l * 3u);
  atomicCompSwap(o.cas, l, l + 100u);   // only the lane whose index equals the current value swaps
}`;
  const out = words(36);
  new Uint32Array(out.buffer)[3] = 0;
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1] });
  const v = u32s(out);
  t.is(v[0], 160);
  t.is(new Int32Array(out.buffer)[1], -5);
  t.is(v[2], 93);
  t.is(v[3], 100); // lane 0 saw 0 and swapped to 100; nobody else matched
  for (let l = 0; l < 32; l++) t.is(v[4 + l], l % 2 === 1 ? ((l - 1) / 2) * 10 : 0, `lane ${l}`);
});

test('debugPrintfEXT output is collected per lane with file:line', (t) => {
  const src = `#version 460
#extension GL_EXT_debug_printf : require
layout(local_size_x = 8) in;
void main() {
  uint l = gl_GlobalInvocationID.x;
  if (l >= 6u) debugPrintfEXT("lane %u: %5.2f %x %v2d|%%", l, float(l) / 4.0, l * 255u, ivec2(l, -1));
}`;
  const { counters } = runGlsl(src, {}, { size: [1, 1, 1] }, 'print.comp');
  t.deepEqual(counters.printf.map((p) => [p.file, p.line, p.lane, p.thread, p.text]), [
    ['print.comp', 6, 6, 6, 'lane 6:  1.50 5fa 6, -1|%'],
    ['print.comp', 6, 7, 7, 'lane 7:  1.75 6f9 7, -1|%'],
  ]);
});

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`clock counts the instructions the invocation executed before it (${engine})`, (t) => {
    const src = `#version 460
#extension GL_ARB_shader_clock : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint d[]; } o;
void main() {
  uint l = gl_GlobalInvocationID.x;
  uvec2 a = clock2x32ARB();
  uint x = 0u;
  for (uint i = 0u; i < l; i++) x += i;
  uvec2 b = clock2x32ARB();
  o.d[l] = b.x - a.x;
  o.d[32u + l] = a.x;
  o.d[64u + l] = x;
}`;
    const out = words(96);
    runGlsl(src, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine });
    const v = u32s(out);
    const perIteration = v[1]! - v[0]!;
    t.true(perIteration > 0);
    for (let l = 0; l < 32; l++) {
      t.is(v[l], v[0]! + l * perIteration, 'cost grows by one loop iteration per lane');
      t.is(v[32 + l], v[32]!, 'every invocation ran the same instructions before the first clock');
    }
  });
}

test('both engines give the same clock values', (t) => {
  const src = `#version 460
#extension GL_ARB_shader_clock : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint d[]; } o;
uint f(uint n) { uint s = 0u; for (uint i = 0u; i < n; i++) s += i * i; return s; }
void main() {
  uint l = gl_GlobalInvocationID.x;
  uint s = f(l % 5u);
  o.d[l] = uint(clockARB()) + s * 0u;
}`;
  const a = words(32);
  const b = words(32);
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: a }] }, { size: [1, 1, 1], engine: 'warp' });
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: b }] }, { size: [1, 1, 1], engine: 'laneSerial' });
  t.deepEqual(u32s(a), u32s(b));
  t.not(u32s(a)[0], u32s(a)[4]);
});
