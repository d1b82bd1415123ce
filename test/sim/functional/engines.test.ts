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
