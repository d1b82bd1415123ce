import test from 'ava';
import { FlitCrossbar } from '../../../src/sim/timing/flit-crossbar.js';
import { type MemRequest, ReqKind } from '../../../src/sim/timing/mem-request.js';

const req = (line: number): MemRequest => ({ line, bytes: 128, kind: ReqKind.Load, source: 0, sm: 0, subPartition: 0, waiters: null, sentAt: 0, createdAt: 0, returnAt: 0, uncached: false, mshrKey: -1, words: 0xffffffff });

test('a packet arrives latency + flits - 1 cycles after it is accepted', (t) => {
  const net = new FlitCrossbar(1, 1, 8, 40, 4);
  t.true(net.tryPush(0, 0, req(0), 128, 10)); // 136 B = 4 flits
  t.is(net.nextArrival(0), 10 + 4 - 1 + 8);
  t.is(net.receive(0, 20), undefined);
  t.is(net.receive(0, 21)!.line, 0);
});

test('a source port is busy for the flits of its last packet (bandwidth)', (t) => {
  const net = new FlitCrossbar(1, 2, 1, 40, 4);
  t.true(net.tryPush(0, 0, req(0), 128, 0));
  t.false(net.tryPush(0, 1, req(128), 0, 3), 'still sending flits of the first packet');
  t.true(net.tryPush(0, 1, req(128), 0, 4));
  t.is(net.stalls, 1);
});

test('a full destination buffer refuses until a packet is received (back-pressure)', (t) => {
  const net = new FlitCrossbar(4, 1, 1, 40, 2);
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.true(net.tryPush(1, 0, req(1), 0, 0));
  t.false(net.tryPush(2, 0, req(2), 0, 0));
  t.truthy(net.receive(0, 5));
  t.true(net.tryPush(2, 0, req(2), 0, 5));
  // Delivery order is acceptance order.
  t.is(net.receive(0, 10)!.line, 1);
  t.is(net.receive(0, 10)!.line, 2);
  t.true(net.idle());
});

test('a freed slot goes to the source refused longest ago, not to the first to ask in the cycle (issue 26.6)', (t) => {
  // Four sources ticked in index order (as the GPU ticks SMs) all keep a packet for one slow
  // destination. First-come would give every freed slot to source 0 and starve source 3.
  const net = new FlitCrossbar(4, 1, 1, 40, 2);
  const accepted = [0, 0, 0, 0];
  const firstAccepted = [-1, -1, -1, -1];
  for (let now = 0; now < 400; now++) {
    if (now % 4 === 0) net.receive(0, now);
    for (let s = 0; s < 4; s++) {
      if (net.tryPush(s, 0, req(s), 0, now)) {
        accepted[s]!++;
        if (firstAccepted[s]! < 0) firstAccepted[s] = now;
      }
    }
  }
  t.true(Math.max(...accepted) - Math.min(...accepted) <= 1, `accepted per source: ${accepted.join(', ')}`);
  t.true(Math.max(...firstAccepted) <= 8, `first accepted at: ${firstAccepted.join(', ')}`);
});

test('a source that stops retrying loses its place; the next waiter gets the slot', (t) => {
  const net = new FlitCrossbar(3, 1, 1, 40, 1);
  t.true(net.tryPush(0, 0, req(0), 0, 0));
  t.false(net.tryPush(1, 0, req(1), 0, 1), 'full: source 1 waits');
  t.false(net.tryPush(2, 0, req(2), 0, 1), 'full: source 2 waits behind it');
  // Only source 2 keeps asking.
  t.false(net.tryPush(2, 0, req(2), 0, 2));
  t.false(net.tryPush(2, 0, req(2), 0, 3));
  t.truthy(net.receive(0, 4));
  // Source 1 comes back after two cycles away: its place lapsed, source 2 is first now.
  t.false(net.tryPush(1, 0, req(1), 0, 4));
  t.true(net.tryPush(2, 0, req(2), 0, 4));
});
