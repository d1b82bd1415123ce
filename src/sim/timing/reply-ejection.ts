/**
 * The reply path from the interconnect into the SMs, as GPGPU-Sim has it
 * (simt_core_cluster::icnt_cycle, ldst_unit::cycle):
 * - each cluster takes at most one reply per cycle off the network into its ejection FIFO
 *   (`gpgpu_n_cluster_ejection_buffer_size` packets; a full FIFO leaves replies in the network);
 * - before that, in the same cycle, the FIFO's head goes to the SM, but only while the LD/ST
 *   unit's response queue has room (`gpgpu_n_ldst_response_buffer_size`). That check holds for
 *   RT-unit replies too, which then go to the RT unit's own response FIFO (unbounded, one per
 *   cycle: here, straight to the RT unit);
 * - the LD/ST response queue fills the L1D one reply per cycle when the L1D's fill port is free
 *   (a fill holds the port `fillPortCycles` cycles: a sector or line over the data port width).
 * A reply therefore reaches the SM no sooner than the cycle after the cluster took it, which is
 * where GPGPU-Sim's `icnt2sh` latency ends (its memlatstat_read_done at the FIFO's pop).
 *
 * vvision's SMs are clusters of one (every preset has one core per cluster), so the FIFOs are
 * per SM.
 *
 * Invariants: replies leave each FIFO and queue in arrival order; a FIFO never holds more than
 * its size, a response queue never more than its size; every reply taken off the network is
 * delivered exactly once.
 */
import type { MemRequest } from './mem-request.js';
import { ReqSource } from './mem-request.js';
import type { MemLatencyStats } from './mem-latency-stats.js';
import type { Network } from './network.js';
import { TimedQueue } from './timed-queue.js';

export interface ReplySink {
  /** A reply enters SM `sm` (its L1D fill, or the RT unit). */
  onReply(req: MemRequest, now: number): void;
}

export class ReplyEjection {
  /** Per SM: the cluster's ejection FIFO and the LD/ST response queue (bounded FIFOs; every entry is ready when pushed). */
  private readonly cluster: TimedQueue<MemRequest>[];
  private readonly ldst: TimedQueue<MemRequest>[];
  /** Per SM: the first cycle its L1D fill port is free again. */
  private readonly fillFreeAt: Float64Array;
  /** Replies held in any FIFO or response queue (the path has work while this is non-zero). */
  private held = 0;

  constructor(
    sms: number,
    clusterBuffer: number,
    ldstResponseBuffer: number,
    private readonly fillCycles: number,
    private readonly memLatency: MemLatencyStats,
  ) {
    this.cluster = Array.from({ length: sms }, () => new TimedQueue<MemRequest>(clusterBuffer));
    this.ldst = Array.from({ length: sms }, () => new TimedQueue<MemRequest>(ldstResponseBuffer));
    this.fillFreeAt = new Float64Array(sms);
  }

  /**
   * One core cycle for SM `i`, in GPGPU-Sim's order: the FIFO's head moves on, a reply comes off
   * the network into the FIFO, then the LD/ST unit fills the L1D from its queue. Returns true if a
   * reply reached the SM (it must tick this cycle).
   */
  cycle(i: number, now: number, net: Network, sm: ReplySink): boolean {
    const fifo = this.cluster[i]!;
    const ldst = this.ldst[i]!;
    let delivered = false;
    if (fifo.length > 0 && !ldst.full) {
      const r = fifo.pop();
      this.readDone(r, now);
      if (r.source === ReqSource.Rt) {
        this.held--;
        sm.onReply(r, now);
        delivered = true;
      } else ldst.tryPush(r, now);
    }
    if (!fifo.full) {
      const r = net.receive(i, now);
      if (r !== undefined) {
        fifo.tryPush(r, now);
        this.held++;
      }
    }
    if (ldst.length > 0 && now >= this.fillFreeAt[i]!) {
      this.held--;
      sm.onReply(ldst.pop(), now);
      // The port frees when the occupied cycles have been replenished, one per cycle from this one.
      this.fillFreeAt[i] = now + Math.max(1, this.fillCycles);
      delivered = true;
    }
    return delivered;
  }

  /** True when SM `i` has a reply in its FIFO or response queue. */
  holds(i: number): boolean {
    return this.cluster[i]!.length > 0 || this.ldst[i]!.length > 0;
  }

  /** No reply is held anywhere on the path. */
  idle(): boolean {
    return this.held === 0;
  }

  /** GPGPU-Sim memlatstat_read_done: the reply leaves the cluster's FIFO. */
  private readDone(r: MemRequest, now: number): void {
    const m = this.memLatency;
    m.responses++;
    m.responseLatencySum += now - r.createdAt;
    m.icnt2shSum += now - r.returnAt;
    if (now - r.createdAt > m.maxResponseLatency) m.maxResponseLatency = now - r.createdAt;
    if (now - r.returnAt > m.maxIcnt2sh) m.maxIcnt2sh = now - r.returnAt;
  }
}
