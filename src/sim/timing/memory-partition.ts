/**
 * A memory partition: one DRAM channel and its L2 banks (sub-partitions). Each bank takes
 * requests from the interconnect into a ROP queue that models `gpgpu_l2_rop_latency`, looks them
 * up in its write-back L2 slice (store misses allocate without a fetch unless the write-allocate
 * policy is N, then they go straight to DRAM), merges misses to the
 * same line, sends misses and dirty evictions to DRAM and replies to the SM over the reply
 * network.
 *
 * Invariants: every load / atomic that enters a bank gets exactly one reply; stores get none;
 * a bank stops taking new requests while its outgoing queues are over their bounds
 * (back-pressure into the interconnect).
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { AddressMap } from './address-map.js';
import { ALL_WORDS, AccessOutcome, Cache, wordsOfSectors } from './cache.js';
import { DramChannel } from './dram.js';
import type { Network } from './network.js';
import type { MemLatencyStats } from './mem-latency-stats.js';
import { type MemRequest, ReqKind } from './mem-request.js';
import { TimedQueue } from './timed-queue.js';

const ROP_QUEUE = 64;
const REPLY_LIMIT = 32;

export class L2Bank {
  readonly cache: Cache;
  private readonly rop = new TimedQueue<MemRequest>(ROP_QUEUE);
  /** Misses by line: the requests waiting for the DRAM fill. */
  private readonly pending = new Map<number, MemRequest[]>();
  private readonly replies: MemRequest[] = [];
  private replyHead = 0;
  readonly toDram: MemRequest[] = [];
  private readonly dramLimit: number;
  private readonly fetchWholeLine: boolean;
  /** Store misses allocate the line dirty without fetching it (GPGPU-Sim lazy fetch-on-read). */
  private readonly writeAllocate: boolean;

  constructor(cfg: GpuConfig, readonly id: number, private readonly latency: number, map: AddressMap, private readonly memLatency: MemLatencyStats) {
    this.cache = new Cache(cfg.l2, (line) => map.partitionAddress(line));
    this.dramLimit = cfg.l2.missQueue;
    this.fetchWholeLine = !cfg.l2.sectored;
    this.writeAllocate = cfg.l2.writeAlloc !== 'none';
  }

  cycle(now: number, reqNet: Network, replyNet: Network): void {
    // Replies leave first (downstream), one per cycle.
    if (this.replyHead < this.replies.length) {
      const r = this.replies[this.replyHead]!;
      const payload = r.kind === ReqKind.Store ? 0 : r.bytes;
      if (replyNet.tryPush(this.id, r.sm, r, payload, now)) {
        r.returnAt = now;
        this.replyHead++;
        if (this.replyHead > 256 && this.replyHead * 2 > this.replies.length) {
          this.replies.splice(0, this.replyHead);
          this.replyHead = 0;
        }
      }
    }
    const head = this.rop.peek(now);
    if (head !== undefined && this.access(head)) this.rop.pop();
    if (!this.rop.full) {
      const incoming = reqNet.receive(this.id, now);
      if (incoming) {
        this.memLatency.icnt2memSum += now - incoming.createdAt;
        this.memLatency.requests++;
        this.memLatency.l1ToIcntSum += incoming.sentAt - incoming.createdAt;
        this.rop.tryPush(incoming, now + this.latency);
      }
    }
  }

  private replyCount(): number {
    return this.replies.length - this.replyHead;
  }

  /** Returns false when the access cannot proceed this cycle (it stays at the ROP head). */
  private access(req: MemRequest): boolean {
    const c = this.cache;
    const line = c.lineOf(req.addr);
    if (req.kind === ReqKind.Store) {
      // Every store from an SM is acknowledged (GPGPU-Sim's write ack): a header-only reply.
      if (req.sm >= 0 && this.replyCount() >= REPLY_LIMIT) return false;
      // A sectored L2 hits a store only on readable sectors; a partial write to a sector that is
      // neither filled nor fully written is a SECTOR_MISS every time (GPGPU-Sim tag_array::probe
      // with lazy fetch-on-read: the sector stays MODIFIED and unreadable).
      const outcome = c.lookup(line, req.words);
      if (outcome === AccessOutcome.Hit) {
        c.stats.count(req.source, outcome);
        c.writeWords(line, req.words);
      } else {
        if (this.toDram.length >= this.dramLimit) return this.fail(req);
        c.stats.count(req.source, outcome);
        if (this.writeAllocate) this.evict(c.writeWords(line, req.words));
        else this.toDram.push({ ...req, addr: line, waiters: null, subPartition: this.id });
      }
      if (req.sm >= 0) this.replies.push(req);
      return true;
    }
    if (this.replyCount() >= REPLY_LIMIT) return false;
    const outcome = c.lookup(line, req.words);
    if (outcome === AccessOutcome.Hit) {
      c.stats.count(req.source, AccessOutcome.Hit);
      if (req.kind === ReqKind.Atomic) c.markDirty(line);
      this.replies.push(req);
      return true;
    }
    // Sectored: one MSHR entry per sector (GPGPU-Sim SECTOR_ASSOC), so another sector of a line
    // being fetched is a miss of its own.
    const key = c.mshrKeyOf(line, req.words);
    const waiting = this.pending.get(key);
    if (waiting) {
      if (waiting.length >= c.geometry.mshrMaxMerge) return this.fail(req);
      c.stats.count(req.source, AccessOutcome.HitReserved);
      waiting.push(req);
      return true;
    }
    if (this.pending.size >= c.geometry.mshrEntries || this.toDram.length >= this.dramLimit) return this.fail(req);
    c.stats.count(req.source, outcome);
    this.pending.set(key, [req]);
    const missing = c.missingSectors(line, req.words);
    const bytes = this.fetchWholeLine ? c.lineBytes : Math.max(32, 32 * ((missing & 1) + ((missing >> 1) & 1) + ((missing >> 2) & 1) + (missing >> 3)));
    this.toDram.push({ ...req, addr: line, bytes, words: wordsOfSectors(missing), kind: ReqKind.Load, waiters: null, subPartition: this.id });
    return true;
  }

  private fail(req: MemRequest): false {
    this.cache.stats.count(req.source, AccessOutcome.ReservationFail);
    return false;
  }

  private evict(ev: { line: number; dirty: boolean } | undefined): void {
    if (ev?.dirty) {
      this.toDram.push({ addr: ev.line, bytes: this.cache.lineBytes, words: ALL_WORDS, kind: ReqKind.Store, source: 0, sm: -1, subPartition: this.id, waiters: null, sentAt: 0, createdAt: 0, returnAt: 0 });
    }
  }

  /** A DRAM read came back: fill the line and reply to everything merged on it. */
  onDramReturn(fetch: MemRequest): void {
    const line = fetch.addr;
    const key = this.cache.mshrKeyOf(line, fetch.words);
    const waiting = this.pending.get(key) ?? [];
    this.pending.delete(key);
    const dirty = waiting.some((r) => r.kind === ReqKind.Atomic);
    this.evict(this.cache.fillWords(line, fetch.words, dirty));
    for (const r of waiting) this.replies.push(r);
  }

  /** Cycle the ROP queue head becomes ready (Infinity when empty). */
  ropReady(): number {
    return this.rop.nextReady();
  }

  /** True when nothing waits in the bank except ROP-latency entries and DRAM fills. */
  quiet(): boolean {
    return this.replyCount() === 0 && this.toDram.length === 0;
  }

  nextEvent(now: number): number {
    if (this.replyCount() > 0 || this.toDram.length > 0) return now + 1;
    const t = this.rop.nextReady();
    return t <= now ? now + 1 : t;
  }

  idle(): boolean {
    return this.replyCount() === 0 && this.toDram.length === 0 && this.rop.length === 0 && this.pending.size === 0;
  }
}

export class MemoryPartition {
  readonly banks: L2Bank[];
  readonly dram: DramChannel;

  constructor(cfg: GpuConfig, readonly channel: number, map: AddressMap, memLatency: MemLatencyStats) {
    this.banks = [];
    for (let s = 0; s < cfg.subPartitionsPerChannel; s++) {
      const latency = Math.max(1, Math.round((cfg.l2Latency * cfg.clocks.coreMhz) / cfg.clocks.l2Mhz));
      this.banks.push(new L2Bank(cfg, channel * cfg.subPartitionsPerChannel + s, latency, map, memLatency));
    }
    this.dram = new DramChannel(cfg, map);
  }

  cycle(now: number, reqNet: Network, replyNet: Network): void {
    this.dram.cycle(now);
    for (let r = this.dram.popReturn(now); r !== undefined; r = this.dram.popReturn(now)) {
      this.banks[r.subPartition - this.banks[0]!.id]!.onDramReturn(r);
    }
    for (const b of this.banks) {
      while (b.toDram.length > 0 && this.dram.tryPush(b.toDram[0]!, now)) b.toDram.shift();
      b.cycle(now, reqNet, replyNet);
    }
  }

  /**
   * A cheap lower bound on the next cycle this partition has work, for skipping its tick:
   * ROP latency and DRAM returns are timed; anything queued means next cycle. Arrivals from the
   * interconnect are checked by the caller.
   */
  wakeAfter(now: number): number {
    if (!this.dram.quiet()) return now + 1;
    let t = this.dram.nextReturn();
    for (const b of this.banks) {
      if (!b.quiet()) return now + 1;
      t = Math.min(t, b.ropReady());
    }
    return Math.max(now + 1, t);
  }

  nextEvent(now: number): number {
    let t = this.dram.nextEvent(now);
    for (const b of this.banks) t = Math.min(t, b.nextEvent(now));
    return t;
  }

  idle(): boolean {
    return this.dram.idle() && this.banks.every((b) => b.idle());
  }
}
