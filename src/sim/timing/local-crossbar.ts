/**
 * GPGPU-Sim's local crossbar (`network_mode 2`, local_interconnect.cc `xbar_router`), one subnet:
 * every node (SMs first, then memory sub-partitions, GPGPU-Sim's device numbering) has an input
 * FIFO of `icnt_in_buffer_limit` packets and an output FIFO of `icnt_out_buffer_limit`. Each cycle
 * (`advance`) moves packets from the heads of input FIFOs to output FIFOs, at most one per output,
 * arbitrated by iSLIP (`icnt_arbiter_algo 1`: each output grants the first requesting input after
 * its round-robin pointer, which moves past the granted input every `icnt_grant_cycles` active
 * cycles) or naive round robin (0: inputs visited from a rotating start, each output taking one).
 * Packets have no size here: "all the packets are one flit", so a 128-byte reply moves in one cycle
 * like a read request, and only input heads move (head-of-line blocking).
 *
 * Latency follows GPGPU-Sim's cycle order (gpu-sim.cc): a packet pushed by an SM in cycle t moves
 * at the advance of cycle t+1 and is taken by its destination in cycle t+2.
 *
 * It keeps GPGPU-Sim's DisplayStats counters (`counters()`): packets injected, packets held in the
 * FIFOs per cycle, and, over the cycles some input holds a packet, the packets moved and the head
 * conflicts (under iSLIP, counted before arbitration as iSLIP_Advance does: busy inputs minus the
 * outputs their heads are for).
 *
 * Invariants: a packet is never dropped or reordered between one input and one output; an input
 * FIFO never holds more than its limit (a push into a full one is refused); an output FIFO never
 * exceeds its limit.
 */
import type { MemRequest } from './mem-request.js';
import { type CrossbarCounters, type Network, PACKET_HEADER_BYTES } from './network.js';

export interface LocalCrossbarConfig {
  inBufferLimit: number;
  outBufferLimit: number;
  /** 0 naive round robin, 1 iSLIP. */
  arbiter: 0 | 1;
  grantCycles: number;
}

/**
 * A FIFO of packets and their output nodes: a ring that doubles when full and never shrinks, so a
 * busy port allocates nothing per packet (issue 25.2: re-growing emptied arrays was a fifth of the
 * timing model's allocation).
 */
class PacketFifo {
  private reqs: (MemRequest | undefined)[] = new Array<MemRequest | undefined>(16).fill(undefined);
  private dsts = new Int32Array(16);
  private head = 0;
  length = 0;
  push(req: MemRequest, dst: number): void {
    if (this.length === this.dsts.length) this.grow();
    const i = (this.head + this.length) & (this.dsts.length - 1);
    this.reqs[i] = req;
    this.dsts[i] = dst;
    this.length++;
  }
  frontDst(): number {
    return this.dsts[this.head]!;
  }
  shift(): MemRequest {
    const r = this.reqs[this.head]!;
    this.reqs[this.head] = undefined;
    this.head = (this.head + 1) & (this.dsts.length - 1);
    this.length--;
    return r;
  }
  private grow(): void {
    const n = this.dsts.length;
    const reqs = new Array<MemRequest | undefined>(2 * n).fill(undefined);
    const dsts = new Int32Array(2 * n);
    for (let k = 0; k < n; k++) {
      reqs[k] = this.reqs[(this.head + k) & (n - 1)];
      dsts[k] = this.dsts[(this.head + k) & (n - 1)]!;
    }
    this.reqs = reqs;
    this.dsts = dsts;
    this.head = 0;
  }
}

/**
 * One subnet. `srcBase` / `dstBase` place the sides in the node numbering: the request subnet
 * has sources at 0 (SMs) and destinations at `nShader`; the reply subnet the other way round.
 */
export class LocalCrossbar implements Network {
  private readonly total: number;
  private readonly inQ: PacketFifo[];
  private readonly outQ: PacketFifo[];
  /** Per output node: inputs whose head packet is for it. */
  private readonly headsFor: Int32Array;
  /** Per input node: the output its head packet is for, -1 when empty (the arbiters scan these, not the FIFOs). */
  private readonly headDst: Int32Array;
  /** Per output node: packets in its output FIFO. */
  private readonly outLength: Int32Array;
  /** iSLIP: per output, the input its search starts at. */
  private readonly nextNode: Int32Array;
  /** Round robin: the input the scan starts at. */
  private nextNodeId = 0;
  private grantCount: number;
  private readonly issued: Uint8Array;
  /** The input nodes [srcLo, srcHi) and output nodes [dstLo, dstHi) of this subnet: iSLIP scans only these (no other node ever holds a packet). */
  private readonly srcLo: number;
  private readonly srcHi: number;
  private readonly dstLo: number;
  private readonly dstHi: number;
  private queuedIn = 0;
  private queuedOut = 0;
  packets = 0;
  bytes = 0;
  stalls = 0;
  /** Cycles an output FIFO was full when a packet could have moved (GPGPU-Sim out_buffer_full). */
  outBufferFull = 0;
  /** Packets held in input / output FIFOs, summed over cycles (GPGPU-Sim in_buffer_util, out_buffer_util). */
  private inUtil = 0;
  private outUtil = 0;
  /** Cycles some input held a packet (GPGPU-Sim cycles_util), the packets moved in them (reqs_util), and the head conflicts in them (conflicts_util). */
  private activeCycles = 0;
  private movedActive = 0;
  private conflictsActive = 0;
  /** Inputs holding a packet, and outputs some input's head is for: their difference is iSLIP's head conflicts. */
  private busyInputs = 0;
  private headOutputs = 0;

  constructor(
    nShader: number,
    nMem: number,
    private readonly srcBase: number,
    private readonly dstBase: number,
    private readonly cfg: LocalCrossbarConfig,
  ) {
    this.total = nShader + nMem;
    this.inQ = Array.from({ length: this.total }, () => new PacketFifo());
    this.outQ = Array.from({ length: this.total }, () => new PacketFifo());
    this.headsFor = new Int32Array(this.total);
    this.headDst = new Int32Array(this.total).fill(-1);
    this.outLength = new Int32Array(this.total);
    this.nextNode = new Int32Array(this.total);
    this.issued = new Uint8Array(this.total);
    this.grantCount = cfg.grantCycles;
    this.srcLo = srcBase;
    this.srcHi = srcBase < dstBase ? dstBase : this.total;
    this.dstLo = dstBase;
    this.dstHi = dstBase < srcBase ? srcBase : this.total;
  }

  tryPush(src: number, dst: number, req: MemRequest, payloadBytes: number, now: number): boolean {
    const input = this.inQ[this.srcBase + src]!;
    if (input.length + 1 > this.cfg.inBufferLimit) {
      this.stalls++;
      return false;
    }
    const out = this.dstBase + dst;
    if (input.length === 0) {
      if (this.headsFor[out]!++ === 0) this.headOutputs++;
      this.headDst[this.srcBase + src] = out;
      this.busyInputs++;
    }
    input.push(req, out);
    this.queuedIn++;
    this.packets++;
    this.bytes += payloadBytes + PACKET_HEADER_BYTES;
    return true;
  }

  receive(dst: number, now: number): MemRequest | undefined {
    const out = this.dstBase + dst;
    if (this.outLength[out] === 0) return undefined;
    this.outLength[out]!--;
    this.queuedOut--;
    return this.outQ[out]!.shift();
  }

  nextArrival(dst: number): number {
    return this.outLength[this.dstBase + dst]! > 0 ? -Infinity : Infinity;
  }

  nextDelivery(): number {
    return this.queuedOut > 0 ? -Infinity : Infinity;
  }

  advance(_now: number): void {
    if (this.queuedIn > 0) {
      this.activeCycles++;
      if (this.cfg.arbiter === 1) {
        // iSLIP_Advance's count before it arbitrates: inputs whose head is for an output an earlier input's head is for.
        this.conflictsActive += this.busyInputs - this.headOutputs;
        this.islip();
      } else this.roundRobin();
    }
    // A cycle the GPU skips is one in which this subnet holds nothing, so summing per call is exact.
    this.inUtil += this.queuedIn;
    this.outUtil += this.queuedOut;
  }

  counters(): CrossbarCounters {
    return {
      packets: this.packets, inSum: this.inUtil, outSum: this.outUtil,
      activeCycles: this.activeCycles, movedActive: this.movedActive, conflictsActive: this.conflictsActive,
    };
  }

  /** xbar_router::iSLIP_Advance. */
  private islip(): void {
    const total = this.total;
    const limit = this.cfg.outBufferLimit;
    for (let i = this.dstLo; i < this.dstHi; i++) {
      if (this.outLength[i]! + 1 > limit) {
        this.outBufferFull++;
        continue;
      }
      if (this.headsFor[i] === 0) continue;
      // The first input from nextNode[i] on, cyclically over all nodes, whose head is for i.
      const node = this.grantedInput(i, this.nextNode[i]!);
      this.move(node, i);
      if (this.grantCount === 1) this.nextNode[i] = (node + 1) % total;
    }
    // GPGPU-Sim counts grant cycles only while some input holds a packet (true here).
    if (this.grantCount === 1) this.grantCount = this.cfg.grantCycles;
    else this.grantCount--;
  }

  /** The first input node at or after `start` (cyclically) whose head packet is for output `out`; headsFor[out] > 0 guarantees one. */
  private grantedInput(out: number, start: number): number {
    for (let node = Math.max(start, this.srcLo); node < this.srcHi; node++) if (this.headDst[node] === out) return node;
    const end = Math.min(start, this.srcHi);
    for (let node = this.srcLo; node < end; node++) if (this.headDst[node] === out) return node;
    throw new Error(`internal: output ${out} has a head packet counted but no input holds it`);
  }

  /** xbar_router::RR_Advance. */
  private roundRobin(): void {
    const total = this.total;
    const limit = this.cfg.outBufferLimit;
    this.issued.fill(0);
    for (let i = 0; i < total; i++) {
      const node = (i + this.nextNodeId) % total;
      const out = this.headDst[node]!;
      if (out < 0) continue;
      if (this.outLength[out]! + 1 > limit) {
        this.outBufferFull++;
        if (this.issued[out] === 1) this.conflictsActive++;
        continue;
      }
      if (this.issued[out] === 1) {
        this.conflictsActive++;
        continue;
      }
      this.move(node, out);
      this.issued[out] = 1;
    }
    this.nextNodeId = (this.nextNodeId + 1) % total;
  }

  /** Moves the head packet of input node `node` to output `out`. */
  private move(node: number, out: number): void {
    const input = this.inQ[node]!;
    if (--this.headsFor[out]! === 0) this.headOutputs--;
    this.outQ[out]!.push(input.shift(), out);
    this.outLength[out]!++;
    if (input.length > 0) {
      const next = input.frontDst();
      if (this.headsFor[next]!++ === 0) this.headOutputs++;
      this.headDst[node] = next;
    } else {
      this.headDst[node] = -1;
      this.busyInputs--;
    }
    this.queuedIn--;
    this.queuedOut++;
    this.movedActive++;
  }

  nextEvent(now: number): number {
    return this.queuedIn > 0 || this.queuedOut > 0 ? now + 1 : Infinity;
  }

  idle(): boolean {
    return this.queuedIn === 0 && this.queuedOut === 0;
  }
}
