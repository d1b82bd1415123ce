/**
 * A memory partition: one DRAM channel and its L2 banks (sub-partitions), with GPGPU-Sim's queues
 * (memory_sub_partition, gpgpu_dram_partition_queues): a request taken off the network waits
 * `gpgpu_l2_rop_latency` in the unbounded ROP delay queue, then enters the icnt-to-L2 queue; its
 * head looks up the write-back L2 slice when the L2-to-DRAM and L2-to-icnt queues have room (store
 * misses allocate without a fetch unless the write-allocate policy is N, then they go straight to
 * DRAM); misses merge per line (per sector when sectored) in the MSHRs and leave through the L2's
 * miss queue, one per cycle into L2-to-DRAM; replies leave through L2-to-icnt, one per cycle. The
 * bank takes a request off the network only while icnt-to-L2 has room for a request's four
 * sectors (gpu-sim.cc, `full(SECTOR_CHUNCK_SIZE)`). Toward and back from DRAM, per DRAM command
 * clock: one request leaves an L2-to-DRAM queue (sub-partitions in round-robin order, each with a
 * DRAM credit and room in its DRAM-to-L2 queue: dram-credits.ts) and one completed read leaves
 * the DRAM's return queue for its sub-partition's DRAM-to-L2 queue, which fills the L2 one
 * sector per cycle while the fill port is free.
 *
 * Invariants: every load / atomic that enters a bank gets exactly one reply; stores get none;
 * a bank stops taking new requests while its queues are full (back-pressure into the network).
 */
import type { GpuConfig } from '../config/gpu-config.js';
import { fillPortCycles } from '../config/cache-config.js';
import type { AddressMap } from './address-map.js';
import { AccessOutcome, Cache, type Eviction, FailCause, sectorCount, wordsOfSectors, writebackBytes } from './cache.js';
import { DramChannel } from './dram.js';
import { DramCredits } from './dram-credits.js';
import type { MemLatencyStats } from './mem-latency-stats.js';
import { memRequest, type MemRequest, NO_MSHR, releaseRequest, ReqKind } from './mem-request.js';
import type { Network } from './network.js';
import { SectorMap } from './sector-map.js';
import { TimedQueue } from './timed-queue.js';
import { truncate } from './truncate.js';

/** GPGPU-Sim's SECTOR_CHUNCK_SIZE: the icnt-to-L2 room a request needs (it may split into four sector requests). */
const SECTORS_PER_REQUEST = 4;

/** A copy of `req` with these fields replaced and no waiters: the L2's own request toward DRAM. */
function withFields(req: MemRequest, line: number, bytes: number, words: number, kind: ReqKind, subPartition: number, mshrKey: number): MemRequest {
  return memRequest(line, bytes, words, kind, req.source, req.sm, subPartition, null, req.sentAt, req.createdAt, req.returnAt, req.uncached, mshrKey);
}

export class L2Bank {
  readonly cache: Cache;
  /** The ROP delay queue (unbounded, as GPGPU-Sim's m_rop). */
  private readonly rop = new TimedQueue<MemRequest>(1 << 30);
  private readonly icntToL2: TimedQueue<MemRequest>;
  /** Misses by MSHR key (Cache.mshrKeyOf): the requests waiting for the DRAM fill. */
  private readonly pending: SectorMap<MemRequest[]>;
  /** Emptied lists of `pending`, reused for the next misses. */
  private readonly freeLists: MemRequest[][] = [];
  /** L2-to-icnt. */
  private readonly replies: MemRequest[] = [];
  private replyHead = 0;
  private readonly replyLimit: number;
  /** The L2 cache's miss queue (reservation fails when full). */
  private readonly missQueue: MemRequest[] = [];
  private readonly missQueueLimit: number;
  /** L2-to-DRAM: the partition hands its head to the DRAM scheduler. */
  readonly toDram: MemRequest[] = [];
  /** DRAM-to-L2: reads back from DRAM, filled into the L2 one per cycle while its fill port is free. */
  readonly fromDram: TimedQueue<MemRequest>;
  private readonly fillCycles: number;
  private fillFreeAt = 0;
  private readonly toDramLimit: number;
  private readonly fetchWholeLine: boolean;
  /** Store misses allocate the line dirty without fetching it (GPGPU-Sim lazy fetch-on-read). */
  private readonly writeAllocate: boolean;

  constructor(cfg: GpuConfig, readonly id: number, private readonly latency: number, map: AddressMap, private readonly memLatency: MemLatencyStats) {
    this.cache = new Cache(cfg.l2, map.sectors, (line) => map.partitionAddressOfSector(line));
    this.pending = new SectorMap<MemRequest[]>(2 * cfg.l2.mshrEntries);
    this.icntToL2 = new TimedQueue<MemRequest>(cfg.partitionQueues.icntToL2);
    this.replyLimit = cfg.partitionQueues.l2ToIcnt;
    this.fromDram = new TimedQueue<MemRequest>(cfg.partitionQueues.dramToL2);
    this.fillCycles = fillPortCycles(cfg.l2);
    this.missQueueLimit = cfg.l2.missQueue;
    this.toDramLimit = cfg.partitionQueues.l2ToDram;
    this.fetchWholeLine = !cfg.l2.sectored;
    this.writeAllocate = cfg.l2.writeAlloc !== 'none';
  }

  cycle(now: number, reqNet: Network, replyNet: Network): void {
    // L2-to-icnt: one reply per cycle.
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
    if (this.icntToL2.length + SECTORS_PER_REQUEST - 1 < this.icntToL2.capacity) {
      const incoming = reqNet.receive(this.id, now);
      if (incoming) {
        this.memLatency.icnt2memSum += now - incoming.createdAt;
        if (now - incoming.createdAt > this.memLatency.maxIcnt2mem) this.memLatency.maxIcnt2mem = now - incoming.createdAt;
        this.memLatency.requests++;
        this.memLatency.l1ToIcntSum += incoming.sentAt - incoming.createdAt;
        this.rop.tryPush(incoming, now + this.latency);
      }
    }
    // DRAM-to-L2: one fill per cycle while the fill port is free (memory_sub_partition::cache_cycle).
    if (this.fromDram.length > 0 && now >= this.fillFreeAt) {
      this.onDramReturn(this.fromDram.pop());
      this.fillFreeAt = now + Math.max(1, this.fillCycles);
    }
    if (this.missQueue.length > 0 && this.toDram.length < this.toDramLimit) this.toDram.push(this.missQueue.shift()!);
    const head = this.icntToL2.peek(now);
    if (head !== undefined && this.toDram.length < this.toDramLimit && this.replyCount() < this.replyLimit && this.access(head)) this.icntToL2.pop();
    const ready = this.rop.peek(now);
    if (ready !== undefined && !this.icntToL2.full) this.icntToL2.tryPush(this.rop.pop(), now);
  }

  private replyCount(): number {
    return this.replies.length - this.replyHead;
  }

  /** Returns false when the access cannot proceed this cycle (it stays at the ROP head). */
  private access(req: MemRequest): boolean {
    const c = this.cache;
    const line = c.lineOf(req.line);
    if (req.kind === ReqKind.Store) {
      // Every store from an SM is acknowledged (GPGPU-Sim's write ack): a header-only reply.
      // A sectored L2 hits a store only on readable sectors; a partial write to a sector that is
      // neither filled nor fully written is a SECTOR_MISS every time (GPGPU-Sim tag_array::probe
      // with lazy fetch-on-read: the sector stays MODIFIED and unreadable).
      const outcome = c.lookup(line, req.words);
      if (outcome === AccessOutcome.Hit) {
        c.stats.count(req.source, outcome);
        c.writeWords(line, req.words);
      } else {
        if (this.missQueue.length >= this.missQueueLimit) return this.fail(req, FailCause.MissQueue);
        c.stats.count(req.source, outcome);
        if (this.writeAllocate) this.evict(c.writeWords(line, req.words));
        else this.missQueue.push(withFields(req, line, req.bytes, req.words, req.kind, this.id, req.mshrKey));
      }
      if (req.sm >= 0) this.replies.push(req);
      return true;
    }
    const outcome = c.lookup(line, req.words);
    if (outcome === AccessOutcome.Hit) {
      c.stats.count(req.source, AccessOutcome.Hit);
      if (req.kind === ReqKind.Atomic) c.markDirty(line, req.words);
      this.replies.push(req);
      return true;
    }
    // Sectored: one MSHR entry per sector (GPGPU-Sim SECTOR_ASSOC), so another sector of a line
    // being fetched is a miss of its own.
    const key = c.mshrKeyOf(line, req.words);
    const waiting = this.pending.get(key);
    if (waiting) {
      if (waiting.length >= c.geometry.mshrMaxMerge) return this.fail(req, FailCause.MshrMerge);
      c.stats.count(req.source, AccessOutcome.HitReserved);
      waiting.push(req);
      return true;
    }
    if (this.pending.size >= c.geometry.mshrEntries) return this.fail(req, FailCause.MshrEntry);
    if (this.missQueue.length >= this.missQueueLimit) return this.fail(req, FailCause.MissQueue);
    c.stats.count(req.source, outcome);
    const list = this.freeLists.pop() ?? [];
    list.push(req);
    this.pending.set(key, list);
    const missing = c.missingSectors(line, req.words);
    const bytes = this.fetchWholeLine ? c.lineBytes : Math.max(32, 32 * sectorCount(missing));
    // The fetch carries its MSHR key: a request over several sectors of which some are present
    // fetches only the missing ones, whose first sector need not be the key's.
    this.missQueue.push(withFields(req, line, bytes, wordsOfSectors(missing), ReqKind.Load, this.id, key));
    return true;
  }

  private fail(req: MemRequest, cause: FailCause): false {
    this.cache.stats.count(req.source, AccessOutcome.ReservationFail);
    this.cache.stats.failCauses[cause]!++;
    return false;
  }

  private evict(ev: Eviction | undefined): void {
    if (ev?.dirty) {
      const wb = writebackBytes(ev, this.cache.geometry.sectored, this.cache.lineBytes);
      this.missQueue.push(memRequest(ev.line, wb.bytes, wb.words, ReqKind.Store, 0, -1, this.id, null, 0, 0, 0, false, NO_MSHR));
    }
  }

  /** A DRAM read is filled: the line and a reply to everything merged on it. */
  private onDramReturn(fetch: MemRequest): void {
    const line = fetch.line;
    const key = fetch.mshrKey !== NO_MSHR ? fetch.mshrKey : this.cache.mshrKeyOf(line, fetch.words);
    const waiting = this.pending.get(key);
    this.pending.delete(key);
    let dirty = false;
    if (waiting !== undefined) for (const r of waiting) if (r.kind === ReqKind.Atomic) dirty = true;
    this.evict(this.cache.fillWords(line, fetch.words, dirty));
    if (waiting !== undefined) {
      for (const r of waiting) this.replies.push(r);
      truncate(waiting, 0);
      this.freeLists.push(waiting);
    }
    releaseRequest(fetch);
  }

  /** Cycle the ROP queue head becomes ready (Infinity when empty). */
  ropReady(): number {
    return this.rop.nextReady();
  }

  /** True when nothing waits in the bank except ROP-latency entries and DRAM fills. */
  quiet(): boolean {
    return this.replyCount() === 0 && this.toDram.length === 0 && this.missQueue.length === 0 && this.icntToL2.length === 0 && this.fromDram.length === 0;
  }

  nextEvent(now: number): number {
    if (!this.quiet()) return now + 1;
    const t = this.rop.nextReady();
    return t <= now ? now + 1 : t;
  }

  idle(): boolean {
    return this.quiet() && this.rop.length === 0 && this.pending.size === 0;
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
    this.credits = new DramCredits(cfg.subPartitionsPerChannel, cfg.dram.queueSize, cfg.dram.returnQueueSize);
    this.dram = new DramChannel(cfg, map, (sub) => this.credits.giveBack(sub - this.banks[0]!.id));
    this.dramPerCore = cfg.clocks.dramMhz / cfg.clocks.coreMhz;
  }

  private readonly credits: DramCredits;
  /** DRAM command clocks per core cycle. */
  private readonly dramPerCore: number;

  /**
   * One core cycle: the DRAM's command clocks in it, each moving one read from the DRAM's return
   * queue into its sub-partition's DRAM-to-L2 queue (waiting while that is full) and taking one
   * request from the L2-to-DRAM queues, sub-partitions in round-robin order, each only with a
   * credit and room in its DRAM-to-L2 queue (memory_partition_unit::dram_cycle); then the L2 banks.
   */
  cycle(now: number, reqNet: Network, replyNet: Network): void {
    this.dram.cycle(now);
    const ticks = Math.floor((now + 1) * this.dramPerCore) - Math.floor(now * this.dramPerCore);
    const first = this.banks[0]!.id;
    const n = this.banks.length;
    for (let k = 0; k < ticks; k++) {
      const r = this.dram.peekReturn(now);
      if (r !== undefined) {
        const b = this.banks[r.subPartition - first]!;
        if (!b.fromDram.full) {
          this.dram.popReturn(now);
          b.fromDram.tryPush(r, now);
          this.credits.giveBack(r.subPartition - first);
        }
      }
      for (let p = 0; p < n; p++) {
        const s = (p + this.credits.lastBorrower + 1) % n;
        const b = this.banks[s]!;
        if (b.toDram.length === 0 || b.fromDram.full || !this.credits.has(s)) continue;
        if (this.dram.tryPush(b.toDram[0]!, now)) {
          b.toDram.shift();
          this.credits.borrow(s);
        }
        break;
      }
    }
    for (const b of this.banks) b.cycle(now, reqNet, replyNet);
  }

  /**
   * A lower bound on the next cycle this partition has work, for skipping its tick: ROP latency,
   * DRAM commands and returns are timed; anything queued in a bank means next cycle. Arrivals from
   * the interconnect are checked by the caller.
   */
  wakeAfter(now: number): number {
    let t = this.dram.quiet() ? this.dram.nextReturn() : this.dram.nextEvent(now);
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
