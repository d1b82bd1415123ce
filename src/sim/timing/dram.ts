/**
 * One DRAM channel, command by command as GPGPU-Sim's `dram_t` (dram.cc) times it: a scheduler
 * queue (FR-FCFS: per bank, the oldest request to the open row, else the oldest; or FIFO) hands
 * each idle bank one request; a bank precharges (after tRAS, read-to-precharge BL/ratio,
 * write-to-precharge tWTP and the bank group's tRTPL), activates (after tRP, tRC, and tRRD since
 * the channel's last activate) and then issues one column command per atom of
 * `BL x busW x n_mem_per_ctrlr` bytes, each after tRCD (tRCDWR for writes), tCCD since the
 * channel's last column command, tCCDL since its bank group's, and the read/write turnarounds
 * tRTW / tWTR. Read data is back CL after its last column command; `dram_latency` (core cycles)
 * is added on the way back, as GPGPU-Sim's partition latency queue does.
 *
 * Times are kept in core cycles (fractional); DRAM-clock timings are scaled by core MHz / DRAM
 * MHz. All commands whose time falls in [now, now + 1) issue in `cycle(now)`.
 *
 * Statistics follow GPGPU-Sim: `busBusy` sums BL / data_command_freq_ratio DRAM clocks per column
 * command (its `bwutil`); `pendingCycles` counts cycles with a request queued, in a bank or with
 * its data still coming (its `n_activity`); row hits are counted per request when a bank takes it
 * (its `hits_num / access_num`, Row_Buffer_Locality).
 *
 * Invariants: a bank serves one request at a time and never issues a column command before its
 * row is open; completed reads leave through `popReturn` in completion order.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { AddressMap, DecodedAddress } from './address-map.js';
import { type MemRequest, releaseRequest, ReqKind } from './mem-request.js';
import { truncate } from './truncate.js';

export class DramStats {
  reads = 0;
  writes = 0;
  rowHits = 0;
  rowMisses = 0;
  /** Core cycles of data transfer (BL / ratio DRAM clocks per column command). */
  busBusy = 0;
  /** Core cycles with a request queued, in a bank, or with its data on the way. */
  pendingCycles = 0;
  /** Sum of (return - arrival) over reads, core cycles. */
  readLatencySum = 0;
  activates = 0;
  columnCommands = 0;
  add(o: DramStats): void {
    this.reads += o.reads;
    this.writes += o.writes;
    this.rowHits += o.rowHits;
    this.rowMisses += o.rowMisses;
    this.busBusy += o.busBusy;
    this.pendingCycles += o.pendingCycles;
    this.readLatencySum += o.readLatencySum;
    this.activates += o.activates;
    this.columnCommands += o.columnCommands;
  }
}

interface Queued {
  req: MemRequest;
  bank: number;
  row: number;
  arrival: number;
  write: boolean;
}

/** DRAM timing in core cycles, derived from the config as GPGPU-Sim's memory_config::init. */
interface CoreTiming {
  CCD: number; CCDL: number; RRD: number; RCD: number; RCDWR: number; RAS: number; RP: number; RC: number;
  CL: number; RTW: number; WTR: number; WTP: number; RTP: number; RTPL: number;
  /** BL / data_command_freq_ratio: DRAM clocks the data of one column command occupies. */
  burst: number;
}

export class DramChannel {
  private readonly queue: Queued[] = [];
  /** Entries of requests a bank has finished, reused by tryPush (issue 25: one object per DRAM request). */
  private readonly freeQueued: Queued[] = [];
  /** tryPush's scratch. */
  private readonly decoded: DecodedAddress = { chip: 0, subPartition: 0, bank: 0, row: 0, col: 0 };
  /** Per bank: the request it serves (GPGPU-Sim bk[j]->mrq), its atoms left, open row and timers. */
  private readonly bankReq: (Queued | null)[];
  private readonly atomsLeft: Int32Array;
  private readonly openRow: Float64Array;
  private readonly colReadyAt: Float64Array;
  private readonly colReadyWrAt: Float64Array;
  private readonly preReadyAt: Float64Array;
  private readonly actReadyAt: Float64Array;
  private readonly groupOf: Int32Array;
  private readonly groupColAt: Float64Array;
  private readonly groupPreAt: Float64Array;
  private nextColAt = 0;
  private nextActAt = 0;
  private nextReadColAt = 0;
  private nextWriteColAt = 0;
  /** End of the last data transfer (read data CL after its column command). */
  private dataEndAt = 0;
  private busyBanks = 0;
  /** Per bank: requests for it in the scheduler queue. */
  private readonly queuedFor: Int32Array;
  /** Idle banks with a request queued: the scheduler has work only when some (no queue scan per cycle otherwise). */
  private readyBanks = 0;
  private lastTick = 0;
  /** Completed reads (and atomics) with their return cycle, in completion order. */
  private readonly done: { req: MemRequest; at: number }[] = [];
  private doneHead = 0;
  readonly stats = new DramStats();
  private readonly t: CoreTiming;
  private readonly atomBytes: number;
  private readonly returnLatency: number;
  private readonly capacity: number;
  private readonly frfcfs: boolean;
  private readonly nbk: number;

  /** gpgpu_dram_return_queue_size: completed reads held before their sub-partition takes them (0 = unlimited). */
  private readonly returnQueueSize: number;

  /** `onWriteDone` hears each completed write's sub-partition (its DRAM credit comes back). */
  constructor(cfg: GpuConfig, private readonly map: AddressMap, private readonly onWriteDone: (subPartition: number) => void = () => {}) {
    const r = cfg.clocks.coreMhz / cfg.clocks.dramMhz;
    const d = cfg.dram;
    const burst = Math.floor(d.burstLength / d.dataCommandRatio);
    const turnaround = d.rwTurnaround;
    this.t = {
      CCD: d.CCD * r, CCDL: d.CCDL * r, RRD: d.RRD * r, RCD: d.RCD * r, RCDWR: Math.max(0, d.RCD - (d.WL + 1)) * r,
      RAS: d.RAS * r, RP: d.RP * r, RC: d.RC * r, CL: d.CL * r,
      RTW: turnaround ? Math.max(0, d.CL + burst + 2 - d.WL) * r : 0,
      WTR: turnaround ? (d.WL + burst + d.CDLR) * r : 0,
      WTP: (d.WL + burst + d.WR) * r, RTP: burst * r, RTPL: d.RTPL * r, burst: burst * r,
    };
    this.atomBytes = d.burstLength * d.busBytesPerChip * d.chipsPerChannel;
    this.returnLatency = d.returnLatency;
    this.returnQueueSize = d.returnQueueSize;
    this.capacity = d.queueSize;
    this.frfcfs = d.frfcfs;
    const nbk = (this.nbk = d.nbk);
    this.bankReq = new Array<Queued | null>(nbk).fill(null);
    this.queuedFor = new Int32Array(nbk);
    this.atomsLeft = new Int32Array(nbk);
    this.openRow = new Float64Array(nbk).fill(-1);
    this.colReadyAt = new Float64Array(nbk);
    this.colReadyWrAt = new Float64Array(nbk);
    this.preReadyAt = new Float64Array(nbk);
    this.actReadyAt = new Float64Array(nbk);
    this.groupOf = new Int32Array(nbk);
    const groups = Math.max(1, d.nbkgrp);
    const tagLength = Math.round(Math.log2(Math.max(1, nbk / groups)));
    for (let b = 0; b < nbk; b++) this.groupOf[b] = d.bankGroupIndexing === 0 ? (b >> tagLength) % groups : b & (groups - 1);
    this.groupColAt = new Float64Array(groups);
    this.groupPreAt = new Float64Array(groups);
  }

  /** Bytes one column command moves (GPGPU-Sim dram_atom_size). */
  get atomSize(): number {
    return this.atomBytes;
  }

  get full(): boolean {
    return this.queue.length >= this.capacity;
  }

  tryPush(req: MemRequest, now: number): boolean {
    if (this.queue.length >= this.capacity) return false;
    this.accountPending(now);
    const a = this.map.decodeSectorInto(req.line, this.decoded);
    let q = this.freeQueued.pop();
    if (q === undefined) q = { req, bank: a.bank, row: a.row, arrival: now, write: req.kind === ReqKind.Store };
    else {
      q.req = req;
      q.bank = a.bank;
      q.row = a.row;
      q.arrival = now;
      q.write = req.kind === ReqKind.Store;
    }
    this.queue.push(q);
    if (++this.queuedFor[a.bank]! === 1 && this.bankReq[a.bank] === null) this.readyBanks++;
    return true;
  }

  /** The oldest completed read whose data is back by `now`, left in the return queue. */
  peekReturn(now: number): MemRequest | undefined {
    if (this.doneHead >= this.done.length) return undefined;
    const head = this.done[this.doneHead]!;
    return head.at > now ? undefined : head.req;
  }

  /** Pops a completed read whose data is back by `now`. */
  popReturn(now: number): MemRequest | undefined {
    if (this.doneHead >= this.done.length) return undefined;
    const head = this.done[this.doneHead]!;
    if (head.at > now) return undefined;
    this.doneHead++;
    if (this.doneHead === this.done.length) {
      truncate(this.done, 0);
      this.doneHead = 0;
    }
    return head.req;
  }

  cycle(now: number): void {
    this.accountPending(now);
    if (this.readyBanks > 0) this.schedule();
    if (this.busyBanks === 0) return;
    const end = now + 1;
    this.rowCommands(now, end);
    this.columnCommands(now, end);
  }

  /** Hands idle banks a request: FR-FCFS (open-row hit first, else oldest) or FIFO (queue head only). */
  private schedule(): void {
    if (!this.frfcfs) {
      const q = this.queue[0]!;
      if (this.bankReq[q.bank] === null) {
        this.queue.shift();
        this.take(q);
      }
      return;
    }
    let freeBanks = this.nbk - this.busyBanks;
    for (let i = 0; i < this.queue.length && freeBanks > 0; i++) {
      const q = this.queue[i]!;
      if (this.bankReq[q.bank] !== null) continue;
      let pick = i;
      if (this.openRow[q.bank] !== q.row) {
        // A later request to the bank's open row goes first.
        for (let j = i + 1; j < this.queue.length; j++) {
          const o = this.queue[j]!;
          if (o.bank === q.bank && this.openRow[o.bank] === o.row) {
            pick = j;
            break;
          }
        }
      }
      const chosen = this.queue[pick]!;
      this.queue.splice(pick, 1);
      if (pick === i) i--;
      this.take(chosen);
      freeBanks--;
    }
  }

  private take(q: Queued): void {
    // The bank was idle with (at least) this request queued.
    this.readyBanks--;
    this.queuedFor[q.bank]!--;
    this.bankReq[q.bank] = q;
    this.busyBanks++;
    this.atomsLeft[q.bank] = Math.max(1, Math.ceil(q.req.bytes / this.atomBytes));
    if (this.openRow[q.bank] === q.row) this.stats.rowHits++;
    else this.stats.rowMisses++;
    if (q.write) this.stats.writes++;
    else this.stats.reads++;
  }

  /** Precharge a bank open on another row, then activate the request's row. */
  private rowCommands(now: number, end: number): void {
    const t = this.t;
    for (let b = 0; b < this.nbk; b++) {
      const q = this.bankReq[b];
      if (q === null || this.openRow[b] === q.row) continue;
      if (this.openRow[b] !== -1) {
        const at = Math.max(now, this.preReadyAt[b]!, this.groupPreAt[this.groupOf[b]!]!);
        if (at >= end) continue;
        this.openRow[b] = -1;
        this.actReadyAt[b] = Math.max(this.actReadyAt[b]!, at + t.RP);
      }
      const at = Math.max(now, this.actReadyAt[b]!, this.nextActAt);
      if (at >= end) continue;
      this.openRow[b] = q.row;
      this.colReadyAt[b] = at + t.RCD;
      this.colReadyWrAt[b] = at + t.RCDWR;
      this.preReadyAt[b] = at + t.RAS;
      this.actReadyAt[b] = at + t.RC;
      this.nextActAt = at + t.RRD;
      this.stats.activates++;
    }
  }

  /**
   * True while the return queue is full: reads whose data is back and not yet taken fill it, and
   * GPGPU-Sim's DRAM then stops draining its read/write pipeline (dram_t::cycle), so no column
   * command issues until the partition takes one.
   */
  private returnQueueFull(now: number): boolean {
    const cap = this.returnQueueSize;
    if (cap === 0 || this.done.length - this.doneHead < cap) return false;
    const last = this.doneHead + cap - 1;
    return this.done[last]!.at <= now;
  }

  /** Column commands in time order while their earliest legal time falls in this core cycle. */
  private columnCommands(now: number, end: number): void {
    const t = this.t;
    if (this.returnQueueFull(now)) return;
    for (;;) {
      let best = -1;
      let bestAt = Infinity;
      for (let b = 0; b < this.nbk; b++) {
        const q = this.bankReq[b];
        if (q === null || this.openRow[b] !== q.row) continue;
        const at = this.columnTime(b, q, now);
        if (at < bestAt || (at === bestAt && q.arrival < this.bankReq[best]!.arrival)) {
          best = b;
          bestAt = at;
        }
      }
      if (best < 0 || bestAt >= end) return;
      const q = this.bankReq[best]!;
      const g = this.groupOf[best]!;
      this.nextColAt = bestAt + t.CCD;
      this.groupColAt[g] = bestAt + t.CCDL;
      this.stats.busBusy += t.burst;
      this.stats.columnCommands++;
      if (q.write) {
        this.nextReadColAt = Math.max(this.nextReadColAt, bestAt + t.WTR);
        this.preReadyAt[best] = Math.max(this.preReadyAt[best]!, bestAt + t.WTP);
      } else {
        this.nextWriteColAt = Math.max(this.nextWriteColAt, bestAt + t.RTW);
        this.preReadyAt[best] = Math.max(this.preReadyAt[best]!, bestAt + t.RTP);
        this.groupPreAt[g] = Math.max(this.groupPreAt[g]!, bestAt + t.RTPL);
      }
      this.dataEndAt = Math.max(this.dataEndAt, bestAt + t.CL + t.burst);
      if (--this.atomsLeft[best]! > 0) continue;
      this.bankReq[best] = null;
      if (this.queuedFor[best]! > 0) this.readyBanks++;
      this.busyBanks--;
      this.freeQueued.push(q);
      if (q.write) {
        this.onWriteDone(q.req.subPartition);
        releaseRequest(q.req);
        continue;
      }
      const at = Math.ceil(bestAt + t.CL) + this.returnLatency;
      this.stats.readLatencySum += at - q.arrival;
      // Column commands issue in time order and CL is fixed, so completions are monotone.
      this.done.push({ req: q.req, at });
    }
  }

  private columnTime(b: number, q: Queued, now: number): number {
    const ready = q.write ? Math.max(this.colReadyWrAt[b]!, this.nextWriteColAt) : Math.max(this.colReadyAt[b]!, this.nextReadColAt);
    return Math.max(now, ready, this.nextColAt, this.groupColAt[this.groupOf[b]!]!);
  }

  private accountPending(now: number): void {
    if (now > this.lastTick) {
      if (this.queue.length > 0 || this.busyBanks > 0) this.stats.pendingCycles += now - this.lastTick;
      else if (this.dataEndAt > this.lastTick) this.stats.pendingCycles += Math.min(now, this.dataEndAt) - this.lastTick;
      this.lastTick = now;
    }
  }

  /** Closes the pending-cycles account at the end of simulation. */
  finish(now: number): void {
    this.accountPending(now);
  }

  /** No request waits at the scheduler or in a bank (returns may still be in flight). */
  quiet(): boolean {
    return this.queue.length === 0 && this.busyBanks === 0;
  }

  nextReturn(): number {
    return this.doneHead < this.done.length ? this.done[this.doneHead]!.at : Infinity;
  }

  /** The next cycle in which a command can issue or a read returns. */
  nextEvent(now: number): number {
    let t = this.nextReturn();
    if (this.readyBanks > 0) return now + 1;
    if (this.busyBanks > 0) {
      for (let b = 0; b < this.nbk; b++) {
        const q = this.bankReq[b];
        if (q === null) continue;
        let at: number;
        if (this.openRow[b] === q.row) at = this.columnTime(b, q, now);
        else if (this.openRow[b] !== -1) at = Math.max(this.preReadyAt[b]!, this.groupPreAt[this.groupOf[b]!]!);
        else at = Math.max(this.actReadyAt[b]!, this.nextActAt);
        t = Math.min(t, Math.floor(at));
      }
    }
    return t <= now ? now + 1 : t;
  }

  idle(): boolean {
    return this.queue.length === 0 && this.busyBanks === 0 && this.doneHead >= this.done.length;
  }
}
