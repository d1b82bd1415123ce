/**
 * One direction of the network between SMs and memory sub-partitions, as its users see it:
 * requests go SM -> L2 on one instance, replies L2 -> SM on another. Two models implement it,
 * chosen by `network_mode`: the flit crossbar (interconnect.ts, mode 1) and GPGPU-Sim's local
 * crossbar (local-crossbar.ts, mode 2).
 *
 * Sources and destinations are numbered on their own side (SM id; sub-partition id). A sender
 * whose `tryPush` is refused keeps the packet and retries (back-pressure); `receive` hands a
 * destination the packets that have arrived, in arrival order.
 */
import type { MemRequest } from './mem-request.js';

export interface Network {
  /** Packets accepted so far. */
  readonly packets: number;
  /** Bytes accepted so far (payload and header). */
  readonly bytes: number;
  /** Push attempts refused by back-pressure. */
  readonly stalls: number;
  tryPush(src: number, dst: number, req: MemRequest, payloadBytes: number, now: number): boolean;
  /** The next packet for `dst` that has arrived by `now`, removed from the network. */
  receive(dst: number, now: number): MemRequest | undefined;
  /** The cycle the next packet for `dst` is available (Infinity when none is on its way there). */
  nextArrival(dst: number): number;
  /** A lower bound on the cycle the next packet for any destination is available (Infinity when none is on its way). */
  nextDelivery(): number;
  /** Moves packets through the network: called once per cycle, after the memory side and before the SMs. */
  advance(now: number): void;
  /** GPGPU-Sim's local crossbar counters (local_interconnect.cc); null for a network without its FIFOs. */
  counters(): CrossbarCounters | null;
  /** Earliest cycle at which anything in the network can change (for event skipping). */
  nextEvent(now: number): number;
  idle(): boolean;
}

/** What GPGPU-Sim's xbar_router counts, for its DisplayStats lines. */
export interface CrossbarCounters {
  /** Packets injected (packets_num). */
  packets: number;
  /** Packets held in the input and output FIFOs, summed over every cycle after the packets moved (in_buffer_util, out_buffer_util). */
  inSum: number;
  outSum: number;
  /** Cycles in which some input FIFO held a packet (cycles_util). */
  activeCycles: number;
  /** Packets moved to output FIFOs in those cycles (reqs_util). */
  movedActive: number;
  /** Head-of-line conflicts in those cycles (conflicts_util): under iSLIP, inputs whose head packet is for an output an earlier input's head is for. */
  conflictsActive: number;
}

/** Header bytes of every packet (address, command). */
export const PACKET_HEADER_BYTES = 8;
