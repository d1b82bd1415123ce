import test from 'ava';
import { readFileSync } from 'node:fs';
import { compileGlslProgram, entryOf, words } from './run-ir.js';
import { runFunctional } from '../../../src/sim/functional/launch.js';

// The lane-serial engine must reproduce the warp-synchronous engine's results and counters exactly.
const benchText = readFileSync(new URL('../../../bench/functional.ts', import.meta.url), 'utf8');
const SPHERES = benchText.slice(benchText.indexOf('`#version') + 1, benchText.indexOf('`;\n\nfunction sceneData'));

test('lane-serial and warp engines agree on the ray-sphere workload (results and every counter)', (t) => {
  const program = compileGlslProgram(SPHERES, 'spheres.comp');
  t.truthy(program.laneFns, 'the workload is lane-serial eligible');
  const W = 64;
  const H = 16;
  const spheres = new Float32Array(16 * 8);
  for (let i = 0; i < 16; i++) spheres.set([Math.sin(i * 2.1) * 2.5, Math.cos(i * 1.7) * 2, (i % 5) * 0.7, 0.4 + (i % 3) * 0.3, i / 16, 1 - i / 16, 0.5, 1], i * 8);
  const runWith = (engine: 'warp' | 'laneSerial') => {
    const image = words(W * H * 4);
    const c = runFunctional(program, {
      buffers: [
        { set: 0, binding: 0, data: new Uint8Array(spheres.buffer.slice(0)) },
        { set: 0, binding: 1, data: image },
      ],
      pushConstants: { data: new Uint8Array(Uint32Array.from([W, H, 16]).buffer) },
    }, { entry: entryOf(program), size: [W / 32, H, 1], engine });
    return { c, image };
  };
  const a = runWith('warp');
  const b = runWith('laneSerial');
  t.deepEqual(Array.from(b.image), Array.from(a.image));
  t.deepEqual(b.c, a.c);
  t.true(a.c.blockHistogram.some((h) => h.slice(1, 32).some((n) => n > 0)), 'the workload diverges');
});

test('programs with subgroup ops fall back to the warp engine; laneSerial on request is an error', (t) => {
  const src = `#version 460
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() { o.v[gl_GlobalInvocationID.x] = subgroupBallot(true).x; }`;
  const program = compileGlslProgram(src);
  t.is(program.laneFns, undefined);
  const out = words(32);
  runFunctional(program, { buffers: [{ set: 0, binding: 0, data: out }] }, { entry: entryOf(program), size: [1, 1, 1] });
  t.is(new Uint32Array(out.buffer)[5], 0xffffffff);
  t.throws(() => runFunctional(program, { buffers: [{ set: 0, binding: 0, data: out }] }, { entry: entryOf(program), size: [1, 1, 1], engine: 'laneSerial' }), {
    message: /lane-serial engine needs a program without subgroup ops/,
  });
});

test('long per-lane decision traces (buffer growth) replay to the same counters', (t) => {
  const src = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
uint work(uint n) { uint a = 0u; for (uint i = 0u; i < n; i++) { if ((i ^ n) % 3u == 0u) a += i; else a ^= i; } return a; }
void main() {
  uint g = gl_GlobalInvocationID.x;
  o.v[g] = work(3000u + g * 37u);
}`;
  const program = compileGlslProgram(src);
  const a = words(32);
  const b = words(32);
  const ca = runFunctional(program, { buffers: [{ set: 0, binding: 0, data: a }] }, { entry: entryOf(program), size: [1, 1, 1], engine: 'warp' });
  const cb = runFunctional(program, { buffers: [{ set: 0, binding: 0, data: b }] }, { entry: entryOf(program), size: [1, 1, 1], engine: 'laneSerial' });
  t.deepEqual(Array.from(b), Array.from(a));
  t.deepEqual(cb, ca);
  const ref = (n: number) => {
    let x = 0;
    for (let i = 0; i < n; i++) x = ((i ^ n) % 3 === 0 ? x + i : x ^ i) >>> 0;
    return x;
  };
  t.is(new Uint32Array(a.buffer)[31], ref(3000 + 31 * 37));
});
