import test from 'ava';
import { run, words, u32s, blockExec, blockHist } from './run-ir.js';
import { simtEfficiency } from '../../../src/sim/functional/counters.js';

// out[gid] = gid < 12 ? gid * 2 + 1 : gid + 100   (if/else with 12/20 lanes in the first warp)
const IF_ELSE = `
source 0 "div.comp" ""
type !0 = u32
type !1 = array<u32, stride=4>
type !2 = struct "Out" uid=1 block layout=std430 {
  "v": array<u32, stride=4> offset=0
}
const %1: u32 = 0
const %2: u32 = 12
const %3: u32 = 2
const %4: u32 = 1
const %5: u32 = 100
global %10 "gid": ptr<input, vec3<u32>> input builtin=GlobalInvocationId
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
entry compute %20 "main" localSize=(32, 1, 1)
fn %20 @main() -> void {   ; 1:1
^b21 "entry" selectionMerge ^b24:
  %30: vec3<u32> = load %10   ; 2:3
  %31: u32 = extract %30 [0]   ; 2:3
  %32: bool = compare lt %31 %2   ; 3:3
  %33 = condBranch %32 ^b22 ^b23   ; 3:3
^b22 "then":
  %34: u32 = binary mul %31 %3   ; 4:5
  %35: u32 = binary add %34 %4   ; 4:5
  %36 = branch ^b24   ; 4:5
^b23 "else":
  %37: u32 = binary add %31 %5   ; 6:5
  %38 = branch ^b24   ; 6:5
^b24 "end":
  %39: u32 = phi {^b22: %35, ^b23: %37}   ; 8:3
  %40: ptr<storageBuffer, u32> = accessChain %11 (%1, %31)   ; 8:3
  %41 = store %40 %39   ; 8:3
  %42 = return   ; 9:1
}
`;

test('if/else with 12/20 lanes: results, block counts and masks', (t) => {
  const out = words(64);
  const { counters: c } = run(IF_ELSE, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [2, 1, 1], engine: 'warp' });
  const expected = Array.from({ length: 64 }, (_, i) => (i < 12 ? i * 2 + 1 : i + 100));
  t.deepEqual(u32s(out), expected);
  // warp 0 diverges 12/20, warp 1 (gid 32..63) takes else with 32 lanes
  t.is(blockExec(c, 'main/entry'), 2);
  t.deepEqual(blockHist(c, 'main/then'), { 12: 1 });
  t.deepEqual(blockHist(c, 'main/else'), { 20: 1, 32: 1 });
  t.deepEqual(blockHist(c, 'main/end'), { 32: 2 });
  // entry: 4 insts, then 3, else 2, end 3 (phi not counted)
  t.is(c.warpInsts, 2 * 4 + 3 + 2 * 2 + 2 * 3);
  t.is(c.threadInsts, 2 * 32 * 4 + 12 * 3 + (20 + 32) * 2 + 2 * 32 * 3);
  t.is(c.memory.global.warpAccesses, 2);
  t.is(c.memory.global.laneAccesses, 64);
  t.true(Math.abs(simtEfficiency(c) - c.threadInsts / (32 * c.warpInsts)) < 1e-12);
});

// Nested loops with per-lane trip counts: outer i < gid % 3, inner j < gid % 2 + i.
// out[gid] = number of inner iterations.
const NESTED = `
source 0 "nested.comp" ""
type !0 = u32
type !1 = array<u32, stride=4>
type !2 = struct "Out" uid=1 block layout=std430 {
  "v": array<u32, stride=4> offset=0
}
const %1: u32 = 0
const %2: u32 = 1
const %3: u32 = 2
const %4: u32 = 3
global %10 "gid": ptr<input, vec3<u32>> input builtin=GlobalInvocationId
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
entry compute %20 "main" localSize=(32, 1, 1)
fn %20 @main() -> void {   ; 1:1
^b21 "entry":
  %30: vec3<u32> = load %10   ; 2:3
  %31: u32 = extract %30 [0]   ; 2:3
  %32: u32 = binary rem %31 %4   ; 2:3
  %33: u32 = binary rem %31 %3   ; 2:3
  %34 = branch ^b22   ; 2:3
^b22 "outer.header" loopMerge ^b27 ^b26:
  %40: u32 = phi {^b21: %1, ^b26: %50}   ; 3:3
  %41: u32 = phi {^b21: %1, ^b26: %49}   ; 3:3
  %42: bool = compare lt %40 %32   ; 3:3
  %43 = condBranch %42 ^b23 ^b27   ; 3:3
^b23 "outer.body":
  %44: u32 = binary add %33 %40   ; 4:5
  %45 = branch ^b24   ; 4:5
^b24 "inner.header" loopMerge ^b26 ^b25:
  %46: u32 = phi {^b23: %1, ^b25: %51}   ; 5:5
  %47: u32 = phi {^b23: %41, ^b25: %52}   ; 5:5
  %48: bool = compare lt %46 %44   ; 5:5
  %53 = condBranch %48 ^b25 ^b26   ; 5:5
^b25 "inner.body":
  %51: u32 = binary add %46 %2   ; 6:7
  %52: u32 = binary add %47 %2   ; 6:7
  %54 = branch ^b24   ; 6:7
^b26 "outer.latch":
  %49: u32 = copyObject %47   ; 7:5
  %50: u32 = binary add %40 %2   ; 7:5
  %55 = branch ^b22   ; 7:5
^b27 "exit":
  %60: ptr<storageBuffer, u32> = accessChain %11 (%1, %31)   ; 8:3
  %61 = store %60 %41   ; 8:3
  %62 = return   ; 9:1
}
`;

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`nested loops with per-lane trip counts (${engine} engine)`, (t) => {
    const out = words(32);
    const { counters: c } = run(NESTED, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine });
    const expected = Array.from({ length: 32 }, (_, g) => {
      let n = 0;
      for (let i = 0; i < g % 3; i++) n += (g % 2) + i;
      return n;
    });
    t.deepEqual(u32s(out), expected);
    // Outer header: 32 lanes, then the 21 with gid%3 != 0, then the 10 with gid%3 == 2.
    t.deepEqual(blockHist(c, 'main/outer.header'), { 32: 1, 21: 1, 10: 1 });
    t.deepEqual(blockHist(c, 'main/outer.body'), { 21: 1, 10: 1 });
    // i=0: 21 lanes test j<gid%2 (11 odd ones continue once); i=1: the 10 lanes run 1 or 2 iterations.
    t.deepEqual(blockHist(c, 'main/inner.header'), { 21: 1, 11: 1, 10: 2, 5: 1 });
    t.deepEqual(blockHist(c, 'main/inner.body'), { 11: 1, 10: 1, 5: 1 });
    t.deepEqual(blockHist(c, 'main/outer.latch'), { 21: 1, 10: 1 });
    t.deepEqual(blockHist(c, 'main/exit'), { 32: 1 });
  });
}

// switch (gid % 4) { case 0: a += 1 (falls through) case 1: a += 10; break; default: a += 100; }
const SWITCH = `
source 0 "switch.comp" ""
type !0 = u32
type !1 = array<u32, stride=4>
type !2 = struct "Out" uid=1 block layout=std430 {
  "v": array<u32, stride=4> offset=0
}
const %1: u32 = 0
const %2: u32 = 1
const %3: u32 = 4
const %4: u32 = 10
const %5: u32 = 100
global %10 "gid": ptr<input, vec3<u32>> input builtin=GlobalInvocationId
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
entry compute %20 "main" localSize=(32, 1, 1)
fn %20 @main() -> void {   ; 1:1
^b21 "entry" selectionMerge ^b25:
  %30: vec3<u32> = load %10   ; 2:3
  %31: u32 = extract %30 [0]   ; 2:3
  %32: u32 = binary rem %31 %3   ; 3:3
  %33 = switch %32 ^b24 [0: ^b22, 1: ^b23]   ; 3:3
^b22 "case0":
  %34 = branch ^b23   ; 4:5
^b23 "case1":
  %35: u32 = phi {^b21: %1, ^b22: %2}   ; 5:5
  %36: u32 = binary add %35 %4   ; 5:5
  %37 = branch ^b25   ; 5:5
^b24 "default":
  %38 = branch ^b25   ; 6:5
^b25 "end":
  %39: u32 = phi {^b23: %36, ^b24: %5}   ; 7:3
  %40: ptr<storageBuffer, u32> = accessChain %11 (%1, %31)   ; 7:3
  %41 = store %40 %39   ; 7:3
  %42 = return   ; 8:1
}
`;

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`switch fall-through: the fall-through block runs once per path (${engine} engine)`, (t) => {
    const out = words(32);
    const { counters: c } = run(SWITCH, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine });
    t.deepEqual(u32s(out), Array.from({ length: 32 }, (_, g) => (g % 4 === 0 ? 11 : g % 4 === 1 ? 10 : 100)));
    // Stack reconvergence at the switch's ipdom: default (16 lanes) runs first, then case0 (8),
    // which falls into case1 with its 8 lanes; the pending case1 entry (8 lanes) runs separately.
    t.deepEqual(blockHist(c, 'main/default'), { 16: 1 });
    t.deepEqual(blockHist(c, 'main/case0'), { 8: 1 });
    t.deepEqual(blockHist(c, 'main/case1'), { 8: 2 });
    t.deepEqual(blockHist(c, 'main/end'), { 32: 1 });
  });
}

// Early return from main: gid < 10 writes 1 and returns; the others write 2 after a loop.
const EARLY_RETURN = `
source 0 "ret.comp" ""
type !0 = u32
type !1 = array<u32, stride=4>
type !2 = struct "Out" uid=1 block layout=std430 {
  "v": array<u32, stride=4> offset=0
}
const %1: u32 = 0
const %2: u32 = 1
const %3: u32 = 2
const %4: u32 = 10
global %10 "gid": ptr<input, vec3<u32>> input builtin=GlobalInvocationId
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
entry compute %20 "main" localSize=(32, 1, 1)
fn %20 @main() -> void {   ; 1:1
^b21 "entry":
  %30: vec3<u32> = load %10   ; 2:3
  %31: u32 = extract %30 [0]   ; 2:3
  %32: ptr<storageBuffer, u32> = accessChain %11 (%1, %31)   ; 2:3
  %33: bool = compare lt %31 %4   ; 3:3
  %34 = condBranch %33 ^b22 ^b23   ; 3:3
^b22 "early":
  %35 = store %32 %2   ; 4:5
  %36 = return   ; 4:5
^b23 "late":
  %37 = store %32 %3   ; 6:3
  %38 = return   ; 7:1
}
`;

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`early return from main waits at the function exit (${engine} engine)`, (t) => {
    const out = words(32);
    const { counters: c } = run(EARLY_RETURN, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1], engine });
    t.deepEqual(u32s(out), Array.from({ length: 32 }, (_, g) => (g < 10 ? 1 : 2)));
    t.deepEqual(blockHist(c, 'main/early'), { 10: 1 });
    t.deepEqual(blockHist(c, 'main/late'), { 22: 1 });
    t.is(c.warpInsts, 5 + 2 + 2);
    t.is(c.threadInsts, 32 * 5 + 10 * 2 + 22 * 2);
  });
}
