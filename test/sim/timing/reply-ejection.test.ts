import test from 'ava';
import { LocalCrossbar } from '../../../src/sim/timing/local-crossbar.js';
import { MemLatencyStats } from '../../../src/sim/timing/mem-latency-stats.js';
import { type MemRequest, ReqKind, ReqSource } from '../../../src/sim/timing/mem-request.js';
import { ReplyEjection } from '../../../src/sim/timing/reply-ejection.js';

const reply = (line: number, source = ReqSource.Shader): MemRequest => ({ line, bytes: 32, kind: ReqKind.Load, source, sm: 0, subPartition: 0, waiters: null, sentAt: 0, createdAt: 0, returnAt: 0, uncached: false, mshrKey: -1, words: 0xff });

/** A reply subnet of one sub-partition and one SM, holding `lines` already moved to the SM's output. */
function netWith(lines: number[], source = ReqSource.Shader): LocalCrossbar {
  const net = new LocalCrossbar(1, 1, 1, 0, { inBufferLimit: 512, outBufferLimit: 512, arbiter: 1, grantCycles: 1 });
  for (const l of lines) {
    net.tryPush(0, 0, reply(l, source), 32, 0);
    net.advance(0);
  }
  return net;
}

function sink(): { got: [number, number][]; onReply(r: MemRequest, now: number): void } {
  const got: [number, number][] = [];
  return { got, onReply: (r, now) => got.push([r.line, now]) };
}

test('a reply taken off the network reaches the SM the next cycle, one per cycle (simt_core_cluster::icnt_cycle)', (t) => {
  const net = netWith([1, 2, 3]);
  const ej = new ReplyEjection(1, 32, 2, 1, new MemLatencyStats());
  const s = sink();
  for (let now = 1; now <= 5; now++) ej.cycle(0, now, net, s);
  t.deepEqual(s.got, [[1, 2], [2, 3], [3, 4]]);
  t.true(ej.idle());
});

test('icnt2sh ends when the reply leaves the cluster FIFO', (t) => {
  const net = netWith([1]);
  const m = new MemLatencyStats();
  const ej = new ReplyEjection(1, 32, 2, 1, m);
  const s = sink();
  ej.cycle(0, 1, net, s);
  ej.cycle(0, 2, net, s);
  t.is(m.responses, 1);
  t.is(m.icnt2shSum, 2, 'returned at 0, popped from the FIFO at 2');
});

test('a fill port busy for several cycles backs the LD/ST response queue up into the cluster FIFO, then the network', (t) => {
  const net = netWith([1, 2, 3, 4, 5, 6]);
  // Fill port held 4 cycles per reply (e.g. a 128 B line over a 32 B port), response queue 2, FIFO 2.
  const ej = new ReplyEjection(1, 2, 2, 4, new MemLatencyStats());
  const s = sink();
  for (let now = 1; now <= 30; now++) ej.cycle(0, now, net, s);
  t.deepEqual(s.got.map(([, at]) => at), [2, 6, 10, 14, 18, 22], 'one fill every 4 cycles');
  t.deepEqual(s.got.map(([l]) => l), [1, 2, 3, 4, 5, 6], 'in order');
});

test('RT-unit replies skip the L1D fill port but wait for room in the LD/ST response queue', (t) => {
  const net = netWith([1, 2, 3], ReqSource.Rt);
  const ej = new ReplyEjection(1, 32, 2, 4, new MemLatencyStats());
  const s = sink();
  for (let now = 1; now <= 5; now++) ej.cycle(0, now, net, s);
  t.deepEqual(s.got, [[1, 2], [2, 3], [3, 4]], 'one per cycle: the fill port does not hold them');
});

test('a full cluster FIFO leaves replies in the network', (t) => {
  const net = netWith([1, 2, 3, 4]);
  const ej = new ReplyEjection(1, 1, 1, 100, new MemLatencyStats());
  const s = sink();
  ej.cycle(0, 1, net, s); // 1 into the FIFO
  ej.cycle(0, 2, net, s); // 1 to the response queue and filled; 2 into the FIFO
  ej.cycle(0, 3, net, s); // the response queue is empty again: 2 moves in, waits for the port; 3 into the FIFO
  ej.cycle(0, 4, net, s); // the response queue is full: 3 stays, 4 stays in the network
  t.true(ej.holds(0));
  t.is(net.nextArrival(0), -Infinity, 'reply 4 is still in the network');
});
