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
  const { counters: c } = run(IF_ELSE, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [2, 1, 1] });
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
