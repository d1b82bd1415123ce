import test from 'ava';
import { perWordRequestCount } from '../../../src/sim/timing/coalescer.js';
import { perThreadAddress, perThreadRequests, RT_STATE_BLOCK_BYTES } from '../../../src/sim/timing/rt-thread-state.js';
import { localAddress, type MemAccess } from '../../../src/sim/warp-step.js';

function access(lanes: number[], word: number, size: number, wordMask = -1): MemAccess {
  const addresses = new Float64Array(32);
  let laneMask = 0;
  for (const l of lanes) {
    addresses[l] = localAddress(3, word, l);
    laneMask |= 1 << l;
  }
  return { instIndex: 0, kind: 'store', space: 'rtState', size, addresses, laneMask: laneMask >>> 0, wordMask };
}

test('a vector access is one request per word and active lane, word by word (NIR-to-PTX: one scalar instruction per component)', (t) => {
  const a = access([0, 5, 9], 2, 12);
  const lines: number[] = [];
  const words: number[] = [];
  perThreadRequests(a, { pushLine: (line, _bytes, w) => { lines.push(line); words.push(w); } });
  t.is(lines.length, perWordRequestCount(a));
  t.is(lines.length, 9);
  // Word 2 of lanes 0, 5, 9, then word 3 of each, then word 4.
  const expected: number[] = [];
  for (const word of [2, 3, 4]) for (const lane of [0, 5, 9]) expected.push(perThreadAddress(3, lane, word * 4) - ((word * 4) % 128));
  t.deepEqual(lines, expected);
  t.deepEqual(words, [4, 4, 4, 8, 8, 8, 16, 16, 16]);
});

test('a store NIR writes in part sends only the words of its mask (redundant-stores.ts)', (t) => {
  // A 12-word struct whose words 8-10 (a vec3) are not stored: 9 words for each of 2 lanes.
  const a = access([1, 2], 0, 48, 0xfff & ~0x700);
  const lines: number[] = [];
  const words: number[] = [];
  perThreadRequests(a, { pushLine: (line, _bytes, w) => { lines.push(line); words.push(w); } });
  t.is(lines.length, 18);
  t.is(perWordRequestCount(a), 18);
  t.false(words.some((w) => w === 1 << 8 || w === 1 << 9 || w === 1 << 10));
  t.true(words.includes(1 << 11));
});

test('the lanes of a warp own consecutive 256-byte blocks for each block of their state (gpu_malloc order)', (t) => {
  t.is(perThreadAddress(0, 1, 0) - perThreadAddress(0, 0, 0), RT_STATE_BLOCK_BYTES);
  t.is(perThreadAddress(0, 0, RT_STATE_BLOCK_BYTES) - perThreadAddress(0, 0, 0), 32 * RT_STATE_BLOCK_BYTES);
});

test('with a block table, an access goes to the block of the allocation its variable stands for', (t) => {
  const lines: number[] = [];
  // Word 70 is in block 1 (words 64-127); the table sends block 1 to block 0.
  perThreadRequests(access([4], 70, 4), { pushLine: (line) => lines.push(line) }, Int32Array.from([0, 0, 2]));
  t.deepEqual(lines, [perThreadAddress(3, 4, 6 * 4) - ((6 * 4) % 128)]);
  const apart: number[] = [];
  perThreadRequests(access([4], 70, 4), { pushLine: (line) => apart.push(line) });
  t.deepEqual(apart, [perThreadAddress(3, 4, 70 * 4) - ((70 * 4) % 128)]);
});
