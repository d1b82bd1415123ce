import test from 'ava';
import { StepRecords } from '../../../src/sim/timing/step-records.js';

test('a step\'s record is found once claimed; its fields start at zero', (t) => {
  const r = new StepRecords(8, 3);
  t.is(r.find(5), -1);
  const e = r.claim(5);
  t.is(r.find(5), e);
  t.deepEqual([...r.words.subarray(e + 1, e + 4)], [0, 0, 0]);
  r.words[e + 2] = 7;
  t.is(r.claim(5), e, 'claiming it again keeps its fields');
  t.is(r.words[e + 2], 7);
});

test('a step a lap later takes the slot over, emptied; the earlier step then reads as absent', (t) => {
  const r = new StepRecords(8, 1);
  const e = r.claim(3);
  r.words[e + 1] = 4;
  t.is(r.find(11), -1);
  t.is(r.claim(11), e);
  t.is(r.words[e + 1], 0);
  t.is(r.find(3), -1);
});

test('records are padded to a power of two words, key included', (t) => {
  t.is(new StepRecords(4, 3).words.length, 16);
  t.is(new StepRecords(4, 4).words.length, 32);
  t.throws(() => new StepRecords(6, 1));
});
