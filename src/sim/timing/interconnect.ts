/**
 * One direction of the crossbar between SMs and memory sub-partitions (requests go SM -> L2 on
 * one instance, replies L2 -> SM on another). Each source port moves `flitBytes` per cycle, so a
 * packet occupies its port for ceil(bytes / flit) cycles; it arrives `latency` cycles after its
 * last flit leaves, into a bounded per-destination buffer. A full buffer or a busy port makes
 * `tryPush` return false and the sender retries next cycle.
 *
 * Invariants: per-destination delivery order equals acceptance order; no packet is dropped.
 */
import type { MemRequest } from './mem-request.js';
import { TimedQueue } from './timed-queue.js';

/** Header bytes of every packet (address, command). */
export const PACKET_HEADER_BYTES = 8;

export class Interconnect {
  private readonly portBusyUntil: Float64Array;
  private readonly inbox: TimedQueue<MemRequest>[];
  packets = 0;
  bytes = 0;
  /** Push attempts refused by back-pressure. */
  stalls = 0;

  constructor(
    sources: number,
    destinations: number,
    private readonly latency: number,
    private readonly flitBytes: number,
    bufferPackets: number,
  ) {
    this.portBusyUntil = new Float64Array(sources);
    this.inbox = Array.from({ length: destinations }, () => new TimedQueue<MemRequest>(bufferPackets));
  }

  tryPush(src: number, dst: number, req: MemRequest, payloadBytes: number, now: number): boolean {
    const q = this.inbox[dst]!;
    if (this.portBusyUntil[src]! > now || q.full) {
      this.stalls++;
      return false;
    }
    const bytes = payloadBytes + PACKET_HEADER_BYTES;
    const flits = Math.ceil(bytes / this.flitBytes);
    this.portBusyUntil[src] = now + flits;
    q.tryPush(req, now + flits - 1 + this.latency);
    this.packets++;
    this.bytes += bytes;
    return true;
  }

  /** The next packet for `dst` that has arrived by `now`, removed from the buffer. */
  receive(dst: number, now: number): MemRequest | undefined {
    const q = this.inbox[dst]!;
    if (q.peek(now) === undefined) return undefined;
    return q.pop();
  }

  nextArrival(dst: number): number {
    return this.inbox[dst]!.nextReady();
  }

  /** Earliest cycle any port frees or any packet arrives (for event skipping). */
  nextEvent(now: number): number {
    let t = Infinity;
    for (const q of this.inbox) t = Math.min(t, q.nextReady());
    return t <= now ? now + 1 : t;
  }

  idle(): boolean {
    return this.inbox.every((q) => q.length === 0);
  }
}
