import test from 'ava';
import { LocalCrossbar, type LocalCrossbarConfig } from '../../../src/sim/timing/local-crossbar.js';
import { type MemRequest, ReqKind } from '../../../src/sim/timing/mem-request.js';

const req = (line: number): MemRequest => ({ line, bytes: 128, kind: ReqKind.Load, source: 0, sm: 0, subPartition: 0, waiters: null, sentAt: 0, createdAt: 0, returnAt: 0, uncached: false, mshrKey: -1, words: 0xffffffff });
const islip: LocalCrossbarConfig = { inBufferLimit: 512, outBufferLimit: 512, arbiter: 1, grantCycles: 1 };

/** A request subnet of `sms` SMs and `mems` sub-partitions (SMs are nodes 0.., memories follow). */
const requestNet = (sms: number, mems: number, cfg: Partial<LocalCrossbarConfig> = {}): LocalCrossbar =>
  new LocalCrossbar(sms, mems, 0, sms, { ...islip, ...cfg });

test('a packet pushed in one cycle moves at the next advance and is received after it (GPGPU-Sim cycle order)', (t) => {
  const net = requestNet(2, 2);
  t.true(net.tryPush(1, 0, req(0), 128, 10));
  t.is(net.receive(0, 10), undefined, 'still in the input FIFO');
  t.is(net.nextArrival(0), Infinity);
  net.advance(11);
  t.is(net.nextArrival(0), -Infinity);
  t.is(net.receive(0, 12)!.line, 0);
  t.true(net.idle());
});

test('packet size does not matter: a 128-byte packet moves in one cycle like a header', (t) => {
  const net = requestNet(1, 2);
  t.true(net.tryPush(0, 0, req(0), 128, 0));
  t.true(net.tryPush(0, 1, req(1), 0, 0), 'the input FIFO takes another packet in the same cycle');
  net.advance(1);
  t.is(net.receive(0, 2)!.line, 0);
  t.is(net.receive(1, 2)!.line, 1, 'the new head went to another output in the same advance');
});

test('each output takes one packet per cycle; iSLIP grants inputs round robin from past the last grant', (t) => {
  const net = requestNet(3, 1);
  for (let round = 0; round < 2; round++) for (let s = 0; s < 3; s++) t.true(net.tryPush(s, 0, req(10 * s + round), 0, 0));
  const order: number[] = [];
  for (let c = 1; c <= 6; c++) {
    net.advance(c);
    const r = net.receive(0, c)!;
    order.push(r.line);
    t.is(net.receive(0, c), undefined, 'one packet per output per cycle');
  }
  t.deepEqual(order, [0, 10, 20, 1, 11, 21]);
});

test('round robin (icnt_arbiter_algo 0) also moves one packet per output per cycle', (t) => {
  const net = requestNet(2, 1, { arbiter: 0 });
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.true(net.tryPush(1, 0, req(1), 0, 0));
  net.advance(1);
  t.truthy(net.receive(0, 1));
  t.is(net.receive(0, 1), undefined);
  net.advance(2);
  t.truthy(net.receive(0, 2));
});

test('only input heads move: a head for a full output blocks the packets behind it (head-of-line)', (t) => {
  const net = requestNet(1, 2, { outBufferLimit: 1 });
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.true(net.tryPush(0, 0, req(1), 0, 0));
  t.true(net.tryPush(0, 1, req(2), 0, 0));
  net.advance(1); // req 0 fills output 0
  net.advance(2); // req 1 cannot move: output 0 is full; req 2 waits behind it
  t.is(net.receive(1, 2), undefined);
  t.is(net.outBufferFull, 1);
  t.is(net.receive(0, 3)!.line, 0);
  net.advance(3);
  net.advance(4);
  t.is(net.receive(0, 5)!.line, 1);
  t.is(net.receive(1, 5)!.line, 2);
});

test('a full input FIFO refuses the push (icnt_has_buffer)', (t) => {
  const net = requestNet(1, 1, { inBufferLimit: 2 });
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.true(net.tryPush(0, 0, req(1), 0, 0));
  t.false(net.tryPush(0, 0, req(2), 0, 0));
  t.is(net.stalls, 1);
  net.advance(1);
  t.true(net.tryPush(0, 0, req(2), 0, 1));
});

test('the reply subnet numbers memories first: sources are sub-partitions, destinations SMs', (t) => {
  const net = new LocalCrossbar(2, 3, 2, 0, islip);
  t.true(net.tryPush(2, 1, req(7), 32, 0));
  net.advance(1);
  t.is(net.receive(0, 2), undefined);
  t.is(net.receive(1, 2)!.line, 7);
});

test('GPGPU-Sim counters: iSLIP head conflicts and packets moved, counted only in cycles some input holds a packet', (t) => {
  const net = requestNet(3, 2);
  // Cycle 1: three inputs, heads for outputs 0, 0, 1: one conflict, two moves.
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.true(net.tryPush(1, 0, req(1), 0, 0));
  t.true(net.tryPush(2, 1, req(2), 0, 0));
  net.advance(1);
  // Cycle 2: the loser alone, no conflict, one move. Cycle 3: nothing held, not active.
  net.advance(2);
  net.advance(3);
  const c = net.counters();
  t.is(c.packets, 3);
  t.is(c.activeCycles, 2);
  t.is(c.conflictsActive, 1);
  t.is(c.movedActive, 3);
  // Buffer sums after each advance: one packet left in an input after cycle 1, none after.
  t.is(c.inSum, 1);
});

test('GPGPU-Sim counters under round robin: an input whose output was already served this cycle is a conflict', (t) => {
  const net = requestNet(2, 1, { arbiter: 0 });
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.true(net.tryPush(1, 0, req(1), 0, 0));
  net.advance(1);
  const c = net.counters();
  t.is(c.conflictsActive, 1);
  t.is(c.movedActive, 1);
  t.is(c.activeCycles, 1);
});
