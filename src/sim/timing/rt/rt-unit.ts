/**
 * The RT unit of one SM (Vulkan-Sim Section III-C), a variable-latency execution unit that replays
 * the traversal transaction records of the functional core. One unit, whatever the traversal
 * order: a TraversalPolicy (traversal-policy.ts) decides which rays form the warps of its buffer and
 * in which order a ray's transactions go; the unit owns what every order shares:
 * - Warp Buffer of `gpgpu_rt_max_warps` entries (plus the predictor's extra warps).
 * - Warp Scheduler: greedy-then-oldest -- keep the warp chosen last while it has rays ready to
 *   issue, else the oldest warp that has.
 * - Memory Scheduler: collects the next address of each ready ray of the chosen warp, splits it into
 *   32 B chunks, merges identical chunks within the warp (and across warps with
 *   `gpgpu_rt_coalesce_warps`) and pushes the unique ones into the Memory Access Queue; a ray whose
 *   chunks do not fit (queue or MSHRs full) stays ready. With `gpgpu_rt_scheduler=access`
 *   (Vulkan-Sim rt_unit::memory_cycle) a new access only when the last one's chunks and all queued
 *   stores are out: the oldest warp with a ray ready gets one unique address.
 * - Memory port: one request per cycle to the L1D (or RT cache), which may refuse it. The
 *   Response FIFO is unbounded, as Vulkan-Sim's (`gpgpu_rt_response_fifo_size 0`); a size > 0
 *   sends a request only if its response will have an entry (credit-based). Under `access`, as
 *   Vulkan-Sim's memory_cycle: the current access's remaining chunks (mem_access_q), then stores
 *   (mem_store_q: intersection-table stores, and the 32-byte result store of each triangle test
 *   that hit), then the policy's own requests (ray data); a new access is scheduled only once
 *   both are out. Under `warp`: stores first, then the policy's requests, then the queue head.
 *   Then, when no chunk waits, the policy's idle-port requests (treelet lines).
 * - Response FIFO: one response popped per cycle; rays whose chunks have all arrived start their
 *   operation (box test, triangle test, transform) on pipelined Operation Units with the
 *   `gpgpu_rt_intersection_latency` latencies.
 *
 * Invariants: a ray waits on at most one transaction at a time; `requests.mshrUsed` equals the
 * chunk requests issued and not yet answered; `awaitingFifo` counts requests sent whose response
 * has not been popped; stats accumulate per cycle weighted by skipped cycles (`account` runs at the
 * current cycle before anything changes the resident warps). `lastProgress` is the last cycle a
 * ray retired a transaction or a predictor lookup, or a traceRay entered, received a store
 * acknowledgement or left: the deadlock watchdog stops a run whose RT unit holds warps and has not
 * progressed for `gpgpu_deadlock_window` cycles, even while the rest of the GPU keeps busy.
 */
import type { GpuConfig } from '../../config/gpu-config.js';
import type { RtLaneWork } from '../../warp-step.js';
import { isBvhNode } from '../../warp-step.js';
import { EventHeap } from '../event-heap.js';
import type { L1DataCache } from '../l1-cache.js';
import type { DeviceHeap } from '../device-heap.js';
import { type MemClient, ReqKind, ReqSource, type Waiter } from '../mem-request.js';
import type { SmTimelineHooks } from '../timeline-hooks.js';
import { STORE_BYTES } from './intersection-table.js';
import { type ChunkReq, chunkWords, RtChunkRequests } from './rt-chunk-requests.js';
import { RtStats } from './rt-stats.js';
import { IN_OP, LATENCY_INDEX, type RtRay, type RtWarp, TAG_STORE_ACK, type TraceSource, type TraversalPolicy, WAIT_MEM } from './traversal-policy.js';
import { truncate } from '../truncate.js';

/** Operation unit kind per latency index: 0 ray-box, 1 ray-triangle / procedural, 2 transform. */
const UNIT_OF_LATENCY = [0, 0, 2, 1, 1, 1, 1];

/** A store for the memory port: an intersection-table store (acknowledged to `ack`) or ray data (not). */
export interface RtStore {
  addr: number;
  bytes: number;
  words: number;
  ack: TraceSource | null;
}

/** What an SM gives its RT unit. */
export interface RtUnitPorts {
  /** Where node chunks go: the L1D, or the RT cache. */
  cache: L1DataCache;
  /** Where stores go: always the L1D, as in Vulkan-Sim. */
  l1: L1DataCache;
  /** A traceRay is finished: its token goes back to the SM. */
  onTraceDone: (token: number, now: number) => void;
  /** The intersection table of the traceRay with this token. */
  tableBase: (token: number) => number;
  /** Where triangle-hit result stores go: each a fresh gpu_malloc allocation from the GPU's one heap. */
  hitStoreHeap: DeviceHeap;
}

export class RtUnit implements MemClient {
  readonly buffer: (RtWarp | null)[];
  /** Warps in the buffer. */
  resident = 0;
  private ageCounter = 0;
  private greedy: RtWarp | null = null;
  /** Unique chunk requests: MSHRs and the Memory Access Queue. */
  readonly requests: RtChunkRequests<RtRay>;
  /** Requests sent to the memory system whose response has not been popped from the FIFO. */
  private awaitingFifo = 0;
  /** Response FIFO entries (`gpgpu_rt_response_fifo_size`; 0 there = unbounded, as Vulkan-Sim's). */
  private readonly fifoEntries: number;
  /** Stores waiting for the memory port (they go before new chunk requests). */
  private readonly storeQueue: RtStore[] = [];
  /** Triangle-hit result stores made so far (their addresses follow one another). */
  private storeHead = 0;
  private readonly responses: Waiter[] = [];
  private responseHead = 0;
  private readonly ops = new EventHeap<RtRay>();
  private lastAccount = 0;
  /** Operations started this cycle per unit kind: each of the `opUnits` pipelines takes one per cycle. */
  private readonly opStarts = new Int32Array(3);
  private opCycle = -1;
  readonly stats = new RtStats();
  /** The warp-timeline hooks of the SM (set by Sm.attachTimeline), or null. */
  timeline: SmTimelineHooks | null = null;
  /** See the file comment (watchdog). */
  lastProgress = 0;
  readonly policy: TraversalPolicy;
  private readonly latency: number[];
  private readonly chunkBytes: number;
  /** Unique chunk requests outstanding at most (rtMshrLimit). */
  private readonly mshrLimit: number;

  /** `policy` is made for this unit; `entries`: Warp Buffer entries. */
  constructor(
    readonly cfg: GpuConfig,
    readonly ports: RtUnitPorts,
    entries: number,
    policy: (unit: RtUnit) => TraversalPolicy,
  ) {
    this.buffer = new Array<RtWarp | null>(entries).fill(null);
    this.latency = cfg.rt.latency;
    this.chunkBytes = cfg.rt.chunkBytes;
    this.fifoEntries = cfg.rt.responseFifoSize || Infinity;
    this.mshrLimit = rtMshrLimit(cfg);
    this.requests = new RtChunkRequests<RtRay>(this, cfg.rt.chunkBytes, this.mshrLimit, cfg.rt.memQueueSize);
    this.policy = policy(this);
  }

  get residentWarps(): number {
    return this.resident;
  }

  get raysInFlight(): number {
    return this.policy.raysInFlight;
  }

  hasRoom(): boolean {
    return this.policy.hasRoom();
  }

  /** Routes a warp's traceRay to the policy; false when it has no room. */
  tryAccept(token: number, work: readonly RtLaneWork[], now: number): boolean {
    return this.policy.tryAccept(token, work, now);
  }

  // --- the Warp Buffer, for the policy

  /** A free Warp Buffer entry, or -1. */
  freeEntry(): number {
    return this.buffer.indexOf(null);
  }

  /** The next formation age (the warp scheduler prefers lower). */
  nextAge(): number {
    return this.ageCounter++;
  }

  /** Puts `w` into its entry. */
  place(w: RtWarp): void {
    this.buffer[w.entry] = w;
    this.resident++;
  }

  /** Frees `w`'s entry; false when `w` is not in the buffer. */
  release(w: RtWarp, now: number): boolean {
    if (this.buffer[w.entry] !== w) return false;
    this.account(now);
    this.buffer[w.entry] = null;
    this.resident--;
    if (this.greedy === w) this.greedy = null;
    return true;
  }

  /** `w` may no longer be chosen greedily (it stopped issuing). */
  dropGreedy(w: RtWarp): void {
    if (this.greedy === w) this.greedy = null;
  }

  /** Queues a store for the memory port. */
  queueStore(s: RtStore): void {
    this.storeQueue.push(s);
  }

  onResponse(w: Waiter, now: number): void {
    if (w.tag < TAG_STORE_ACK) this.policy.onResponse(w, now);
    else this.responses.push(w);
  }

  /** Set when the port's chunk access hit and was answered inside the access (no Response FIFO entry). */
  private answeredAtAccess = false;

  /** A chunk that hits is answered in the cycle of its access, without the Response FIFO (Vulkan-Sim rt_unit::process_cache_access). */
  onHit(w: Waiter, now: number): void {
    if (w.tag < 0) {
      this.onResponse(w, now);
      return;
    }
    this.answeredAtAccess = true;
    this.chunkAnswered(w as ChunkReq<RtRay>, now);
  }

  /** A chunk's response: its MSHR frees, and each ray that waited for nothing else starts its operation. */
  private chunkAnswered(c: ChunkReq<RtRay>, now: number): void {
    this.requests.answered(c);
    for (const ray of c.rays) if (--ray.pendingChunks === 0) this.startOp(ray, now);
    this.requests.release(c);
  }

  cycle(now: number): void {
    this.policy.beforeCycle(now);
    if (this.resident === 0 && this.requests.memQueue.length === 0 && this.responseHead === this.responses.length &&
      this.storeHead === this.storeQueue.length && !this.policy.busy()) return;
    this.account(now);
    this.policy.cycle(now);
    // 1. Operations finishing this cycle advance their rays.
    while (this.ops.size > 0 && this.ops.peekTime() <= now) {
      const ray = this.ops.pop();
      if (ray.tx[ray.idx]!.kind === 'triangleLeafHit') this.queueHitStore(ray);
      this.policy.advance(ray, now);
    }
    // 2. Response FIFO: one response per cycle to the operation scheduler.
    if (this.responseHead < this.responses.length) {
      const r = this.responses[this.responseHead++]!;
      if (this.responseHead === this.responses.length) {
        truncate(this.responses, 0);
        this.responseHead = 0;
      }
      this.awaitingFifo--;
      if (r.tag === TAG_STORE_ACK) {
        // A write ack of an intersection-table store.
        const s = r as TraceSource;
        s.pendingStores--;
        this.lastProgress = now;
        if (s.left === 0 && s.pendingStores === 0) this.policy.sourceDone(s, now);
      } else this.chunkAnswered(r as ChunkReq<RtRay>, now);
    }
    this.policy.afterResponses(now);
    // 3. Warp + memory scheduler; 4. the memory port.
    this.scheduleCycle(now);
    this.portCycle(now);
  }

  private scheduleCycle(now: number): void {
    if (this.cfg.rt.scheduler === 'access') {
      if (!this.requests.blocked && this.requests.memQueue.length === 0 && this.storeHead === this.storeQueue.length) {
        const w = this.oldestReadyWarp();
        if (w) this.scheduleMemory(w, true, now);
      }
    } else if (!this.requests.blocked) {
      const w = this.selectWarp();
      if (w) this.scheduleMemory(w, false, now);
    }
  }

  /**
   * One request per cycle. Under the `access` scheduler (Vulkan-Sim rt_unit::memory_cycle) the
   * current access's remaining chunks go first, then stores, then a new access; under `warp`,
   * stores, the policy's requests, node chunks, the policy's idle-port requests.
   */
  private portCycle(now: number): void {
    if (this.cfg.rt.scheduler === 'access' && this.requests.memQueue.length > 0) {
      this.sendChunk(now);
      return;
    }
    if (this.storeHead < this.storeQueue.length && this.awaitingFifo < this.fifoEntries) {
      const s = this.storeQueue[this.storeHead]!;
      if (this.ports.l1.access(s.addr, s.bytes, ReqKind.Store, ReqSource.Rt, s.ack, now, false, s.words)) {
        this.storeHead++;
        if (this.storeHead === this.storeQueue.length) {
          truncate(this.storeQueue, 0);
          this.storeHead = 0;
        }
        if (s.ack !== null) {
          this.awaitingFifo++;
          this.stats.stores++;
        }
      }
      return;
    }
    if (this.policy.portBeforeChunks(now)) return;
    if (this.requests.memQueue.length > 0) {
      this.sendChunk(now);
      return;
    }
    this.policy.portIdle(now);
  }

  /** The memory access queue's head chunk to the cache, if its response will have a FIFO entry. */
  private sendChunk(now: number): void {
    const head = this.requests.memQueue[0]!;
    this.answeredAtAccess = false;
    if (this.awaitingFifo < this.fifoEntries && this.ports.cache.access(head.addr, this.chunkBytes, ReqKind.Load, ReqSource.Rt, head, now, false, chunkWords(head.addr, this.chunkBytes))) {
      this.requests.sent();
      if (!this.answeredAtAccess) this.awaitingFifo++;
      this.stats.chunkRequests++;
    }
  }

  private selectWarp(): RtWarp | null {
    const g = this.greedy;
    if (g && !g.draining && g.readyRays.length > 0 && this.buffer[g.entry] === g) return g;
    this.greedy = this.oldestReadyWarp();
    return this.greedy;
  }

  private oldestReadyWarp(): RtWarp | null {
    let best: RtWarp | null = null;
    for (const w of this.buffer) if (w && !w.draining && w.readyRays.length > 0 && (!best || w.age < best.age)) best = w;
    return best;
  }

  /** scheduleMemory's scratch: the ready rays that want another node (reused, never shrunk). */
  private readonly otherRays: RtRay[] = [];

  /** `oneAccess`: only the rays of `w` that want the same node as its first ready ray. */
  private scheduleMemory(w: RtWarp, oneAccess: boolean, now: number): void {
    const ready = w.readyRays;
    if (oneAccess) {
      // Stable partition in place: the rays wanting the first ray's node, then the others.
      const address = ready[0]!.tx[ready[0]!.idx]!.address;
      const others = this.otherRays;
      let same = 0;
      let other = 0;
      for (let k = 0; k < ready.length; k++) {
        const r = ready[k]!;
        if (r.tx[r.idx]!.address === address) ready[same++] = r;
        else others[other++] = r;
      }
      for (let k = 0; k < other; k++) ready[same + k] = others[k]!;
      this.scheduleRays(w, ready, same, now);
      return;
    }
    this.scheduleRays(w, ready, ready.length, now);
  }

  /** Queues the chunk requests of the first `limit` `ready` rays in order until MSHRs or the queue run out; removes the rays it took. */
  private scheduleRays(w: RtWarp, ready: RtRay[], limit: number, now: number): void {
    const coalesce = this.cfg.rt.coalesceWarps;
    const groups = this.buffer.length;
    let taken = 0;
    for (; taken < limit; taken++) {
      const ray = ready[taken]!;
      const t = ray.tx[ray.idx]!;
      const merged0 = this.stats.mergedInWarp + this.stats.mergedAcrossWarps;
      const chunks = this.requests.request(ray, t.address, t.size, coalesce ? 1 : groups, coalesce ? 0 : w.entry, w, this.stats);
      if (chunks < 0) break;
      const merged = this.stats.mergedInWarp + this.stats.mergedAcrossWarps - merged0;
      this.policy.requested(ray, chunks - merged, merged);
      ray.pendingChunks = chunks;
      ray.status = WAIT_MEM;
      ray.sentAt = now;
      w.inflight++;
      if (isBvhNode(t.kind)) this.stats.nodes++;
      else if (t.kind === 'stackSpill') this.stats.stackSpills++;
      else if (t.kind === 'coalescingBuffer') this.stats.coalescingAccesses++;
      this.stats.transactions++;
    }
    if (taken === ready.length) truncate(ready, 0);
    else if (taken > 0) {
      for (let k = taken; k < ready.length; k++) ready[k - taken] = ready[k]!;
      truncate(ready, ready.length - taken);
    }
  }

  /**
   * A triangle test that hit: its 32-byte result store (Vulkan-Sim dec_thread_latency, when a
   * BVH_QUAD_LEAF_HIT's delay reaches 0), acknowledged before the warp may complete.
   */
  private queueHitStore(ray: RtRay): void {
    const addr = this.ports.hitStoreHeap.malloc(STORE_BYTES);
    this.storeQueue.push({ addr, bytes: STORE_BYTES, words: chunkWords(addr, STORE_BYTES), ack: ray.src });
    ray.src.pendingStores++;
  }

  private startOp(ray: RtRay, now: number): void {
    if (ray.stores !== null) {
      // Vulkan-Sim queues all of a thread's traversal stores when its first node arrives
      // (warp_inst_t::dec_thread_latency, at the start of the thread's first intersection delay).
      for (const addr of ray.stores) this.storeQueue.push({ addr, bytes: STORE_BYTES, words: chunkWords(addr, STORE_BYTES), ack: ray.src });
      ray.src.pendingStores += ray.stores.length;
      ray.stores = null;
    }
    this.stats.rayMemoryCycles += now - ray.sentAt;
    const t = ray.tx[ray.idx]!;
    const li = LATENCY_INDEX[t.kind];
    if (li < 0) {
      this.policy.advance(ray, now);
      return;
    }
    ray.status = IN_OP;
    this.policy.opStarted(ray, t.kind);
    if (this.opCycle !== now) {
      this.opCycle = now;
      this.opStarts.fill(0);
    }
    // More simultaneous operations than pipelines of that kind start in later cycles.
    const queued = Math.floor(this.opStarts[UNIT_OF_LATENCY[li]!]++ / this.cfg.rt.opUnits);
    const lat = this.latency[li]!;
    this.stats.opStageCycles += lat;
    ray.opDone = now + queued + lat;
    this.stats.rayOpCycles += queued + lat;
    this.ops.push(ray.opDone, ray);
  }

  /** Adds the state held since the last call to the per-cycle averages. */
  account(now: number): void {
    const dt = now - this.lastAccount;
    if (dt <= 0) return;
    if (this.resident > 0) {
      this.stats.activeCycles += dt;
      this.stats.warpCycles += dt * this.resident;
      this.stats.activeRayCycles += dt * this.policy.activeRays;
      this.policy.accountResident(dt);
    }
    this.lastAccount = now;
  }

  finish(now: number): void {
    this.account(now);
    this.policy.finish(now);
  }

  nextEvent(now: number): number {
    if (this.responseHead < this.responses.length || this.requests.memQueue.length > 0 || this.storeHead < this.storeQueue.length) return now + 1;
    const own = this.policy.nextEvent(now);
    if (own <= now + 1) return now + 1;
    if (!this.requests.blocked) for (const w of this.buffer) if (w && !w.draining && w.readyRays.length > 0) return now + 1;
    const t = this.ops.peekTime();
    return Math.min(own, t <= now ? now + 1 : t);
  }

  /** The memory port's state, for deadlock reports. */
  portState(): string {
    const limit = this.mshrLimit === Infinity ? ' (no limit: gpgpu_rt_use_l1)' : ` of ${this.mshrLimit}`;
    return `${this.requests.mshrUsed}${limit} MSHRs in use, ${this.requests.memQueue.length} chunks and ` +
      `${this.storeQueue.length - this.storeHead} intersection-table stores queued for the L1, ${this.awaitingFifo} responses outstanding`;
  }

  /**
   * For the deadlock watchdog: the oldest traceRay in the unit and what its first unfinished ray
   * waits on; null when none is in the unit.
   */
  stall(): { context: number; detail: string } | null {
    return this.policy.stall();
  }

  idle(): boolean {
    return this.resident === 0 && this.requests.memQueue.length === 0 && this.requests.mshrUsed === 0 && this.storeHead === this.storeQueue.length &&
      this.policy.idle();
  }
}

/**
 * The unique chunk requests an RT unit may have outstanding. Vulkan-Sim checks
 * `gpgpu_rt_max_mshr` before a new access against the MSHRs of the L0 complet cache
 * (`rt_unit::memory_cycle`), which receives the RT unit's accesses only when `gpgpu_rt_use_l1` is 0;
 * with the L1D path (every Vulkan-Sim config file) the L0 complet stays empty and the limit never
 * binds, and only the L1D's own MSHRs and miss queue (reservation fails) hold the unit back.
 */
export function rtMshrLimit(cfg: GpuConfig): number {
  return cfg.rt.useL1 ? Infinity : cfg.rt.maxMshr;
}
