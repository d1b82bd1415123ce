/**
 * One DRAM channel: a request queue scheduled FR-FCFS (row hits first, then oldest; or plain FIFO),
 * banks with open rows and activate/precharge/column timing (tRCD, tRP, tRAS, tCL, tWL, tCCD), and a
 * shared data bus. Times are kept in core cycles (fractional): DRAM-clock timings are scaled by
 * core MHz / DRAM MHz at construction.
 *
 * Statistics follow Vulkan-Sim VI-C: `dram_eff` = cycles the bus transferred data / cycles with a
 * request waiting at the scheduler; `bwutil` = cycles the bus transferred data / all cycles.
 *
 * Invariants: at most one command issues per core cycle; a bank never starts a column access
 * before its row is open; completed reads leave through `returns` in completion order.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import { type AddressMap, bankOf, rowOf } from './address-map.js';
import { type MemRequest, ReqKind } from './mem-request.js';

export class DramStats {
  reads = 0;
  writes = 0;
  rowHits = 0;
  rowMisses = 0;
  /** Core cycles the data bus was transferring. */
  busBusy = 0;
  /** Core cycles with a request queued at the scheduler or its data still on the bus. */
  pendingCycles = 0;
  /** Sum of (return - arrival) over reads, core cycles. */
  readLatencySum = 0;
  add(o: DramStats): void {
    this.reads += o.reads;
    this.writes += o.writes;
    this.rowHits += o.rowHits;
    this.rowMisses += o.rowMisses;
    this.busBusy += o.busBusy;
    this.pendingCycles += o.pendingCycles;
    this.readLatencySum += o.readLatencySum;
  }
}

interface Queued {
  req: MemRequest;
  bank: number;
  row: number;
  arrival: number;
}

export class DramChannel {
  private readonly queue: Queued[] = [];
  private readonly openRow: Float64Array;
  private readonly bankReadyAt: Float64Array;
  private readonly activatedAt: Float64Array;
  private busFreeAt = 0;
  private lastTick = 0;
  /** Completed reads (and atomics) with their return cycle, in completion order. */
  private readonly done: { req: MemRequest; at: number }[] = [];
  readonly stats = new DramStats();
  private readonly t: { CCD: number; RCD: number; RAS: number; RP: number; CL: number; WL: number };
  private readonly cyclesPerByte: number;
  /** A burst of BL beats (two per DRAM clock) is the smallest transfer. */
  private readonly minBurstBytes: number;
  private readonly returnLatency: number;
  private readonly capacity: number;
  private readonly frfcfs: boolean;

  constructor(cfg: GpuConfig, private readonly map: AddressMap) {
    const r = cfg.clocks.coreMhz / cfg.clocks.dramMhz;
    const d = cfg.dram;
    this.t = { CCD: d.CCD * r, RCD: d.RCD * r, RAS: d.RAS * r, RP: d.RP * r, CL: d.CL * r, WL: d.WL * r };
    // One beat of (chips x bus width) bytes per DRAM clock.
    this.cyclesPerByte = r / (d.busBytesPerChip * d.chipsPerChannel);
    this.minBurstBytes = (d.burstLength / 2) * d.busBytesPerChip * d.chipsPerChannel;
    this.returnLatency = d.returnLatency;
    this.capacity = d.queueSize;
    this.frfcfs = d.frfcfs;
    this.openRow = new Float64Array(d.nbk).fill(-1);
    this.bankReadyAt = new Float64Array(d.nbk);
    this.activatedAt = new Float64Array(d.nbk).fill(-Infinity);
  }

  get full(): boolean {
    return this.queue.length >= this.capacity;
  }

  tryPush(req: MemRequest, now: number): boolean {
    if (this.queue.length >= this.capacity) return false;
    this.accountPending(now);
    this.queue.push({ req, bank: bankOf(this.map, req.addr), row: rowOf(this.map, req.addr), arrival: now });
    return true;
  }

  /** Pops a completed read whose data is back by `now`. */
  popReturn(now: number): MemRequest | undefined {
    const head = this.done[0];
    if (head === undefined || head.at > now) return undefined;
    this.done.shift();
    return head.req;
  }

  cycle(now: number): void {
    this.accountPending(now);
    if (this.queue.length === 0) return;
    const pick = this.choose(now);
    if (pick < 0) return;
    const q = this.queue[pick]!;
    this.queue.splice(pick, 1);
    const b = q.bank;
    let colAt = Math.max(now, this.bankReadyAt[b]!);
    if (this.openRow[b] === q.row) {
      this.stats.rowHits++;
    } else {
      this.stats.rowMisses++;
      let actAt = colAt;
      if (this.openRow[b] !== -1) actAt = Math.max(colAt, this.activatedAt[b]! + this.t.RAS) + this.t.RP;
      this.activatedAt[b] = actAt;
      this.openRow[b] = q.row;
      colAt = actAt + this.t.RCD;
    }
    this.bankReadyAt[b] = colAt + this.t.CCD;
    const isWrite = q.req.kind === ReqKind.Store;
    const dataStart = Math.max(colAt + (isWrite ? this.t.WL : this.t.CL), this.busFreeAt);
    const burst = Math.max(q.req.bytes, this.minBurstBytes) * this.cyclesPerByte;
    this.busFreeAt = dataStart + burst;
    this.stats.busBusy += burst;
    if (isWrite) {
      this.stats.writes++;
      return;
    }
    this.stats.reads++;
    const at = Math.ceil(this.busFreeAt) + this.returnLatency;
    this.stats.readLatencySum += at - q.arrival;
    // Completion times are monotone because the bus serialises data transfers.
    this.done.push({ req: q.req, at });
  }

  /** FR-FCFS: oldest row hit on a ready bank, else oldest request on a ready bank. */
  private choose(now: number): number {
    if (!this.frfcfs) return this.bankReadyAt[this.queue[0]!.bank]! <= now + 1 ? 0 : -1;
    let firstReady = -1;
    for (let i = 0; i < this.queue.length; i++) {
      const q = this.queue[i]!;
      if (this.bankReadyAt[q.bank]! > now + 1) continue;
      if (this.openRow[q.bank] === q.row) return i;
      if (firstReady < 0) firstReady = i;
    }
    return firstReady;
  }

  private accountPending(now: number): void {
    if (now > this.lastTick) {
      // A request counts as pending from arrival until its data has crossed the bus.
      if (this.queue.length > 0) this.stats.pendingCycles += now - this.lastTick;
      else if (this.busFreeAt > this.lastTick) this.stats.pendingCycles += Math.min(now, this.busFreeAt) - this.lastTick;
      this.lastTick = now;
    }
  }

  /** Closes the pending-cycles account at the end of simulation. */
  finish(now: number): void {
    this.accountPending(now);
  }

  /** No request waits at the scheduler (returns may still be in flight). */
  quiet(): boolean {
    return this.queue.length === 0;
  }

  nextReturn(): number {
    return this.done.length > 0 ? this.done[0]!.at : Infinity;
  }

  nextEvent(now: number): number {
    let t = Infinity;
    if (this.done.length > 0) t = this.done[0]!.at;
    if (this.queue.length > 0) {
      let bank = Infinity;
      for (const q of this.queue) bank = Math.min(bank, this.bankReadyAt[q.bank]!);
      t = Math.min(t, Math.max(now + 1, Math.ceil(bank - 1)));
    }
    return t <= now ? now + 1 : t;
  }

  idle(): boolean {
    return this.queue.length === 0 && this.done.length === 0;
  }
}
