import test from 'ava';
import { parseCacheConfig } from '../../../src/sim/config/cache-config.js';
import { AccessOutcome, Cache, writebackBytes } from '../../../src/sim/timing/cache.js';

const geo = (s: string) => parseCacheConfig(s, 'test');

test('LRU evicts the least recently used line of the set', (t) => {
  const c = new Cache(geo('N:2:128:2,L:B:m:N:L,A:8:4,4'));
  // Lines 0, 256, 512 map to set 0 (line index even).
  c.fill(c.lineIdOf(0), false);
  c.fill(c.lineIdOf(256), false);
  t.true(c.probe(c.lineIdOf(0))); // 0 becomes most recent
  const ev = c.fill(c.lineIdOf(512), false);
  t.deepEqual(ev, { line: c.lineIdOf(256), dirty: false, dirtySectors: 0 });
  t.true(c.probe(c.lineIdOf(0)));
  t.false(c.probe(c.lineIdOf(256)));
  t.true(c.probe(c.lineIdOf(512)));
});

test('FIFO evicts the oldest fill even if it was just hit', (t) => {
  const c = new Cache(geo('N:1:128:2,F:B:m:N:L,A:8:4,4'));
  c.fill(c.lineIdOf(0), false);
  c.fill(c.lineIdOf(128), false);
  t.true(c.probe(c.lineIdOf(0)));
  t.is(c.fill(c.lineIdOf(256), false)!.line, c.lineIdOf(0));
});

test('dirty lines report a dirty eviction; sets are independent', (t) => {
  const c = new Cache(geo('N:2:128:1,L:B:m:N:L,A:8:4,4'));
  c.fill(c.lineIdOf(0), false);
  c.fill(c.lineIdOf(128), false); // set 1
  c.markDirty(c.lineIdOf(0), 1);
  t.deepEqual(c.fill(c.lineIdOf(256), false), { line: c.lineIdOf(0), dirty: true, dirtySectors: 0xf });
  t.true(c.probe(c.lineIdOf(128)));
});

test('a sectored line writes back only its modified sectors (sector_cache_block::get_modified_size); a line cache the whole line', (t) => {
  const c = new Cache(geo('S:1:128:1,L:B:m:L:L,A:8:4,4'));
  c.writeWords(c.lineIdOf(0), 0x1); // word 0: sector 0
  c.writeWords(c.lineIdOf(0), 0x1 << 24); // word 24: sector 3
  const ev = c.fill(c.lineIdOf(128), false)!;
  t.is(ev.dirtySectors, 0b1001);
  t.deepEqual(writebackBytes(ev, true, 128), { bytes: 64, words: 0xff0000ff });
  t.deepEqual(writebackBytes(ev, false, 128), { bytes: 128, words: 0xffffffff });
  // A read fill does not dirty a sector; an atomic's sector does.
  c.fillWords(c.lineIdOf(256), 0xff00, false);
  c.markDirty(c.lineIdOf(256), 0xff00);
  t.is(c.fill(c.lineIdOf(384), false)!.dirtySectors, 0b0010);
});

test('misses are compulsory until the line was filled once, then capacity/conflict', (t) => {
  const c = new Cache(geo('N:1:128:1,L:B:m:N:L,A:8:4,4'));
  t.is(c.missKind(c.lineIdOf(0)), AccessOutcome.MissCompulsory);
  t.is(c.missKind(c.lineIdOf(0)), AccessOutcome.MissCompulsory, 'a no-allocate store miss does not make the line seen');
  c.fill(c.lineIdOf(0), false);
  c.fill(c.lineIdOf(128), false);
  t.is(c.missKind(c.lineIdOf(0)), AccessOutcome.MissCapacityConflict);
  t.is(c.missKind(c.lineIdOf(4096)), AccessOutcome.MissCompulsory);
});

test('a fully associative cache holds exactly its capacity under LRU', (t) => {
  const c = new Cache(geo('N:1:128:512,L:L:m:N:L,A:256:8,16:0,32'));
  for (let i = 0; i < 512; i++) c.fill(c.lineIdOf(i * 128), false);
  let hits = 0;
  for (let i = 0; i < 512; i++) if (c.probe(c.lineIdOf(i * 128))) hits++;
  t.is(hits, 512);
  c.fill(c.lineIdOf(512 * 128), false);
  t.false(c.probe(c.lineIdOf(0)), 'line 0 was least recently used');
  t.true(c.probe(c.lineIdOf(128)));
});

test('lines below the 32-byte sector are refused as a configuration error', (t) => {
  t.throws(() => new Cache(geo('N:2:16:2,L:B:m:N:L,A:8:4,4')), { message: /at least 32 bytes/ });
});

test('lazy fetch-on-read: a sector written whole by one write is readable; written word by word it stays a SECTOR_MISS until a read fills it (wr_miss_wa_lazy_fetch_on_read sets readable per write)', (t) => {
  const c = new Cache(geo('S:4:128:4,L:B:m:L:L,A:8:4,4'));
  const line = c.lineIdOf(0);
  c.writeWords(line, 0xff); // sector 0, all eight words in one write
  t.is(c.lookup(line, 0x1), AccessOutcome.Hit);
  for (let w = 8; w < 16; w++) c.writeWords(line, 1 << w); // sector 1, one word at a time
  t.is(c.lookup(line, 1 << 8), AccessOutcome.MissSector);
  t.is(c.missingSectors(line, 0xff00), 0x2);
  c.fillWords(line, 0xff00, false);
  t.is(c.lookup(line, 1 << 8), AccessOutcome.Hit);
});
