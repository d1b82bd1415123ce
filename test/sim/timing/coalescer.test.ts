import test from 'ava';
import { coalesce } from '../../../src/sim/timing/coalescer.js';
import type { MemAccess } from '../../../src/sim/warp-step.js';

function access(addrOf: (lane: number) => number, size: number, laneMask = 0xffffffff | 0): MemAccess {
  const addresses = new Float64Array(32);
  for (let l = 0; l < 32; l++) addresses[l] = addrOf(l);
  return { instIndex: 0, kind: 'load', space: 'global', size, addresses, laneMask };
}

test('32 consecutive words form one 128 B line with 4 sectors', (t) => {
  t.deepEqual(coalesce(access((l) => 0x1000 + 4 * l, 4)), [{ line: 0x1000, bytes: 128, words: 0xffffffff }]);
});

test('16 B per lane spans four lines; misaligned words touch an extra sector', (t) => {
  t.is(coalesce(access((l) => 0x1000 + 16 * l, 16)).length, 4);
  // bytes 30..33: words 7 and 8, in sectors 0 and 1
  t.deepEqual(coalesce(access((l) => 0x1000 + 30 + 0 * l, 4, 1)), [{ line: 0x1000, bytes: 64, words: (1 << 7) | (1 << 8) }]);
});

test('scattered lanes give one request per line; inactive lanes are ignored', (t) => {
  const r = coalesce(access((l) => l * 4096, 4, 0b1011));
  t.deepEqual(r.map((x) => x.line), [0, 4096, 3 * 4096]);
  t.true(r.every((x) => x.bytes === 32));
});

test('wide per-lane accesses (256 B) still give unique lines', (t) => {
  const r = coalesce(access((l) => l * 4096 + 64, 256));
  t.is(r.length, 32 * 3);
  t.is(new Set(r.map((x) => x.line)).size, r.length);
});
