import test from 'ava';
import { coalesce as coalesceInto, perComponentRequests, perWordRequestCount } from '../../../src/sim/timing/coalescer.js';
import type { MemAccess } from '../../../src/sim/warp-step.js';

/** The requests of one access, in the order the coalescer emits them. */
function coalesce(a: MemAccess): { line: number; bytes: number; words: number }[] {
  const out: { line: number; bytes: number; words: number }[] = [];
  coalesceInto(a, { pushLine: (line, bytes, words) => out.push({ line, bytes, words }) });
  return out;
}

function access(addrOf: (lane: number) => number, size: number, laneMask = 0xffffffff | 0): MemAccess {
  const addresses = new Float64Array(32);
  for (let l = 0; l < 32; l++) addresses[l] = addrOf(l);
  return { instIndex: 0, kind: 'load', space: 'global', size, addresses, laneMask, wordMask: -1 };
}

test('32 consecutive words form four 32 B sector requests of one line (sm_70+ 32 B segments)', (t) => {
  t.deepEqual(coalesce(access((l) => 0x1000 + 4 * l, 4)), [0, 1, 2, 3].map((q) => ({ line: 0x1000, bytes: 32, words: (0xff << (8 * q)) >>> 0 })));
});

test('16 B per lane spans four lines of four sectors; misaligned words touch an extra sector', (t) => {
  t.is(coalesce(access((l) => 0x1000 + 16 * l, 16)).length, 16);
  // bytes 30..33: words 7 and 8, in sectors 0 and 1
  t.deepEqual(coalesce(access((l) => 0x1000 + 30 + 0 * l, 4, 1)), [
    { line: 0x1000, bytes: 32, words: 1 << 7 },
    { line: 0x1000, bytes: 32, words: 1 << 8 },
  ]);
});

test('scattered lanes give one request per line; inactive lanes are ignored', (t) => {
  const r = coalesce(access((l) => l * 4096, 4, 0b1011));
  t.deepEqual(r.map((x) => x.line), [0, 4096, 3 * 4096]);
  t.true(r.every((x) => x.bytes === 32));
});

test('wide per-lane accesses (256 B) still give unique sectors', (t) => {
  const r = coalesce(access((l) => l * 4096 + 64, 256));
  t.is(r.length, 32 * 8);
  t.is(new Set(r.map((x) => x.line + 32 * (31 - Math.clz32(x.words & -x.words) >> 3))).size, r.length);
});

test('a Traversal_data read goes one 32-bit component at a time: every lane\'s word 0, then word 1, ... (Vulkan-Sim ld.global.f32 per component)', (t) => {
  // Three lanes, each its own 256 B block, reading a vec3 at offset 16 (12 bytes: one sector each).
  const a = access((l) => 0x4000 + 256 * l + 16, 12, 0b1011);
  a.space = 'traversal';
  const out: { line: number; words: number }[] = [];
  perComponentRequests(a, { pushLine: (line, _bytes, words) => out.push({ line, words }) });
  const lanes = [0, 1, 3];
  t.deepEqual(out, [4, 5, 6].flatMap((w) => lanes.map((l) => ({ line: 0x4000 + 256 * l, words: 1 << w }))));
  t.is(perWordRequestCount(a), 9);
  // coalesce makes one request per lane for the same access.
  t.is(coalesce(a).length, 3);
});
