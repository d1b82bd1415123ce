import test from 'ava';
import { run, runGlsl, words, u32s, blockHist } from './run-ir.js';
import { SimError } from '../../../src/sim/functional/errors.js';

// out[gid] = fact(gid % 6): recursion with a per-lane depth.
const RECURSION = `
source 0 "fact.comp" ""
type !0 = u32
type !1 = array<u32, stride=4>
type !2 = struct "Out" uid=1 block layout=std430 {
  "v": array<u32, stride=4> offset=0
}
const %1: u32 = 0
const %2: u32 = 1
const %3: u32 = 6
global %10 "gid": ptr<input, vec3<u32>> input builtin=GlobalInvocationId
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
entry compute %20 "main" localSize=(32, 1, 1)
fn %40 @fact(%41: u32 "n") -> u32 {   ; 10:1
^b42 "entry":
  %43: bool = compare le %41 %2   ; 11:3
  %44 = condBranch %43 ^b45 ^b46   ; 11:3
^b45 "base":
  %47 = return %2   ; 11:20
^b46 "rec":
  %48: u32 = binary sub %41 %2   ; 12:3
  %49: u32 = call %40 @fact (%48)   ; 12:14
  %50: u32 = binary mul %41 %49   ; 12:10
  %51 = return %50   ; 12:3
}
fn %20 @main() -> void {   ; 1:1
^b21 "entry":
  %30: vec3<u32> = load %10   ; 2:3
  %31: u32 = extract %30 [0]   ; 2:3
  %32: u32 = binary rem %31 %3   ; 3:3
  %33: u32 = call %40 @fact (%32)   ; 3:3
  %34: ptr<storageBuffer, u32> = accessChain %11 (%1, %31)   ; 4:3
  %35 = store %34 %33   ; 4:3
  %36 = return   ; 5:1
}
`;

const FACT = [1, 1, 2, 6, 24, 120];

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`recursion with per-lane depth; callers resume when all their lanes returned (${engine})`, (t) => {
    const out = words(32);
    const { counters: c } = run(RECURSION, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine });
    t.deepEqual(u32s(out), Array.from({ length: 32 }, (_, g) => FACT[g % 6]));
    // residues 0 and 1 of gid % 6 have 6 lanes each, 2..5 have 5: depth d is entered by the
    // lanes with n >= d - 1: 32, then n >= 2 (20 lanes), n >= 3 (15), n >= 4 (10), n = 5 (5)
    t.deepEqual(blockHist(c, 'fact/entry'), { 32: 1, 20: 1, 15: 1, 10: 1, 5: 1 });
    // the first level ends for n <= 1 (12 lanes), every deeper one for 5 lanes
    t.deepEqual(blockHist(c, 'fact/base'), { 12: 1, 5: 4 });
    t.deepEqual(blockHist(c, 'fact/rec'), { 20: 1, 15: 1, 10: 1, 5: 1 });
    const fact = c.functions.find((f) => f.name === 'fact')!;
    t.true(fact.warpInsts > 0);
    t.is(c.functions.reduce((a, f) => a + f.warpInsts, 0), c.warpInsts);
  });

  test(`maxRecursionDepth raises a located error (${engine})`, (t) => {
    const out = words(32);
    const err = t.throws(() => run(RECURSION, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine, maxRecursionDepth: 4 }), {
      instanceOf: SimError,
    });
    t.is(err!.kind, 'recursion');
    t.regex(err!.message, /maxRecursionDepth 4 calling @fact at fact\.comp:12:14 lane \d+ \(thread \d+\)/);
  });
}

for (const engine of ['warp', 'laneSerial'] as const) test(`function calls with out parameters and early returns inside loops (${engine})`, (t) => {
  const src = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { int v[]; } o;
int firstMultiple(int start, int k, out int steps) {
  steps = 0;
  for (int i = start; i < start + 100; i++) {
    steps++;
    if (i % k == 0) return i;
  }
  return -1;
}
void main() {
  int g = int(gl_GlobalInvocationID.x);
  int steps;
  int m = firstMultiple(g + 1, 7, steps);
  o.v[g] = m * 1000 + steps;
}`;
  const out = words(32);
  runGlsl(src, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine });
  const expected = Array.from({ length: 32 }, (_, g) => {
    const m = Math.ceil((g + 1) / 7) * 7;
    return m * 1000 + (m - g);
  });
  t.deepEqual(Array.from(new Int32Array(out.buffer)), expected);
});
