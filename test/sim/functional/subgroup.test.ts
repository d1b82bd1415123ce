import test from 'ava';
import { runGlsl, words, u32s } from './run-ir.js';

// Lanes with gid % 3 == 0 (0, 3, ..., 30: 11 lanes) take the then-branch; the others (21) the else.
const SHADER = `#version 460
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint l = gl_SubgroupInvocationID;
  uint base = l * 16u;
  if (l % 3u == 0u) {
    o.v[base + 0u] = uint(subgroupElect());
    uvec4 b = subgroupBallot(true);
    o.v[base + 1u] = b.x;
    o.v[base + 2u] = subgroupBroadcastFirst(l * 10u);
    o.v[base + 3u] = subgroupBallotBitCount(b);
    o.v[base + 4u] = subgroupAdd(l);
    o.v[base + 5u] = subgroupInclusiveAdd(l);
    o.v[base + 6u] = subgroupExclusiveAdd(l);
    o.v[base + 7u] = uint(subgroupAll(l < 31u)) + 2u * uint(subgroupAny(l == 30u)) + 4u * uint(subgroupAllEqual(l / 64u));
    o.v[base + 8u] = subgroupMax(l) * 100u + subgroupMin(l + 1u);
    o.v[base + 9u] = subgroupBallotInclusiveBitCount(b) * 100u + subgroupBallotExclusiveBitCount(b);
    o.v[base + 10u] = subgroupBallotFindLSB(b) * 100u + subgroupBallotFindMSB(b);
    o.v[base + 11u] = subgroupBroadcast(l, 3u);
  } else {
    o.v[base + 0u] = uint(subgroupElect());
    o.v[base + 1u] = subgroupBallot(true).x;
    o.v[base + 2u] = subgroupBroadcastFirst(l * 10u);
    o.v[base + 4u] = subgroupAdd(1u);
  }
  o.v[base + 12u] = subgroupBallot(true).x;
  o.v[base + 13u] = subgroupShuffleXor(l, 1u);
  o.v[base + 14u] = gl_SubgroupEqMask.x;
  o.v[base + 15u] = gl_SubgroupLtMask.x;
}`;

test('subgroup ops see the real active mask under divergence', (t) => {
  const out = words(32 * 16);
  const { counters: c } = runGlsl(SHADER, { buffers: [{ set: 0, binding: 0, data: out }] }, { size: [1, 1, 1] });
  const v = u32s(out);
  const at = (l: number, k: number) => v[l * 16 + k];
  const thenLanes = Array.from({ length: 32 }, (_, l) => l).filter((l) => l % 3 === 0);
  const elseLanes = Array.from({ length: 32 }, (_, l) => l).filter((l) => l % 3 !== 0);
  let thenMask = 0;
  for (const l of thenLanes) thenMask |= 1 << l;
  thenMask >>>= 0;
  const elseMask = (~thenMask) >>> 0;
  for (const l of thenLanes) {
    t.is(at(l, 0), l === 0 ? 1 : 0, `elect lane ${l}`);
    t.is(at(l, 1), thenMask);
    t.is(at(l, 2), 0); // lowest active lane is 0
    t.is(at(l, 3), 11);
    t.is(at(l, 4), 165); // 0+3+...+30
    const k = l / 3; // position among the active lanes
    t.is(at(l, 5), (3 * k * (k + 1)) / 2); // 0 + 3 + ... + l
    t.is(at(l, 6), (3 * k * (k + 1)) / 2 - l);
    t.is(at(l, 7), 1 + 2 + 4); // all active lanes are < 31, lane 30 is active, l/64 is 0 everywhere
    t.is(at(l, 8), 30 * 100 + 1);
    t.is(at(l, 9), (l / 3 + 1) * 100 + l / 3);
    t.is(at(l, 10), 0 * 100 + 30);
    t.is(at(l, 11), 3);
  }
  for (const l of elseLanes) {
    t.is(at(l, 0), l === 1 ? 1 : 0);
    t.is(at(l, 1), elseMask);
    t.is(at(l, 2), 10);
    t.is(at(l, 4), 21);
  }
  for (let l = 0; l < 32; l++) {
    t.is(at(l, 12), 0xffffffff, 'reconverged after the if');
    t.is(at(l, 13), l ^ 1);
    t.is(at(l, 14), (1 << l) >>> 0);
    t.is(at(l, 15), ((1 << l) - 1) >>> 0);
  }
  t.true((c.subgroupOps['ballot'] ?? 0) >= 3);
  t.is(c.subgroupOps['elect'], 2);
});
