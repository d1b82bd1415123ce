/**
 * The SM's L1 data cache front end (also used as the dedicated RT cache when
 * `gpgpu_rt_use_l1 = 0`): tag lookup, MSHR merging of misses to the same line, a bounded miss
 * queue toward the interconnect (a miss enters it at the lookup and leaves from the next cycle on,
 * one per cycle, GPGPU-Sim baseline_cache::cycle), write-through / no-write-allocate stores
 * (write-evict for global stores under the `L` policy),
 * atomics forwarded to the L2, and the perfect-memory limit knobs.
 *
 * Shader accesses arrive here after the LD/ST unit's latency pipeline (l1-latency-queue.ts: the
 * `gpgpu_l1_latency` stages precede the lookup), so a shader hit answers in the cycle of its
 * lookup; the RT unit looks up directly (Vulkan-Sim rt_unit::memory_cycle) and its hits answer
 * after `gpgpu_rt_cache_hit_latency`.
 *
 * Invariants:
 * - Every load/atomic waiter is woken exactly once (hit queue, or reply of its MSHR / atomic).
 * - `access` returning false changes nothing except the reservation-fail counter (and the RT
 *   unit's claim below): the caller keeps the request and retries (back-pressure).
 * - Two units request the miss path (MSHRs, miss queue): the LD/ST unit and the RT unit. An RT
 *   access refused for want of an MSHR or miss-queue entry claims the next entry: until the RT
 *   unit retries (at the latest the next cycle), a shader access that needs a new entry is refused
 *   too. The SM ticks the RT unit before the L1 frees an entry and the LD/ST unit after, so
 *   without the claim a busy LD/ST unit takes every freed entry and the RT unit starves for as
 *   long as shader warps keep it busy (issue 26: 50,000 cycles and more). With it the two
 *   alternate when both wait; one that does not wait is not slowed.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { AddressMap } from './address-map.js';
import { ALL_WORDS, AccessOutcome, Cache, type Eviction, sectorCount, writebackBytes } from './cache.js';
import type { Network } from './network.js';
import { memRequest, type MemRequest, NO_MSHR, releaseRequest, ReqKind, ReqSource, type Waiter, waiterList } from './mem-request.js';
import { TimedQueue } from './timed-queue.js';

export class L1DataCache {
  readonly cache: Cache;
  private readonly missQueue: TimedQueue<MemRequest>;
  private readonly hitQueue = new TimedQueue<Waiter>(1 << 30);
  /** The LD/ST unit's L1D latency pipeline in front of the lookup (only for the creation time of shader requests). */
  private readonly pipelineLatency: number;
  /** Hit latency seen by the RT unit (Vulkan-Sim hands an RT hit back in the cycle of the access). */
  private readonly rtHitLatency: number;
  private readonly perfectAll: boolean;
  private readonly perfectRt: boolean;
  private readonly writeBack: boolean;
  private readonly localWriteBack: boolean;
  private readonly writeAllocate: boolean;
  /**
   * How an access that merges into a pending MSHR entry is counted. A cache that allocates on miss
   * reserves the line, so GPGPU-Sim's tag probe says HIT_RESERVED; one that allocates on fill (and
   * the streaming L1D, which does) has no line yet, so the probe says MISS, or SECTOR_MISS when the
   * pending line belongs to another instruction (tag_array::probe's pending_lines), and the merge
   * counts as a miss that sends no request. We count it as a sector miss.
   */
  private readonly mergeOutcome: AccessOutcome;
  /** Dirty lines evicted from a write-back L1, waiting for the interconnect. */
  private readonly writebacks: MemRequest[] = [];
  /** The cycle an RT access was last refused for want of an MSHR / miss-queue entry, -Infinity once it retried (see the file comment). */
  private rtClaimAt = -Infinity;

  /**
   * `geometry`: the cache this front end holds (the L1D by default; the dedicated RT cache).
   * `bypass`: no tag array at all (gpgpu_rt_disable_rt_cache): every load misses, merges only in
   * the MSHRs, and is not filled.
   */
  constructor(
    cfg: GpuConfig,
    private readonly sm: number,
    private readonly map: AddressMap,
    geometry = cfg.l1d,
    private readonly bypass = false,
  ) {
    this.cache = new Cache(geometry, map.sectors);
    this.missQueue = new TimedQueue<MemRequest>(geometry.missQueue);
    this.rtHitLatency = cfg.rt.cacheHitLatency;
    this.pipelineLatency = cfg.l1Latency;
    this.perfectAll = cfg.perfectMem;
    this.perfectRt = cfg.rt.perfectMem;
    this.writeBack = geometry.write === 'writeBack';
    this.localWriteBack = geometry.write === 'localWriteBack';
    this.writeAllocate = geometry.writeAlloc !== 'none';
    this.mergeOutcome = geometry.alloc === 'onMiss' ? AccessOutcome.HitReserved : AccessOutcome.MissSector;
  }

  /**
   * An access to byte address `addr` (the RT unit's; `accessSector` takes the sector id).
   * `local`: the access is to thread-local memory (the `L` write policy writes it back).
   * `words`: the 4-byte words of the line the access touches (sectored caches hit per sector).
   */
  access(
    addr: number, bytes: number, kind: ReqKind, source: ReqSource, waiter: Waiter | null, now: number, local = false,
    words = ALL_WORDS,
  ): boolean {
    return this.accessSector(this.map.sectors.idOf(addr), bytes, kind, source, waiter, now, local, words);
  }

  /** The id (sector-ids.ts) of the sector holding byte address `addr`, as `accessSector` takes it. */
  sectorOf(addr: number): number {
    return this.map.sectors.idOf(addr);
  }

  /**
   * `access` by sector id: the shader path's (the LD/ST unit's latency pipeline carries ids, so no
   * address above 2^31 crosses a call, where V8 would box it).
   */
  accessSector(
    sector: number, bytes: number, kind: ReqKind, source: ReqSource, waiter: Waiter | null, now: number, local: boolean,
    words: number,
  ): boolean {
    const c = this.cache;
    if (source === ReqSource.Rt) this.rtClaimAt = -Infinity;
    if (this.perfectAll || (this.perfectRt && source === ReqSource.Rt)) {
      c.stats.count(source, AccessOutcome.Hit);
      if (waiter) this.hit(waiter, source, now);
      return true;
    }
    const line = c.lineOf(sector);
    if (kind === ReqKind.Atomic) {
      if (this.missQueue.full || this.claimedByRt(source, now)) return this.fail(source);
      this.missQueue.tryPush(this.request(line, bytes, words, kind, source, waiterList(waiter), now), now + 1);
      return true;
    }
    if (kind === ReqKind.Store) {
      if (this.writeBack || (this.localWriteBack && local)) {
        // Write-back: a hit dirties the line; a miss allocates it dirty (no fetch) unless the
        // write-allocate policy is N, in which case the store is written through.
        const outcome = c.lookup(line, words);
        if (outcome === AccessOutcome.Hit || c.probe(line)) {
          c.stats.count(source, outcome);
          this.writeBackEviction(c.writeWords(line, words), source, now);
          return true;
        }
        if (this.writeAllocate) {
          c.stats.count(source, outcome);
          this.writeBackEviction(c.writeWords(line, words), source, now);
          return true;
        }
      }
      // Write-through, no write-allocate: every store goes to the L2. Under GPGPU-Sim's `L`
      // policy (local write-back, global write-evict) a global store that hits invalidates the
      // sectors it writes (data_cache::wr_hit_global_we_local_wb), so the next load of them misses.
      if (this.missQueue.full) return this.refuse(source, now);
      if (this.claimedByRt(source, now)) return this.fail(source);
      const outcome = c.lookup(line, words);
      c.stats.count(source, outcome);
      if (outcome === AccessOutcome.Hit && this.localWriteBack) c.invalidateWords(line, words);
      this.missQueue.tryPush(this.request(line, bytes, words, kind, source, waiter ? waiterList(waiter) : null, now), now + 1);
      return true;
    }
    const outcome = this.bypass ? c.missKind(line) : c.lookup(line, words);
    if (outcome === AccessOutcome.Hit) {
      c.stats.count(source, AccessOutcome.Hit);
      if (waiter) this.hit(waiter, source, now);
      return true;
    }
    const key = c.mshrKeyOf(line, words);
    const pending = c.mshr.get(key);
    if (pending) {
      if (!c.mshrCanMerge(pending)) return this.fail(source);
      c.stats.count(source, this.mergeOutcome);
      if (waiter) pending.waiters!.push(waiter);
      pending.words = (pending.words | words) >>> 0;
      pending.bytes = Math.min(c.lineBytes, Math.max(pending.bytes, bytes));
      return true;
    }
    if (!c.mshrFree() || this.missQueue.full) return this.refuse(source, now);
    if (this.claimedByRt(source, now)) return this.fail(source);
    c.stats.count(source, outcome);
    // A sectored cache fetches only the sectors it lacks; a line cache fetches the whole line.
    const missing = c.missingSectors(line, words);
    const whole = !c.geometry.sectored;
    const fetch = whole ? c.lineBytes : missing === 0xf ? bytes : Math.min(bytes, sectorCount(missing) * 32);
    const req = this.request(line, fetch, whole ? ALL_WORDS : words, kind, source, waiterList(waiter), now);
    req.mshrKey = key;
    c.mshr.set(key, req);
    this.missQueue.tryPush(req, now + 1);
    return true;
  }

  /**
   * A load that bypasses the L1 (paper 001 Sec. 4.2: ray data loads do not evict treelet data): it
   * takes no MSHR, is not counted in the L1 statistics and does not fill the line on its reply.
   */
  loadUncached(addr: number, bytes: number, words: number, source: ReqSource, waiter: Waiter, now: number): boolean {
    if (source === ReqSource.Rt) this.rtClaimAt = -Infinity;
    if (this.missQueue.full) {
      if (source === ReqSource.Rt) this.rtClaimAt = now;
      return false;
    }
    if (this.claimedByRt(source, now)) return false;
    const req = this.request(this.cache.lineIdOf(addr), bytes, words, ReqKind.Load, source, waiterList(waiter), now);
    req.uncached = true;
    this.missQueue.tryPush(req, now + 1);
    return true;
  }

  /**
   * A hit's data: a shader access in this cycle (its latency was the pipeline's); an RT access
   * after `gpgpu_rt_cache_hit_latency`, which is 0 in Vulkan-Sim (the RT unit takes the hit inside
   * the access, `onHit`).
   */
  private hit(waiter: Waiter, source: ReqSource, now: number): void {
    if (source !== ReqSource.Rt) waiter.client.onResponse(waiter, now);
    else if (this.rtHitLatency === 0 && waiter.client.onHit !== undefined) waiter.client.onHit(waiter, now);
    else this.hitQueue.tryPush(waiter, now + this.rtHitLatency);
  }

  private writeBackEviction(ev: Eviction | undefined, source: ReqSource, now: number): void {
    if (!ev?.dirty) return;
    const wb = writebackBytes(ev, this.cache.geometry.sectored, this.cache.lineBytes);
    this.writebacks.push(this.request(ev.line, wb.bytes, wb.words, ReqKind.Store, source, null, now));
  }

  /** A refusal for want of an MSHR or miss-queue entry: an RT access claims the next one. */
  private refuse(source: ReqSource, now: number): false {
    if (source === ReqSource.Rt) this.rtClaimAt = now;
    return this.fail(source);
  }

  /** A shader access may not take a new MSHR / miss-queue entry: the RT unit was refused one and has not retried yet. */
  private claimedByRt(source: ReqSource, now: number): boolean {
    return source !== ReqSource.Rt && this.rtClaimAt >= now - 1;
  }

  private fail(source: ReqSource): false {
    this.cache.stats.count(source, AccessOutcome.ReservationFail);
    return false;
  }

  private request(line: number, bytes: number, words: number, kind: ReqKind, source: ReqSource, waiters: Waiter[] | null, now: number): MemRequest {
    const createdAt = source === ReqSource.Shader ? now - this.pipelineLatency : now;
    return memRequest(line, bytes, words, kind, source, this.sm, this.map.subPartitionOfSector(line), waiters, now, createdAt, 0, false, NO_MSHR);
  }

  /** Wakes hit waiters and sends the head miss into the interconnect (retrying when refused). */
  cycle(now: number, icnt: Network): void {
    if (this.hitQueue.length === 0 && this.missQueue.length === 0 && this.writebacks.length === 0) return;
    for (let w = this.hitQueue.peek(now); w !== undefined; w = this.hitQueue.peek(now)) {
      this.hitQueue.pop();
      w.client.onResponse(w, now);
    }
    const head = this.missQueue.peek(now);
    if (head !== undefined) {
      const payload = head.kind === ReqKind.Load ? 0 : head.bytes;
      if (icnt.tryPush(this.sm, head.subPartition, head, payload, now)) {
        this.cache.stats.sentBelow[head.kind === ReqKind.Load ? 0 : 1]!++;
        head.sentAt = now;
        this.missQueue.pop();
      }
    } else if (this.writebacks.length > 0) {
      // Dirty evictions use the port when no demand miss is ready.
      const wb = this.writebacks[0]!;
      if (icnt.tryPush(this.sm, wb.subPartition, wb, wb.bytes, now)) {
        this.cache.stats.sentBelow[1]!++;
        this.writebacks.shift();
      }
    }
  }

  onReply(req: MemRequest, now: number): void {
    if (req.kind === ReqKind.Load && !req.uncached) {
      if (!this.bypass) this.writeBackEviction(this.cache.fillWords(req.line, req.words, false), req.source, now);
      this.cache.mshr.delete(req.mshrKey !== NO_MSHR ? req.mshrKey : req.line);
    }
    if (req.waiters) for (const w of req.waiters) w.client.onResponse(w, now);
    releaseRequest(req);
  }

  nextEvent(now: number): number {
    if (this.writebacks.length > 0) return now + 1;
    const t = Math.min(this.hitQueue.nextReady(), this.missQueue.nextReady());
    return t <= now ? now + 1 : t;
  }

  idle(): boolean {
    return this.hitQueue.length === 0 && this.missQueue.length === 0 && this.writebacks.length === 0 && this.cache.mshr.size === 0;
  }
}

