import test from 'ava';
import { IssueWake } from '../../../src/sim/timing/issue-wake.js';

/** An RT unit whose warp-buffer room the test sets. */
function rtRoom(room = false): { hasRoom(): boolean; room: boolean } {
  return { room, hasRoom() { return this.room; } };
}

/** One SM scan at `now` in which scheduler 0 is scanned and rejects its warps through `reject`; returns whether it was scanned. */
function scan(w: IssueWake, now: number, reject: () => void): boolean {
  if (!w.beginScan(now)) return false;
  if (w.asleep(0, now)) return false;
  w.beginScheduler();
  reject();
  w.endScheduler(0, false);
  return true;
}

test('a scheduler whose warps all had a wake time is not rescanned before it, nor after an event of another scheduler', (t) => {
  const w = new IssueWake(2, rtRoom());
  t.true(scan(w, 10, () => w.notReadyUntil(20)));
  t.true(w.sleep(10));
  t.is(w.wakeAt, 20, 'the issue stage sleeps until the bound');
  w.wakeScheduler(1);
  t.is(w.wakeAt, 0);
  t.false(scan(w, 11, () => t.fail('rescanned')), 'scheduler 1\'s event leaves scheduler 0 asleep');
  t.true(scan(w, 20, () => w.notReadyUntil(30)), 'rescanned at its wake time');
});

test('an event of its own, an SM-wide event or a slot-list change wakes a sleeping scheduler', (t) => {
  const w = new IssueWake(1, rtRoom());
  for (const event of [() => w.wakeScheduler(0), () => w.wakeAll(), () => w.slotListChanged()]) {
    scan(w, 10, () => w.notReadyUntil(100));
    event();
    t.true(scan(w, 11, () => w.notReadyUntil(100)));
  }
});

test('a rejection without a wake time keeps nothing and makes every event wake the issue stage', (t) => {
  const w = new IssueWake(1, rtRoom());
  scan(w, 10, () => w.refusedUntilEvent());
  w.sleepUntil(50);
  w.anyEvent();
  t.is(w.wakeAt, 0, 'a response that is not a load\'s last wakes it');
  t.true(scan(w, 11, () => w.notReadyUntil(100)), 'rescanned at the next scan');
});

test('an ITS warp leaves the bound to the SM (sleep is false)', (t) => {
  const w = new IssueWake(1, rtRoom());
  w.beginScan(10);
  w.beginScheduler();
  w.itsTried();
  w.endScheduler(0, false);
  t.false(w.sleep(10));
});

test('a refusal by the LD/ST unit waits for the queue to be short enough', (t) => {
  const w = new IssueWake(1, rtRoom());
  scan(w, 10, () => w.refusedByLsu(3));
  w.sleepUntil(Infinity);
  w.queueProgress(5);
  t.is(w.wakeAt, Infinity, 'five queued: still too full');
  w.queueProgress(3);
  t.is(w.wakeAt, 0);
});

test('a scheduler refused by the full RT warp buffer is rescanned once the buffer has room', (t) => {
  const rt = rtRoom(false);
  const w = new IssueWake(1, rt);
  scan(w, 10, () => { w.notReadyUntil(100); w.refusedByRtBuffer(); });
  t.false(scan(w, 11, () => t.fail('rescanned')), 'no room: asleep');
  rt.room = true;
  t.true(scan(w, 12, () => w.notReadyUntil(100)));
});

test('a GTO prefix is skipped until its wake time, and dropped by an event', (t) => {
  const w = new IssueWake(1, rtRoom());
  w.beginScan(10);
  w.beginScheduler();
  w.notReadyUntil(40);
  w.keepPrefix(0, 3);
  w.endScheduler(0, true);
  w.beginScan(11);
  w.beginScheduler();
  t.is(w.prefixStart(0, 11, w.prefixHeld(0)), 3);
  w.endScheduler(0, true);
  w.beginScan(40);
  t.is(w.prefixStart(0, 40, w.prefixHeld(0)), 0, 'its wake time came');
  w.wakeScheduler(0);
  w.beginScan(12);
  t.false(w.prefixHeld(0));
});

test('an event that matters only to a refusal without a wake time wakes the issue stage but leaves sleeping schedulers asleep', (t) => {
  const w = new IssueWake(2, rtRoom());
  // Scheduler 0 rejects with a wake time; scheduler 1 without one.
  w.beginScan(10);
  for (const s of [0, 1]) {
    w.beginScheduler();
    if (s === 0) w.notReadyUntil(50);
    else w.refusedUntilEvent();
    w.endScheduler(s, false);
  }
  t.true(w.sleep(10));
  w.anyEvent();
  t.is(w.wakeAt, 0);
  w.beginScan(11);
  t.true(w.asleep(0, 11), 'scheduler 0 is not rescanned');
  t.false(w.asleep(1, 11), 'scheduler 1 is');
  w.queueProgress(7);
  w.beginScan(12);
  t.true(w.asleep(0, 12), 'queue progress without a refusal by the LD/ST unit: still asleep');
});
