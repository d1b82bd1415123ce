import test from 'ava';
import { runGlsl, compileGlslProgram, entryOf, words, u32s } from './run-ir.js';
import { createWarps, countersOf, runFunctional } from '../../../src/sim/functional/launch.js';
import type { WarpStep } from '../../../src/sim/warp-step.js';

// Lanes l % 3 == 0 take the then-branch (11 lanes), the rest the else (21); then a ballot after the join.
const IF_ELSE = `#version 460
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint l = gl_SubgroupInvocationID;
  uint r;
  if (l % 3u == 0u) { r = l * 2u + subgroupBallot(true).x; } else { r = l + 100u; }
  o.v[l * 2u] = r;
  o.v[l * 2u + 1u] = subgroupBallot(true).x;
}`;

// An if without else: the lanes skipping it wait at the join, where the others catch up.
const IF_ONLY = `#version 460
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint l = gl_SubgroupInvocationID;
  uint r = l;
  if (l < 5u) { r = r * 7u; }
  o.v[l * 2u] = r;
  o.v[l * 2u + 1u] = subgroupBallot(true).x;
}`;

// Divergence inside a called function, early returns in it and in main, a loop with per-lane trips.
const CALLS = `#version 460
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
uint f(uint x) {
  if (x % 4u == 1u) return x * 3u;
  uint s = 0u;
  for (uint i = 0u; i < x % 5u; i++) s += i + x;
  return s;
}
void main() {
  uint g = gl_GlobalInvocationID.x;
  if (g % 7u == 3u) { o.v[g] = 999u; return; }
  uint a = f(g);
  if (a > 40u) a = f(a % 13u) + 1u;
  o.v[g] = a;
}`;

const maskOf = (pred: (l: number) => boolean) => {
  let m = 0;
  for (let l = 0; l < 32; l++) if (pred(l)) m |= 1 << l;
  return m >>> 0;
};

const runBoth = (src: string, n: number, size: [number, number, number]) => {
  const a = words(n);
  const b = words(n);
  const ipdom = runGlsl(src, { buffers: [{ set: 0, binding: 0, data: a }] }, { size, engine: 'warp' }).counters;
  const its = runGlsl(src, { buffers: [{ set: 0, binding: 0, data: b }] }, { size, reconvergence: 'its' }).counters;
  return { ipdom, its, a: u32s(a), b: u32s(b) };
};

test('ITS: the lagging split runs first, so if/else splits meet at the join (no RT work to wait for)', (t) => {
  const { ipdom, its, a, b } = runBoth(IF_ELSE, 64, [1, 1, 1]);
  t.deepEqual(b, a);
  for (let l = 0; l < 32; l++) t.is(b[l * 2 + 1], 0xffffffff, 'merged at the join');
  t.deepEqual(its.blockHistogram, ipdom.blockHistogram);
  t.is(its.warpInsts, ipdom.warpInsts);
});

test('ITS: a split waiting at the join merges with the one that catches up', (t) => {
  const { ipdom, its, a, b } = runBoth(IF_ONLY, 64, [1, 1, 1]);
  t.deepEqual(b, a);
  for (let l = 0; l < 32; l++) t.is(b[l * 2 + 1], 0xffffffff, 'merged before the ballot');
  t.deepEqual(its.blockExecutions, ipdom.blockExecutions);
  t.is(its.warpInsts, ipdom.warpInsts);
  t.is(its.threadInsts, ipdom.threadInsts);
});

test('ITS: divergent calls, loops and early returns give the SIMT stack results', (t) => {
  const { ipdom, its, a, b } = runBoth(CALLS, 96, [3, 1, 1]);
  t.deepEqual(b, a);
  t.is(its.threadInsts, ipdom.threadInsts);
  t.is(its.threads, ipdom.threads);
  t.is(its.warps, ipdom.warps);
  t.true(its.warpInsts >= ipdom.warpInsts);
});

test('ITS: nothing changes on a workload without divergence', (t) => {
  const uniform = IF_ELSE.replace('l % 3u == 0u', 'l < 64u');
  const { ipdom, its, a, b } = runBoth(uniform, 64, [2, 1, 1]);
  t.deepEqual(b, a);
  t.deepEqual(its, ipdom);
});

test('ITS (merge policy, the earlier model): runnableSplits lists every split and step(split) runs the one asked for', (t) => {
  const program = compileGlslProgram(IF_ELSE);
  const out = words(64);
  const [w] = createWarps(program, { buffers: [{ set: 0, binding: 0, data: out }] }, { entry: entryOf(program), size: [1, 1, 1], reconvergence: 'its', itsPolicy: 'merge' });
  const steps: WarpStep[] = [];
  steps.push(w!.step());
  t.is(steps[0]!.split, 0);
  const splits = w!.runnableSplits();
  t.deepEqual(splits.map((s) => s.id), [0, 1]);
  t.deepEqual(splits.map((s) => s.mask), [maskOf((l) => l % 3 === 0), maskOf((l) => l % 3 !== 0)]);
  // A scheduler running the else split to completion first: it passes the join alone.
  while (w!.runnableSplits().some((s) => s.id === 1)) steps.push(w!.step(1));
  t.true(steps.slice(1).every((s) => s.split === 1 && s.activeMask === maskOf((l) => l % 3 !== 0)));
  t.false(w!.done);
  while (!w!.done) steps.push(w!.step());
  t.true(steps[steps.length - 1]!.done);
  const v = u32s(out);
  const thenMask = maskOf((l) => l % 3 === 0);
  for (let l = 0; l < 32; l++) {
    t.is(v[l * 2], l % 3 === 0 ? l * 2 + thenMask : l + 100);
    t.is(v[l * 2 + 1], l % 3 === 0 ? thenMask : ~thenMask >>> 0, `lane ${l}: the ballot after the join sees only its split`);
  }
  t.deepEqual(w!.runnableSplits(), []);
  const after = w!.step();
  t.true(after.done);
  t.is(after.insts, 0);
});

test('ITS: never uses the lane-serial engine; deterministic counters', (t) => {
  const program = compileGlslProgram(CALLS);
  const go = () => runFunctional(program, { buffers: [{ set: 0, binding: 0, data: words(96) }] }, { entry: entryOf(program), size: [3, 1, 1], reconvergence: 'its' });
  t.deepEqual(go(), go());
  t.throws(() => runFunctional(program, { buffers: [{ set: 0, binding: 0, data: words(96) }] }, { entry: entryOf(program), size: [3, 1, 1], reconvergence: 'its', engine: 'laneSerial' }), { message: /lane-serial/ });
  const warps = createWarps(program, { buffers: [{ set: 0, binding: 0, data: words(96) }] }, { entry: entryOf(program), size: [3, 1, 1], reconvergence: 'its' });
  for (const w of warps) while (!w.done) w.step();
  t.deepEqual(countersOf(warps, program), go());
});

test('ITS (merge policy): waitsAtJoin tells a split at the other split\'s reconvergence point', (t) => {
  const program = compileGlslProgram(IF_ELSE);
  const [w] = createWarps(program, { buffers: [{ set: 0, binding: 0, data: words(64) }] }, { entry: entryOf(program), size: [1, 1, 1], reconvergence: 'its', itsPolicy: 'merge' });
  w!.step();
  t.false(w!.waitsAtJoin(0, 1), 'then and else: neither post-dominates the other');
  t.false(w!.waitsAtJoin(1, 0));
  const elseStart = w!.runnableSplits().find((s) => s.id === 1)!.pc;
  while (w!.runnableSplits().find((s) => s.id === 1)!.pc === elseStart) w!.step(1);
  t.true(w!.waitsAtJoin(1, 0), 'the else split reached the join');
  t.false(w!.waitsAtJoin(0, 1));
  t.false(w!.waitsAtJoin(1, 7), 'no such split');
});

test('ITS (convergence barriers, the default): ALU-only divergence waits at the join and reconverges there', (t) => {
  const program = compileGlslProgram(IF_ELSE);
  const out = words(64);
  const [w] = createWarps(program, { buffers: [{ set: 0, binding: 0, data: out }] }, { entry: entryOf(program), size: [1, 1, 1], reconvergence: 'its' });
  w!.step();
  t.deepEqual(w!.runnableSplits().map((s) => s.id), [0, 1]);
  // Run the else split as far as it can go: it stops at the join (the barrier), not past it.
  while (w!.runnableSplits().some((s) => s.id === 1)) w!.step(1);
  t.deepEqual(w!.runnableSplits().map((s) => s.id), [0], 'the else split waits at the barrier');
  while (!w!.done) w!.step();
  const v = u32s(out);
  for (let l = 0; l < 32; l++) t.is(v[l * 2 + 1], 0xffffffff, `lane ${l}: the ballot after the join sees the whole warp again`);
});
