import test from 'ava';
import { DumpFormatError, InstrumentationBufferTooSmallError, readDump, readSavedDump } from '../../src/analytics/dump-reader.js';
import { DumpWriter, FixtureMeta, FULL } from './dump-fixture.js';

function fixture(capacity: number) {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const blk = f.site({ kind: 'block', shader: rg });
  const tr = f.site({ kind: 'blockTrace', shader: rg });
  const w = new DumpWriter(f.meta, capacity);
  return { f, w, wid, blk, tr };
}

test('decodes variable-size entries in buffer order', (t) => {
  const { f, w, wid, blk, tr } = fixture(1024);
  w.createWarpId(0, 0b11, wid); // 2 entries x 3 words
  w.warpBallot(0, FULL, blk); // 3 words
  w.threadUpdate(1, tr); // 2 words
  const d = readDump(w.bytes(), f.meta);
  t.is(d.entryCount, 4);
  t.deepEqual(Array.from(d.entryOffsets), [2, 5, 8, 11]);
  t.deepEqual(Array.from(d.entrySite), [wid, wid, blk, tr]);
  t.is(d.warpIdCount, 1);
  t.is(d.wordsWritten, 11);
  t.is(d.requiredWords, 13);
  t.false(d.overflowed);
  t.is(d.words[d.entryOffsets[2]! + 2], FULL);
});

test('overflow names the exact size needed', (t) => {
  const { f, w, blk } = fixture(10); // header 2 + room for 2 entries of 3 words, not 3
  for (let i = 0; i < 5; i++) w.warpBallot(i * 32, FULL, blk);
  const err = t.throws(() => readDump(w.bytes(), f.meta), { instanceOf: InstrumentationBufferTooSmallError });
  t.is(err.message, 'instrumentation buffer too small: 17 words written, 10 available (7 words dropped); rerun with --buffer-size 17');
  t.is(err.requiredWords, 17);
  const partial = readDump(w.bytes(), f.meta, { allowOverflow: true });
  t.true(partial.overflowed);
  t.is(partial.entryCount, 2);
  // The reported size is enough: a rerun with it holds every entry.
  const again = fixture(err.requiredWords);
  for (let i = 0; i < 5; i++) again.w.warpBallot(i * 32, FULL, again.blk);
  t.is(readDump(again.w.bytes(), again.f.meta).entryCount, 5);
});

test('rejects a dump whose inst ids do not match the metadata', (t) => {
  const { f, w, blk } = fixture(64);
  w.warpBallot(0, FULL, blk);
  w.buf[3] = 99;
  const err = t.throws(() => readDump(w.bytes(), f.meta), { instanceOf: DumpFormatError });
  t.regex(err.message, /word 2 has inst id 99, but the metadata has 3 sites/);
});

test('rejects a dump that is not whole words, and reads unaligned bytes', (t) => {
  const { f, w, blk } = fixture(16);
  w.warpBallot(0, 0xf0, blk);
  t.throws(() => readDump(new Uint8Array(7), f.meta), { instanceOf: DumpFormatError });
  const shifted = new Uint8Array(w.bytes().length + 1);
  shifted.set(w.bytes(), 1);
  const d = readDump(shifted.subarray(1), f.meta);
  t.is(d.entryCount, 1);
  t.is(d.words[4], 0xf0);
});

test('after an overflow the unwritten gap before the end of the buffer is not decoded', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const trace = f.site({ kind: 'blockTrace', shader: rg }); // 2 words, inst id 0
  const ballot = f.site({ kind: 'block', shader: rg }); // 3 words
  const w = new DumpWriter(f.meta, 2 + 2 + 3 + 2); // room for trace + ballot, then a 2-word gap
  w.threadUpdate(5, trace);
  w.warpBallot(0, FULL, ballot);
  w.warpBallot(0, FULL, ballot); // does not fit: leaves 2 zero words behind
  const d = readDump(w.bytes(), f.meta, { allowOverflow: true });
  t.deepEqual(Array.from(d.entrySite), [trace, ballot]);
});

/** A saved dump holds exactly the words written, as `instrument` saves it. */
function saved(bytes: Uint8Array): Uint8Array {
  const words = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true) + 2;
  return bytes.slice(0, words * 4);
}

test('a saved dump that agrees with its header and metadata reads as readDump does', (t) => {
  const { f, w, wid, blk } = fixture(64);
  w.createWarpId(0, 0b101, wid);
  w.warpBallot(0, FULL, blk);
  const d = readSavedDump(saved(w.bytes()), f.meta);
  t.is(d.entryCount, 3);
  t.is(d.warpIdCount, 1);
});

test('a saved dump whose header disagrees with the file size is corrupt, not an overflow', (t) => {
  const { f, w, blk } = fixture(64);
  w.warpBallot(0, FULL, blk);
  const bytes = saved(w.bytes());
  new DataView(bytes.buffer).setUint32(4, 1691205708, true);
  const err = t.throws(() => readSavedDump(bytes, f.meta), { instanceOf: DumpFormatError });
  t.is(err.message, 'its header says 1691205708 entry words were written (a file of 6764822840 bytes), but the file has 20 bytes');
  t.throws(() => readSavedDump(saved(w.bytes()).subarray(0, 16), f.meta), { message: /header says 3 entry words .* the file has 16 bytes/ });
});

test('a saved dump with an inst id out of range, or a warp id past the counter, is corrupt', (t) => {
  const { f, w, wid, blk } = fixture(64);
  w.createWarpId(0, 0b1, wid);
  w.warpBallot(0, FULL, blk);
  const bytes = saved(w.bytes());
  const view = new DataView(bytes.buffer);
  view.setUint32(4 * 4, 7, true); // the CreateWarpId entry's warp_id (words 2..4: twid, inst, warp)
  t.throws(() => readSavedDump(bytes, f.meta), { instanceOf: DumpFormatError, message: /word 2 \(inst id 0\) has warp id 7, but the header's warp counter is 1/ });
  view.setUint32(4 * 4, 0, true);
  view.setUint32(6 * 4, 40, true); // the ballot entry's inst id
  t.throws(() => readSavedDump(bytes, f.meta), { instanceOf: DumpFormatError, message: /word 5 has inst id 40, but the metadata has 3 sites/ });
});

test('a whole buffer that overflowed (a device run) says how much was dropped and the size to rerun with, not corrupt', (t) => {
  const { f, w, wid, blk } = fixture(10);
  w.createWarpId(0, 0b1, wid);
  for (let i = 0; i < 4; i++) w.warpBallot(0, FULL, blk);
  const err = t.throws(() => readSavedDump(w.bytes(), f.meta, 10), { instanceOf: InstrumentationBufferTooSmallError });
  // 2 + 3 + 4 * 3 = 17 words needed; 10 held: the warp id entry and one ballot kept, 7 words (about 2 entries) dropped.
  t.is(err.message, `instrumentation buffer too small: 17 words written, 10 available (about 2 entries, 7 words dropped); rerun with --buffer-size ${Math.ceil(17 * 1.25) + 65536}`);
  // Without the bound size it cannot be told from a truncated file.
  t.throws(() => readSavedDump(w.bytes(), f.meta), { instanceOf: DumpFormatError });
});
