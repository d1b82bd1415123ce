import test from 'ava';
import { runGlsl, words, u32s, compileGlslProgram } from './run-ir.js';

test('workgroup (shared) memory is shared by the lanes of a workgroup, separate per workgroup', (t) => {
  const src = `#version 460
layout(local_size_x = 32) in;
shared uint tile[32];
shared uint total;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint l = gl_LocalInvocationID.x;
  uint g = gl_GlobalInvocationID.x;
  if (l == 0u) total = 0u;
  tile[l] = g * 2u;
  barrier();
  uint neighbour = tile[(l + 1u) % 32u];
  atomicAdd(total, 1u);
  barrier();
  o.v[g] = neighbour * 1000u + total;
}`;
  const program = compileGlslProgram(src);
  t.is(program.laneFns, undefined, 'shared memory needs the warp engine');
  const out = words(64);
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [2, 1, 1] });
  t.deepEqual(u32s(out), Array.from({ length: 64 }, (_, g) => {
    const wg = Math.floor(g / 32);
    const l = g % 32;
    return (wg * 32 + ((l + 1) % 32)) * 2 * 1000 + 32;
  }));
});
