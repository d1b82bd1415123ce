import test from 'ava';
import { compileGlslProgram, entryOf, run, words, u32s, f32s } from './run-ir.js';
import { runFunctional, createWarps, countersOf } from '../../../src/sim/functional/launch.js';
import type { RtRuntime } from '../../../src/sim/functional/rt-runtime.js';
import type { WarpStep } from '../../../src/sim/warp-step.js';
import { OpClass } from '../../../src/sim/warp-step.js';
import { simtEfficiency } from '../../../src/sim/functional/counters.js';
import { nvidiaTile } from '../../../src/sim/functional/warp-mapping.js';

const RAYGEN = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_KHR_shader_subgroup_basic : require
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uvec3 id = gl_LaunchIDEXT;
  uvec3 size = gl_LaunchSizeEXT;
  o.v[id.y * size.x + id.x] = gl_SubgroupInvocationID + 1000u * size.x + 100000u * size.y;
}`;

for (const mapping of ['rows', 'tiles4x8'] as const) {
  test(`raygen launch mapping '${mapping}' with partial warps masked off`, (t) => {
    const program = compileGlslProgram(RAYGEN, 'map.rgen');
    const [w, h] = [37, 10];
    const out = words(w * h);
    const steps: WarpStep[] = [];
    const c = runFunctional(program, { buffers: [{ set: 0, binding: 0, data: out }] }, {
      entry: entryOf(program), size: [w, h, 1], mapping, onStep: { onStep: (s) => void steps.push(s) },
    });
    const v = u32s(out);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const lane = mapping === 'rows' ? x % 32 : (y % 8) * 4 + (x % 4);
        t.is(v[y * w + x], lane + 1000 * w + 100000 * h);
      }
    }
    t.is(c.threads, w * h);
    if (mapping === 'rows') {
      t.is(c.warps, 2 * h); // 37 = 32 + 5
      t.is(steps.find((s) => s.warp === 1)!.activeMask, 0b11111);
    } else {
      t.is(c.warps, 10 * 2); // ceil(37/4) x ceil(10/8)
      // the last tile column has x = 36 only: lanes 0, 4, 8, ...; the bottom tile row has y = 8, 9: lanes 0..7
      t.is(steps.find((s) => s.warp === 9)!.activeMask, 0x11111111);
      t.is(steps.find((s) => s.warp === 10)!.activeMask, 0xff);
    }
  });
}

// NVIDIA's tiles by launch height as the H100 ran them (docs/device.md): 16x2 up to height 2, 8x4 up to 4, then 4x8, 8x4 for heights 4 mod 8.
for (const [h, tw, th] of [[1, 16, 2], [2, 16, 2], [3, 8, 4], [4, 8, 4], [6, 4, 8], [8, 4, 8], [12, 8, 4], [16, 4, 8], [10, 4, 8]] as const) {
  test(`raygen launch mapping 'nvidia' at height ${h}: ${tw}x${th} tiles, edge warps partly empty`, (t) => {
    t.deepEqual(nvidiaTile(h), [tw, th]);
    const program = compileGlslProgram(RAYGEN, 'map.rgen');
    const w = 37;
    const out = words(w * h);
    const c = runFunctional(program, { buffers: [{ set: 0, binding: 0, data: out }] }, { entry: entryOf(program), size: [w, h, 1], mapping: 'nvidia' });
    const v = u32s(out);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) t.is(v[y * w + x], (y % th) * tw + (x % tw) + 1000 * w + 100000 * h);
    t.is(c.warps, Math.ceil(w / tw) * Math.ceil(h / th));
  });
}

// rtCall traverse + hit attributes + an RT built-in, through a fake runtime.
const RT_IR = `
source 0 "rt.rgen" ""
type !0 = f32
type !1 = u32
type !2 = array<f32, stride=4>
type !3 = struct "Out" uid=1 block layout=std430 {
  "v": array<f32, stride=4> offset=0
}
type !4 = vec2<f32>
type !5 = struct "Attr" uid=2 {
  "bary": vec2<f32>
}
const %1: u32 = 0
const %2: u32 = 1
const %3: f32 = 0.5
const %4: u32 = 2
const %5: u32 = 3
global %10 "id": ptr<input, vec3<u32>> input builtin=LaunchId
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
global %12 "attr": ptr<hitAttribute, $Attr> hitAttribute
global %13 "hitT": ptr<input, f32> input builtin=HitT
entry raygen %20 "main"
fn %20 @main() -> void {   ; 1:1
^b21 "entry":
  %30: vec3<u32> = load %10   ; 2:3
  %31: u32 = extract %30 [0]   ; 2:3
  %32: vec3<f32> = construct (%3, %3, %3)   ; 3:3
  %33: u32 = rtCall traverse (%2, %1, %2, %1, %1, %1, %32, %3, %32, %3)   ; 4:3
  %34: ptr<hitAttribute, vec2<f32>> = accessChain %12 (%1)   ; 5:3
  %35: vec2<f32> = load %34   ; 5:3
  %36: f32 = extract %35 [1]   ; 5:3
  %37: f32 = load %13   ; 6:3
  %38: f32 = convert %33   ; 6:3
  %39: f32 = binary add %36 %37   ; 6:3
  %40: f32 = binary add %39 %38   ; 6:3
  %41: ptr<storageBuffer, f32> = accessChain %11 (%1, %31)   ; 7:3
  %42 = store %41 %40   ; 7:3
  %43 = return   ; 8:1
}
`;

test('rtCall goes to the RT runtime per lane with flattened args, hit attributes and RT built-ins', (t) => {
  const calls: { fn: string; thread: number; args: readonly number[] }[] = [];
  const rt: RtRuntime = {
    call(fn, thread, args, lane) {
      calls.push({ fn, thread, args: [...args] });
      new Float32Array(lane.hitAttributes.buffer, lane.hitAttributes.byteOffset, 8)[1] = thread * 0.25;
      return thread % 3;
    },
    builtin(name, thread) {
      t.is(name, 'HitT');
      return [thread * 10];
    },
    takeLaneWork: (thread) => ({ lane: thread % 32, transactions: [{ address: 4096 + thread, size: 64, kind: 'internal' }], boxTests: 1, triangleTests: 0, transforms: 0 }),
  };
  const out = words(40);
  for (const engine of ['warp', 'laneSerial'] as const) {
    calls.length = 0;
    run(RT_IR, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [40, 1, 1], rt, engine });
    t.is(calls.length, 40);
    t.deepEqual(calls[3], { fn: 'traverse', thread: 3, args: [1, 0, 1, 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5] });
    t.deepEqual(f32s(out), Array.from({ length: 40 }, (_, i) => i * 0.25 + i * 10 + (i % 3)));
  }
  // the warp engine reports the traversal work in the step that ended with the traverse
  const program = compileGlslProgramFromIr();
  const warps = createWarps(program, { buffers: [{ set: 0, binding: 0, data: out }] }, { entry: entryOf(program), size: [40, 1, 1], rt });
  const s0 = warps[0]!.step();
  t.is(s0.rt?.length, 32);
  t.is(s0.opClasses[s0.insts - 1], OpClass.Rt);
  t.is(s0.rt![5]!.transactions[0]!.address, 4096 + 5);
});

import { parseModuleText } from '../../../src/ir/text-parser.js';
import { compileProgram } from '../../../src/sim/functional/program.js';
function compileGlslProgramFromIr() {
  return compileProgram(parseModuleText(RT_IR));
}

test('createWarps + step(): a scheduler interleaving warps gets the same results and counters', (t) => {
  const src = `#version 460
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { float v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  float acc = 0.0;
  for (uint i = 0u; i < g % 5u; i++) acc += float(i) * 0.5;
  if (g % 2u == 0u) acc = -acc;
  o.v[g] = acc;
}`;
  const program = compileGlslProgram(src);
  const a = words(128);
  const ref = runFunctional(program, { buffers: [{ set: 0, binding: 0, data: a }] }, { entry: entryOf(program), size: [2, 1, 1], engine: 'warp' });
  const b = words(128);
  const warps = createWarps(program, { buffers: [{ set: 0, binding: 0, data: b }] }, { entry: entryOf(program), size: [2, 1, 1] });
  t.is(warps.length, 4);
  const steps: WarpStep[] = [];
  // round robin, newest warp first: a different order than runFunctional's
  for (let live = warps.length; live > 0; ) {
    live = 0;
    for (let i = warps.length - 1; i >= 0; i--) {
      const w = warps[i]!;
      if (w.done) continue;
      const s = w.step();
      steps.push(s);
      if (!s.done) live++;
    }
  }
  t.deepEqual(u32s(b), u32s(a));
  const c = countersOf(warps, program)!;
  t.is(c.warpInsts, ref.warpInsts);
  t.is(c.threadInsts, ref.threadInsts);
  t.deepEqual(c.blockHistogram, ref.blockHistogram);
  t.is(steps.reduce((n, s) => n + s.insts, 0), ref.warpInsts);
  for (const s of steps) {
    t.is(s.opClasses.length, s.insts);
    for (const m of s.memory) {
      t.true(m.instIndex < s.insts);
      t.is(m.laneMask, s.activeMask);
    }
  }
  const store = steps.flatMap((s) => s.memory).filter((m) => m.kind === 'store' && m.space === 'global');
  t.is(store.length, 4);
  t.is(store[0]!.addresses[1]! - store[0]!.addresses[0]!, 4, 'consecutive lanes store consecutive words');
  t.true(simtEfficiency(c) < 1 && simtEfficiency(c) > 0.5);
});
