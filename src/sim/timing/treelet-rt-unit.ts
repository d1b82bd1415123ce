/**
 * The RT unit with virtualized treelet queues (paper 001, "Treelet Accelerated Ray Tracing on
 * GPUs", Sec. 3-4), used instead of `RtUnit` when `rt_treelet_queues` or `rt_ray_virtualization`
 * is on. Its warp buffer, memory scheduler ('access' / 'warp', as `gpgpu_rt_scheduler`), response
 * FIFO and operation units behave as RtUnit's; what differs is that a warp-buffer entry holds
 * rays, not an SM warp:
 * - Accepting a traceRay stores each ray's data (`rt_treelet_ray_bytes`) to a reserved memory
 *   region (Sec. 4.2 step 1) and queues the SM warp's rays as an incoming warp; up to
 *   `rt_virtual_rays_per_sm` rays may be in the unit (ray virtualization lets CTAs leave, Sec. 4.1).
 * - Initial traversal phase (Sec. 3.2 step 1): an incoming warp traverses ray-stationary until its
 *   active rays need more than `rt_treelet_divergence_threshold` distinct treelets; it then drains
 *   its in-flight accesses and its rays go to the treelet queues of the treelet each needs next.
 * - Treelet-stationary mode (step 2): the largest queue with at least `rt_treelet_queue_threshold`
 *   rays becomes the current treelet; its whole treelet is loaded into the L1D (unless preloaded)
 *   and warps of its rays are formed after their ray data is loaded (bypassing the L1D). A ray in
 *   a treelet warp traverses only its nodes in that treelet, then leaves for its next treelet's
 *   queue or finishes. The current queue is emptied before another treelet is chosen; when it
 *   holds `rt_treelet_preload_threshold` rays or fewer, the next largest treelet is preloaded.
 * - Final ray-stationary mode (step 3, Sec. 4.4): when no queue reaches the threshold and no
 *   fresh warp waits, warps are formed from the underpopulated queues in count-table order and
 *   traverse to completion; with `rt_treelet_repack_threshold` > 0 (Sec. 4.5) a ray-stationary
 *   warp with fewer active rays is refilled with queued rays (their ray data loaded).
 *
 * Treelet traversal order (Chou et al., Sec. 2.2: a current stack and a treelet stack): each ray's
 * recorded transactions are regrouped by treelet in the order the ray first reaches each treelet,
 * keeping their order within a treelet, so a ray finishes a treelet before moving to the next and
 * never returns to it. The set of nodes a ray visits is the functional traversal's (the
 * nearest-first order the functional core used); a true treelet-order traversal would cull a little
 * differently. Results never depend on this unit: it only replays timing.
 *
 * Invariants: a ray is in at most one place (a warp, a treelet queue, or done); `raysInUnit`
 * counts rays accepted and not done; a source (one SM warp's traceRay) completes once after its
 * last ray is done and its intersection-table stores are acknowledged; `mshrUsed` equals chunk
 * requests issued and not yet answered.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { RtLaneWork, RtNodeKind, RtTransaction } from '../warp-step.js';
import { ALL_WORDS } from './cache.js';
import { EventHeap } from './event-heap.js';
import type { L1DataCache } from './l1-cache.js';
import { type MemClient, ReqKind, ReqSource, type Waiter } from './mem-request.js';
import { chunkWords, intersectionTableStores, RtStats } from './rt-unit.js';
import { type ChunkReq as ChunkReqOf, RtChunkRequests } from './rt-chunk-requests.js';
import { TreeletQueues } from './treelet-queues.js';
import { TraversalMode, TreeletStats } from './treelet-stats.js';
import { treeletSegments } from './treelet-order.js';
import type { SmTimelineHooks } from './timeline-hooks.js';
import type { TreeletMap } from '../rt/treelets.js';

/** Where ray data lives (a reserved region, held in the L2 when it fits, Sec. 4.2 / 6.5). */
export const RAY_DATA_BASE = 2 ** 48;

export type { TreeletMap } from '../rt/treelets.js';

const READY = 0;
const WAIT_MEM = 1;
const IN_OP = 2;
const DONE = 3;
/** In a treelet queue. */
const QUEUED = 4;
/** In a warp, waiting for its ray data. */
const LOADING = 5;

/** One SM warp's traceRay: completes when all its rays are done and its stores acknowledged. */
interface RaySource extends Waiter {
  token: number;
  left: number;
  pendingStores: number;
}

interface Ray {
  id: number;
  src: RaySource;
  /** Transactions regrouped treelet by treelet; segment s is [segEnd[s-1], segEnd[s]). */
  tx: RtTransaction[];
  segEnd: number[];
  segTreelet: number[];
  seg: number;
  idx: number;
  status: number;
  pendingChunks: number;
  warp: Warp | null;
  stores: number[] | null;
  /** Ray data: 0 only in memory, 1 being loaded, 2 in the warp buffer. */
  data: number;
  /** Cycle the ray joined its current warp, and the cycle it was accepted. */
  joined: number;
  start: number;
}

interface Warp {
  entry: number;
  age: number;
  mode: TraversalMode;
  treelet: number;
  rays: Ray[];
  /** Rays of the warp not done and not left. */
  active: number;
  /** Rays waiting for memory, in an operation or loading ray data. */
  inflight: number;
  readyRays: Ray[];
  enteredAt: number;
  /** Sum over its rays of cycles spent in this warp (Vulkan-Sim's efficiency numerator). */
  threadCycles: number;
  /** Initial phase: diverged, draining its in-flight accesses before going to the queues. */
  draining: boolean;
}

type ChunkReq = ChunkReqOf<Ray>;

/** A ray-data load of one line: wakes its rays. */
interface RayLoad extends Waiter {
  rays: Ray[];
}

const TAG_STORE_ACK = -1;
const TAG_PREFETCH = -2;
const TAG_RAY_LOAD = -3;

const UNIT_OF_LATENCY = [0, 0, 2, 1, 1, 1, 1];
const LATENCY_INDEX: Record<RtNodeKind, number> = {
  structure: 0, internal: 1, instanceLeaf: 2, transform: 2, triangleLeaf: 4, proceduralLeaf: 6, stackSpill: -1, coalescingBuffer: -1,
};
const STORE_BYTES = 32;
const LINE = 128;

export class TreeletRtUnit implements MemClient {
  private readonly buffer: (Warp | null)[];
  private resident = 0;
  private ageCounter = 0;
  private greedy: Warp | null = null;
  /** Rays accepted and not done. */
  private raysInUnit = 0;
  /** Rays in resident warps that are not done or left (for the active-ray averages). */
  private activeInWarps = 0;
  private readonly freeIds: number[];
  private readonly incoming: Ray[][] = [];
  /** Sources whose lanes had no traversal at all (completed at the next cycle). */
  private readonly emptySources: number[] = [];
  private readonly queues: TreeletQueues;
  private readonly rayById: (Ray | null)[];
  private current = -1;
  private readonly loaded = new Set<number>();
  /** Unique chunk requests: MSHRs and the Memory Access Queue (shared with the baseline RT unit). */
  private readonly requests: RtChunkRequests<Ray>;
  private awaitingFifo = 0;
  /** Stores for the memory port: intersection-table stores (acked) and ray-data stores (not). */
  private readonly storeQueue: { addr: number; bytes: number; words: number; ack: RaySource | null }[] = [];
  private storeHead = 0;
  private readonly rayLoadQueue: { addr: number; words: number; load: RayLoad }[] = [];
  private readonly prefetchQueue: number[] = [];
  private readonly responses: Waiter[] = [];
  private responseHead = 0;
  private readonly ops = new EventHeap<Ray>();
  private lastAccount = 0;
  private readonly opStarts = new Int32Array(3);
  private opCycle = -1;
  private readonly prefetchWaiter: Waiter = { client: this, tag: TAG_PREFETCH };
  readonly stats = new RtStats();
  /**
   * The warp-timeline hooks of the SM. This unit regroups rays into treelet warps that belong to no
   * SM warp, so it records nothing on the RT-unit tracks; the SM side of the timeline still shows
   * each warp's time in the RT unit.
   */
  timeline: SmTimelineHooks | null = null;
  /** The last cycle a ray advanced or a warp's traceRay entered or left (the deadlock watchdog reads it). */
  lastProgress = 0;
  readonly treeletStats = new TreeletStats();
  private readonly latency: number[];
  private readonly chunkBytes: number;
  private readonly rayBase: number;

  constructor(
    private readonly cfg: GpuConfig,
    private readonly cache: L1DataCache,
    private readonly onWarpDone: (token: number, now: number) => void,
    private readonly l1: L1DataCache,
    private readonly tableBase: (token: number) => number,
    private readonly map: TreeletMap,
    smId: number,
  ) {
    const t = cfg.treelet;
    this.buffer = new Array<Warp | null>(cfg.rt.maxWarps).fill(null);
    this.latency = cfg.rt.latency;
    this.chunkBytes = cfg.rt.chunkBytes;
    this.requests = new RtChunkRequests<Ray>(this, cfg.rt.chunkBytes, cfg.rt.maxMshr, cfg.rt.memQueueSize);
    this.freeIds = Array.from({ length: t.raysPerSm }, (_, i) => t.raysPerSm - 1 - i);
    this.rayById = new Array<Ray | null>(t.raysPerSm).fill(null);
    this.rayBase = RAY_DATA_BASE + smId * t.raysPerSm * t.rayBytes;
    this.queues = new TreeletQueues(t.queueTableEntries, t.countTableEntries, (x) => x * map.budget, Math.ceil(Math.log2(map.budget)));
  }

  get residentWarps(): number {
    return this.resident;
  }

  get raysInFlight(): number {
    return this.raysInUnit;
  }

  hasRoom(): boolean {
    return this.raysInUnit + this.cfg.warpSize <= this.cfg.treelet.raysPerSm;
  }

  /** Takes a warp's traceRay: its rays' data are stored and the rays wait for a warp-buffer entry. */
  tryAccept(token: number, work: readonly RtLaneWork[], now: number): boolean {
    if (this.raysInUnit + work.length > this.cfg.treelet.raysPerSm) return false;
    this.account(now);
    this.lastProgress = now;
    const src: RaySource = { client: this, tag: TAG_STORE_ACK, token, left: 0, pendingStores: 0 };
    const table = this.tableBase(token);
    const rays: Ray[] = [];
    for (const lw of work) {
      this.stats.ops += lw.boxTests + lw.triangleTests + lw.transforms;
      if (lw.transactions.length === 0) {
        this.stats.raysCompleted++;
        continue;
      }
      const seg = this.cfg.treelet.queues
        ? treeletSegments(lw.transactions, this.map.treeletOfAddress)
        : { tx: lw.transactions, segEnd: [lw.transactions.length], segTreelet: [-1] };
      const id = this.freeIds.pop()!;
      const ray: Ray = {
        id, src, data: 2, tx: seg.tx, segEnd: seg.segEnd, segTreelet: seg.segTreelet, seg: 0, idx: 0, status: READY, pendingChunks: 0,
        warp: null, joined: now, start: now,
        stores: this.cfg.rt.intersectionTableStores ? intersectionTableStores(table, lw.lane, lw.transactions) : null,
      };
      this.rayById[id] = ray;
      rays.push(ray);
    }
    src.left = rays.length;
    this.raysInUnit += rays.length;
    if (rays.length === 0) {
      // Completed next cycle: the caller marks the warp as in the RT unit after this returns.
      this.emptySources.push(token);
      return true;
    }
    if (this.cfg.treelet.queues) this.storeRayData(rays);
    this.incoming.push(rays);
    return true;
  }

  /** Ray data to its reserved region, one store per 128 B line (Sec. 4.2 step 1). */
  private storeRayData(rays: readonly Ray[]): void {
    const bytes = this.cfg.treelet.rayBytes;
    const lines = new Map<number, number>();
    for (const r of rays) {
      const a = this.rayBase + r.id * bytes;
      for (let b = a; b < a + bytes; b += STORE_BYTES) {
        const line = b - (b % LINE);
        lines.set(line, ((lines.get(line) ?? 0) | chunkWords(b, Math.min(STORE_BYTES, a + bytes - b))) >>> 0);
      }
    }
    for (const [line, words] of lines) {
      this.storeQueue.push({ addr: line, bytes: Math.min(LINE, 4 * popcount(words)), words, ack: null });
      this.treeletStats.rayDataStores++;
    }
  }

  onResponse(w: Waiter, now: number): void {
    if (w.tag === TAG_PREFETCH) return;
    if (w.tag === TAG_RAY_LOAD) {
      for (const r of (w as RayLoad).rays) {
        if (r.data === 1) r.data = 2;
        if (r.status !== LOADING || r.warp === null) continue;
        r.status = READY;
        r.warp.inflight--;
        r.warp.readyRays.push(r);
      }
      return;
    }
    this.responses.push(w);
    void now;
  }

  cycle(now: number): void {
    for (const token of this.emptySources.splice(0)) this.onWarpDone(token, now);
    if (this.resident === 0 && this.incoming.length === 0 && this.queues.size === 0 && this.requests.memQueue.length === 0 &&
      this.responseHead === this.responses.length && this.storeHead === this.storeQueue.length && this.rayLoadQueue.length === 0 &&
      this.prefetchQueue.length === 0) return;
    this.account(now);
    while (this.ops.size > 0 && this.ops.peekTime() <= now) this.advance(this.ops.pop(), now);
    if (this.responseHead < this.responses.length) {
      const r = this.responses[this.responseHead++]!;
      if (this.responseHead === this.responses.length) {
        this.responses.length = 0;
        this.responseHead = 0;
      }
      if (r.tag === TAG_STORE_ACK) {
        const s = r as RaySource;
        s.pendingStores--;
        this.awaitingFifo--;
        if (s.left === 0 && s.pendingStores === 0) this.onWarpDone(s.token, now);
      } else {
        const c = r as ChunkReq;
        this.requests.answered(c);
        this.awaitingFifo--;
        for (const ray of c.rays) if (--ray.pendingChunks === 0) this.startOp(ray, now);
      }
    }
    this.fillWarpBuffer(now);
    this.cycleScheduler(now);
  }

  // --- warp formation (the treelet controller)

  private freeEntry(): number {
    return this.buffer.indexOf(null);
  }

  private residentOfMode(mode: TraversalMode): boolean {
    for (const w of this.buffer) if (w && w.mode === mode) return true;
    return false;
  }

  private fillWarpBuffer(now: number): void {
    const entry = this.freeEntry();
    if (entry < 0) return;
    const t = this.cfg.treelet;
    if (!t.queues) {
      const rays = this.incoming.shift();
      if (rays) this.formWarp(entry, TraversalMode.Ray, -1, rays, now, false);
      return;
    }
    const ids: number[] = [];
    if (this.current >= 0 && this.queues.countOf(this.current) === 0) this.current = -1;
    if (this.current < 0) {
      const big = this.queues.largest();
      const enough = big >= 0 && t.queueThreshold > 0 && this.queues.countOf(big) >= t.queueThreshold;
      if (enough) this.activate(big);
      else if (this.incoming.length > 0) {
        this.formWarp(entry, TraversalMode.Initial, -1, this.incoming.shift()!, now, false);
        return;
      } else if (big >= 0 && !t.groupUnderpopulated && t.queueThreshold > 0) this.activate(big);
      else if (big >= 0 && !this.residentOfMode(TraversalMode.Initial) && !this.residentOfMode(TraversalMode.Treelet)) {
        // Sec. 4.4: no queue is worth a treelet and nothing left can fill one: group the
        // underpopulated queues, oldest count-table entries first.
        this.queues.takeAny(this.cfg.warpSize, ids);
        this.formWarp(entry, TraversalMode.Ray, -1, this.raysOf(ids), now, true);
        this.preloadRayData(TraversalMode.Ray);
        return;
      } else return;
    }
    this.queues.take(this.current, this.cfg.warpSize, ids);
    this.formWarp(entry, TraversalMode.Treelet, this.current, this.raysOf(ids), now, true);
    this.preloadRayData(TraversalMode.Treelet);
    // Sec. 4.3: preload the next largest treelet while the current queue drains.
    if (t.preload && this.queues.countOf(this.current) <= t.preloadThreshold) {
      let next = -1;
      let n = 0;
      for (const tl of this.queues.treelets()) {
        const c = this.queues.countOf(tl);
        if (tl !== this.current && c > n) { next = tl; n = c; }
      }
      if (next >= 0 && (n >= t.queueThreshold || !t.groupUnderpopulated) && !this.loaded.has(next)) {
        this.loadTreelet(next);
        this.treeletStats.treeletsPreloaded++;
      }
    }
  }

  /** Whether fillWarpBuffer would form a warp now (mirrors its choices). */
  private canFormWarp(): boolean {
    if (this.incoming.length > 0) return true;
    if (this.queues.size === 0) return false;
    const t = this.cfg.treelet;
    if (this.current >= 0 && this.queues.countOf(this.current) > 0) return true;
    if (t.queueThreshold > 0 && this.queues.countOf(this.queues.largest()) >= t.queueThreshold) return true;
    if (!t.groupUnderpopulated && t.queueThreshold > 0) return true;
    return !this.residentOfMode(TraversalMode.Initial) && !this.residentOfMode(TraversalMode.Treelet);
  }

  private raysOf(ids: readonly number[]): Ray[] {
    const out: Ray[] = [];
    for (const id of ids) out.push(this.rayById[id]!);
    return out;
  }

  /** Makes `treelet` current and loads it into the L1D unless it was preloaded. */
  private activate(treelet: number): void {
    this.current = treelet;
    this.treeletStats.treeletsActivated++;
    if (!this.loaded.has(treelet)) this.loadTreelet(treelet);
    // Two treelets fit the L1D (Sec. 5): forget older ones so they are loaded again.
    for (const l of this.loaded) if (this.loaded.size > 2 && l !== treelet) this.loaded.delete(l);
  }

  private loadTreelet(treelet: number): void {
    this.loaded.add(treelet);
    const start = this.map.treeletStart[treelet];
    const bytes = this.map.treeletBytes[treelet];
    if (start === undefined || bytes === undefined) return;
    for (let a = start - (start % LINE); a < start + bytes; a += LINE) this.prefetchQueue.push(a);
  }

  /** `loadData`: the rays come from the queues, so their ray data is loaded first (bypassing the L1D). */
  private formWarp(entry: number, mode: TraversalMode, treelet: number, rays: Ray[], now: number, loadData: boolean): void {
    const w: Warp = {
      entry, age: this.ageCounter++, mode, treelet, rays: [], active: 0, inflight: 0, readyRays: [], enteredAt: now,
      threadCycles: 0, draining: false,
    };
    this.buffer[entry] = w;
    this.resident++;
    this.treeletStats.modeWarps[mode]!++;
    this.addRays(w, rays, now, loadData);
  }

  /** `loadData`: the rays come from the queues, so their ray data must be in the warp buffer first. */
  private addRays(w: Warp, rays: Ray[], now: number, loadData: boolean): void {
    this.account(now);
    const load: Ray[] = [];
    for (const r of rays) {
      r.warp = w;
      r.joined = now;
      w.rays.push(r);
      w.active++;
      this.activeInWarps++;
      if (!loadData || r.data === 2) {
        r.data = 2;
        r.status = READY;
        w.readyRays.push(r);
        continue;
      }
      r.status = LOADING;
      w.inflight++;
      if (r.data === 0) load.push(r);
    }
    this.loadRayData(load);
  }

  /** Loads rays' data into the warp buffer, one load per 128 B line, bypassing the L1D (Sec. 4.2 step 5). */
  private loadRayData(rays: readonly Ray[]): void {
    const bytes = this.cfg.treelet.rayBytes;
    const loads = new Map<number, RayLoad & { words: number }>();
    for (const r of rays) {
      if (r.data !== 0) continue;
      r.data = 1;
      const a = this.rayBase + r.id * bytes;
      for (let b = a; b < a + bytes; b += STORE_BYTES) {
        const line = b - (b % LINE);
        let l = loads.get(line);
        if (!l) {
          l = { client: this, tag: TAG_RAY_LOAD, rays: [], words: 0 };
          loads.set(line, l);
        }
        if (!l.rays.includes(r)) l.rays.push(r);
        l.words = (l.words | chunkWords(b, Math.min(STORE_BYTES, a + bytes - b))) >>> 0;
      }
    }
    // A ray spanning two lines becomes ready with the first; ray data is at most one line here.
    for (const [addr, l] of loads) this.rayLoadQueue.push({ addr, words: l.words, load: l });
  }

  /**
   * Sec. 4.3: "ray data can also be preloaded similarly": the rays the next warp of this kind
   * would take get their data loaded now (one warp's worth is held in the warp buffer).
   */
  private preloadRayData(mode: TraversalMode): void {
    if (!this.cfg.treelet.preload) return;
    const ids: number[] = [];
    if (mode === TraversalMode.Treelet && this.current >= 0) this.queues.peek(this.current, this.cfg.warpSize, ids);
    else this.queues.peekAny(this.cfg.warpSize, ids);
    this.loadRayData(this.raysOf(ids));
  }

  // --- memory scheduling (as RtUnit)

  private cycleScheduler(now: number): void {
    if (this.cfg.rt.scheduler === 'access') {
      if (!this.requests.blocked && this.requests.memQueue.length === 0 && this.storeHead === this.storeQueue.length) {
        const w = this.oldestReadyWarp();
        if (w) this.scheduleMemory(w, true);
      }
    } else if (!this.requests.blocked) {
      const w = this.selectWarp();
      if (w) this.scheduleMemory(w, false);
    }
    // One request per cycle to the memory port: stores, ray data, node chunks, treelet lines.
    if (this.storeHead < this.storeQueue.length && this.awaitingFifo < this.cfg.rt.responseFifoSize) {
      const s = this.storeQueue[this.storeHead]!;
      if (this.l1.access(s.addr, s.bytes, ReqKind.Store, ReqSource.Rt, s.ack, now, false, s.words)) {
        this.storeHead++;
        if (this.storeHead === this.storeQueue.length) {
          this.storeQueue.length = 0;
          this.storeHead = 0;
        }
        if (s.ack !== null) {
          this.awaitingFifo++;
          this.stats.stores++;
        }
      }
      return;
    }
    if (this.rayLoadQueue.length > 0) {
      const l = this.rayLoadQueue[0]!;
      if (this.cache.loadUncached(l.addr, 4 * popcount(l.words), l.words, ReqSource.Rt, l.load, now)) {
        this.rayLoadQueue.shift();
        this.treeletStats.rayDataLoads++;
      }
      return;
    }
    const head = this.requests.memQueue[0];
    if (head !== undefined && this.awaitingFifo < this.cfg.rt.responseFifoSize) {
      if (this.cache.access(head.addr, this.chunkBytes, ReqKind.Load, ReqSource.Rt, head, now, false, chunkWords(head.addr, this.chunkBytes))) {
        this.requests.sent();
        this.awaitingFifo++;
        this.stats.chunkRequests++;
      }
      return;
    }
    if (head === undefined && this.prefetchQueue.length > 0) {
      if (this.cache.access(this.prefetchQueue[0]!, LINE, ReqKind.Load, ReqSource.Rt, this.prefetchWaiter, now, false, ALL_WORDS)) {
        this.prefetchQueue.shift();
        this.treeletStats.treeletLineLoads++;
      }
    }
  }

  private selectWarp(): Warp | null {
    const g = this.greedy;
    if (g && !g.draining && g.readyRays.length > 0 && this.buffer[g.entry] === g) return g;
    this.greedy = this.oldestReadyWarp();
    return this.greedy;
  }

  private oldestReadyWarp(): Warp | null {
    let best: Warp | null = null;
    for (const w of this.buffer) if (w && !w.draining && w.readyRays.length > 0 && (!best || w.age < best.age)) best = w;
    return best;
  }

  private scheduleMemory(w: Warp, oneAccess: boolean): void {
    const ready = w.readyRays;
    if (oneAccess) {
      const address = ready[0]!.tx[ready[0]!.idx]!.address;
      const same = ready.filter((r) => r.tx[r.idx]!.address === address);
      const rest = ready.filter((r) => r.tx[r.idx]!.address !== address);
      ready.length = 0;
      ready.push(...same);
      this.scheduleRays(w, ready);
      ready.push(...rest);
      return;
    }
    this.scheduleRays(w, ready);
  }

  private scheduleRays(w: Warp, ready: Ray[]): void {
    const coalesce = this.cfg.rt.coalesceWarps;
    const maxWarps = this.cfg.rt.maxWarps;
    let taken = 0;
    for (; taken < ready.length; taken++) {
      const ray = ready[taken]!;
      const t = ray.tx[ray.idx]!;
      const chunks = this.requests.request(ray, t.address, t.size, coalesce ? 1 : maxWarps, coalesce ? 0 : w.entry, w, this.stats);
      if (chunks < 0) break;
      ray.pendingChunks = chunks;
      ray.status = WAIT_MEM;
      w.inflight++;
      if (t.kind === 'stackSpill') this.stats.stackSpills++;
      else if (t.kind === 'coalescingBuffer') this.stats.coalescingAccesses++;
      else this.stats.nodes++;
    }
    if (taken === ready.length) ready.length = 0;
    else if (taken > 0) ready.splice(0, taken);
  }

  private startOp(ray: Ray, now: number): void {
    if (ray.stores !== null) {
      for (const addr of ray.stores) this.storeQueue.push({ addr, bytes: STORE_BYTES, words: chunkWords(addr, STORE_BYTES), ack: ray.src });
      ray.src.pendingStores += ray.stores.length;
      ray.stores = null;
    }
    const t = ray.tx[ray.idx]!;
    const li = LATENCY_INDEX[t.kind];
    if (li < 0) {
      this.advance(ray, now);
      return;
    }
    ray.status = IN_OP;
    if (t.kind === 'internal' || t.kind === 'instanceLeaf' || t.kind === 'triangleLeaf' || t.kind === 'proceduralLeaf') {
      this.treeletStats.modeTests[ray.warp!.mode]!++;
    }
    if (this.opCycle !== now) {
      this.opCycle = now;
      this.opStarts.fill(0);
    }
    const queued = Math.floor(this.opStarts[UNIT_OF_LATENCY[li]!]++ / this.cfg.rt.opUnits);
    const lat = this.latency[li]!;
    this.stats.opStageCycles += lat;
    this.ops.push(now + queued + lat, ray);
  }

  /** The ray's access and operation are done: next transaction, next treelet, or finished. */
  private advance(ray: Ray, now: number): void {
    const w = ray.warp!;
    w.inflight--;
    ray.idx++;
    this.lastProgress = now;
    if (ray.idx >= ray.tx.length) {
      this.rayDone(ray, now);
    } else {
      const segDone = ray.idx >= ray.segEnd[ray.seg]!;
      if (segDone) ray.seg++;
      if (segDone && w.mode === TraversalMode.Treelet) {
        // The ray reached the treelet's boundary: it goes to the queue of its next treelet.
        this.leaveWarp(ray, now);
        this.enqueue(ray);
      } else {
        ray.status = READY;
        w.readyRays.push(ray);
      }
    }
    this.afterRayChange(w, now);
  }

  private rayDone(ray: Ray, now: number): void {
    this.leaveWarp(ray, now);
    ray.status = DONE;
    this.rayById[ray.id] = null;
    this.freeIds.push(ray.id);
    this.raysInUnit--;
    this.stats.raysCompleted++;
    this.stats.rayLatencySum += now - ray.start;
    const s = ray.src;
    if (--s.left === 0 && s.pendingStores === 0) this.onWarpDone(s.token, now);
  }

  private leaveWarp(ray: Ray, now: number): void {
    const w = ray.warp!;
    this.account(now);
    w.threadCycles += now - ray.joined;
    w.active--;
    this.activeInWarps--;
    ray.warp = null;
  }

  private enqueue(ray: Ray): void {
    ray.status = QUEUED;
    ray.data = 0;
    this.queues.insert(ray.segTreelet[ray.seg]!, ray.id);
    this.treeletStats.queuedRays++;
  }

  /** Divergence check (initial phase), repacking (ray-stationary), warp completion. */
  private afterRayChange(w: Warp, now: number): void {
    const t = this.cfg.treelet;
    if (w.mode === TraversalMode.Initial && t.queues && !w.draining && w.active > 0) {
      const seen = new Set<number>();
      for (const r of w.rays) if (r.warp === w) seen.add(r.segTreelet[r.seg]!);
      if (seen.size > t.divergenceThreshold) {
        w.draining = true;
        this.treeletStats.divergedWarps++;
        if (this.greedy === w) this.greedy = null;
      }
    }
    if (w.draining && w.inflight === 0) {
      // Sec. 4.2 step 3: the diverged warp is terminated; each ray joins its treelet's queue.
      for (const r of w.rays) {
        if (r.warp !== w) continue;
        this.leaveWarp(r, now);
        this.enqueue(r);
      }
      w.readyRays.length = 0;
    }
    if (w.mode === TraversalMode.Ray && t.queues && t.repackThreshold > 0 && w.active > 0 && w.active < t.repackThreshold &&
      this.queues.size > 0 && !w.draining) {
      // Sec. 4.5: refill the warp with rays from the underpopulated queues.
      const ids: number[] = [];
      this.queues.takeAny(this.cfg.warpSize - w.active, ids);
      w.rays = w.rays.filter((r) => r.warp === w);
      this.treeletStats.repacks++;
      this.treeletStats.repackedRays += ids.length;
      this.addRays(w, this.raysOf(ids), now, true);
      this.preloadRayData(TraversalMode.Ray);
    }
    if (w.active === 0) this.completeWarp(w, now);
  }

  private completeWarp(w: Warp, now: number): void {
    if (this.buffer[w.entry] !== w) return;
    this.account(now);
    this.buffer[w.entry] = null;
    this.resident--;
    if (this.greedy === w) this.greedy = null;
    const lat = now - w.enteredAt;
    this.stats.warpsCompleted++;
    this.stats.warpLatencySum += lat;
    this.stats.warpLatencies.push(lat);
    this.stats.warpThreadLatencySum += w.threadCycles / 32;
    if (lat > 0) this.stats.warpEfficiencySum += w.threadCycles / (32 * lat);
  }

  private account(now: number): void {
    const dt = now - this.lastAccount;
    if (dt <= 0) return;
    if (this.resident > 0) {
      this.stats.activeCycles += dt;
      this.stats.warpCycles += dt * this.resident;
      this.stats.activeRayCycles += dt * this.activeInWarps;
      for (const w of this.buffer) if (w) this.treeletStats.modeWarpCycles[w.mode]! += dt;
    }
    this.lastAccount = now;
  }

  finish(now: number): void {
    this.account(now);
    this.treeletStats.queues.add(this.queues.stats);
  }

  nextEvent(now: number): number {
    if (this.responseHead < this.responses.length || this.requests.memQueue.length > 0 || this.storeHead < this.storeQueue.length ||
      this.rayLoadQueue.length > 0 || this.prefetchQueue.length > 0) return now + 1;
    if (this.emptySources.length > 0 || (this.freeEntry() >= 0 && this.canFormWarp())) return now + 1;
    if (!this.requests.blocked) for (const w of this.buffer) if (w && !w.draining && w.readyRays.length > 0) return now + 1;
    const t = this.ops.peekTime();
    return t <= now ? now + 1 : t;
  }

  /** For the deadlock watchdog: the oldest unfinished ray's SM warp and where it is. */
  stall(): { context: number; detail: string } | null {
    let oldest: Ray | null = null;
    for (const r of this.rayById) if (r !== null && r.status !== DONE && (oldest === null || r.start < oldest.start)) oldest = r;
    if (oldest === null) return null;
    const where = oldest.warp === null ? 'queued for a treelet warp' : `in a warp of traversal mode ${oldest.warp.mode}, status ${oldest.status}`;
    return { context: oldest.src.token, detail: `ray ${oldest.id} at transaction ${oldest.idx + 1} of ${oldest.tx.length}, ${where}` };
  }

  idle(): boolean {
    return this.resident === 0 && this.incoming.length === 0 && this.emptySources.length === 0 && this.queues.size === 0 && this.requests.memQueue.length === 0 &&
      this.requests.mshrUsed === 0 && this.storeHead === this.storeQueue.length && this.rayLoadQueue.length === 0 && this.prefetchQueue.length === 0;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
