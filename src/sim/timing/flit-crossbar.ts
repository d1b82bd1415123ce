/**
 * The flit crossbar (`network_mode 1`; vvision's stand-in for GPGPU-Sim's BookSim network, whose
 * topology and routers it does not model): one direction of the crossbar between SMs and memory
 * sub-partitions (requests go SM -> L2 on one instance, replies L2 -> SM on another). Each source port moves `flitBytes` per cycle, so a
 * packet occupies its port for ceil(bytes / flit) cycles; it arrives `latency` cycles after its
 * last flit leaves, into a bounded per-destination buffer. A full buffer or a busy port makes
 * `tryPush` return false and the sender retries next cycle.
 *
 * A destination buffer that frees a slot grants it to the source refused longest ago (oldest
 * first, a crossbar's fair arbitration), not to whichever source happens to ask first in the cycle:
 * the GPU ticks SMs in index order, so first-come would let SM 0 win every freed slot of a hot L2
 * bank and starve the highest-numbered SMs (issue 26: SM 25's L1 miss-queue head waited 50,000
 * cycles on bank 10 in `ao` on baseline at 256x256 2 spp). A source that stops retrying (it did
 * not ask in the last cycle) loses its place.
 *
 * Invariants: per-destination delivery order equals acceptance order; no packet is dropped; a
 * source is accepted into a buffer only if it has more free slots than sources waiting ahead of it.
 */
import type { MemRequest } from './mem-request.js';
import { type Network, PACKET_HEADER_BYTES } from './network.js';
import { TimedQueue } from './timed-queue.js';

export class FlitCrossbar implements Network {
  private readonly portBusyUntil: Float64Array;
  private readonly inbox: TimedQueue<MemRequest>[];
  /** Per destination: the sources its full buffer refused, oldest first, with the last cycle each asked. */
  private readonly waiting: { src: number; at: number }[][];
  packets = 0;
  bytes = 0;
  /** Push attempts refused by back-pressure. */
  stalls = 0;
  /** Packets accepted and not yet received. */
  private inFlight = 0;

  constructor(
    sources: number,
    destinations: number,
    private readonly latency: number,
    private readonly flitBytes: number,
    bufferPackets: number,
  ) {
    this.portBusyUntil = new Float64Array(sources);
    this.inbox = Array.from({ length: destinations }, () => new TimedQueue<MemRequest>(bufferPackets));
    this.waiting = Array.from({ length: destinations }, () => []);
  }

  tryPush(src: number, dst: number, req: MemRequest, payloadBytes: number, now: number): boolean {
    const q = this.inbox[dst]!;
    if (this.portBusyUntil[src]! > now) {
      this.stalls++;
      return false;
    }
    const w = this.waiting[dst]!;
    if (w.length > 0 || q.full) {
      // Sources that did not retry since the last cycle have given up their place.
      let k = 0;
      for (const e of w) if (e.at >= now - 1) w[k++] = e;
      w.length = k;
      let ahead = w.findIndex((e) => e.src === src);
      const queued = ahead >= 0;
      if (!queued) ahead = w.length;
      if (q.capacity - q.length <= ahead) {
        if (queued) w[ahead]!.at = now;
        else w.push({ src, at: now });
        this.stalls++;
        return false;
      }
      if (queued) w.splice(ahead, 1);
    }
    const bytes = payloadBytes + PACKET_HEADER_BYTES;
    const flits = Math.ceil(bytes / this.flitBytes);
    this.portBusyUntil[src] = now + flits;
    q.tryPush(req, now + flits - 1 + this.latency);
    this.inFlight++;
    this.packets++;
    this.bytes += bytes;
    return true;
  }

  /** The next packet for `dst` that has arrived by `now`, removed from the buffer. */
  receive(dst: number, now: number): MemRequest | undefined {
    const q = this.inbox[dst]!;
    if (q.peek(now) === undefined) return undefined;
    this.inFlight--;
    return q.pop();
  }

  nextDelivery(): number {
    return this.inFlight > 0 ? -Infinity : Infinity;
  }

  /** Packets move on their own timers: nothing to do per cycle. */
  advance(_now: number): void {}

  /** The flit crossbar has no GPGPU-Sim input and output FIFOs to report. */
  counters(): null {
    return null;
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
