import test from 'ava';
import { parseCacheConfig } from '../../../src/sim/config/cache-config.js';
import { AccessOutcome, Cache, sectorsOf } from '../../../src/sim/timing/cache.js';

const sectored = () => new Cache(parseCacheConfig('S:4:128:4,L:B:m:L:L,A:64:8,8', 'l2'));
const whole = () => new Cache(parseCacheConfig('N:4:128:4,L:B:m:L:L,A:64:8,8', 'l2'));
const WORD = (i: number) => (1 << i) >>> 0;

test('sector masks of word masks', (t) => {
  t.is(sectorsOf(0xff), 1);
  t.is(sectorsOf(WORD(8) | WORD(31)), 0b1010);
});

test('a sectored cache hits only on filled sectors; other sectors of a present line are sector misses', (t) => {
  const c = sectored();
  t.is(c.lookup(c.lineIdOf(0), WORD(0)), AccessOutcome.MissCompulsory);
  c.fillWords(c.lineIdOf(0), WORD(0), false);
  t.is(c.lookup(c.lineIdOf(0), WORD(3)), AccessOutcome.Hit, 'same sector');
  t.is(c.lookup(c.lineIdOf(0), WORD(8)), AccessOutcome.MissSector, 'next sector');
  t.is(c.missingSectors(c.lineIdOf(0), WORD(8) | WORD(0)), 0b10);
});

test('lazy fetch-on-read: partially written sectors stay unreadable; a fully written one becomes readable', (t) => {
  const c = sectored();
  c.writeWords(c.lineIdOf(0), WORD(8));
  t.is(c.lookup(c.lineIdOf(0), WORD(8)), AccessOutcome.MissSector, 'a 4-byte write does not make the sector readable');
  t.is(c.lookup(c.lineIdOf(0), WORD(9)), AccessOutcome.MissSector);
  c.writeWords(c.lineIdOf(0), 0xff);
  t.is(c.lookup(c.lineIdOf(0), WORD(2)), AccessOutcome.Hit, 'all 8 words written');
});

test('write-evict invalidates only the written sectors', (t) => {
  const c = sectored();
  c.fillWords(c.lineIdOf(0), 0xffffffff, false);
  c.invalidateWords(c.lineIdOf(0), WORD(9));
  t.is(c.lookup(c.lineIdOf(0), WORD(9)), AccessOutcome.MissSector);
  t.is(c.lookup(c.lineIdOf(0), WORD(0)), AccessOutcome.Hit);
  c.invalidateWords(c.lineIdOf(0), 0xffffffff);
  t.is(c.lookup(c.lineIdOf(0), WORD(0)), AccessOutcome.MissCapacityConflict, 'the line is gone once no sector is left');
});

test('a non-sectored cache hits whole lines', (t) => {
  const c = whole();
  c.fillWords(c.lineIdOf(0), WORD(0), false);
  t.is(c.lookup(c.lineIdOf(0), WORD(31)), AccessOutcome.Hit);
  c.writeWords(c.lineIdOf(128), WORD(1));
  t.is(c.lookup(c.lineIdOf(128), WORD(20)), AccessOutcome.Hit);
});
