/**
 * Virtualized treelet queues (paper 001, "Treelet Accelerated Ray Tracing on GPUs", Sec. 3-4) as
 * a policy of the one RT unit (rt/rt-unit.ts), chosen when `rt_treelet_queues` or
 * `rt_ray_virtualization` is on. The unit's warp buffer, schedulers, memory port, response FIFO
 * and operation units are the same as for the baseline order; what differs is that a warp-buffer
 * entry holds rays, not an SM warp:
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
 * With `gpgpu_rt_predictor` (no repacking) the rays of a traceRay are looked up first
 * (predictor/predictor-lookup.ts) and enter as an incoming warp once all their lookups are done.
 *
 * Knobs: `rt_ray_virtualization`, `rt_virtual_rays_per_sm`, `rt_treelet_*` (config/params.ts);
 * stats: TreeletStats (treelet-stats.ts), reported as `treelet_*`.
 *
 * Invariants: a ray is in at most one place (a warp, a treelet queue, or done); `raysInUnit`
 * counts rays accepted and not done; a source (one SM warp's traceRay) completes once after its
 * last ray is done and its intersection-table stores are acknowledged.
 */
import type { RtLaneWork, RtNodeKind } from '../../warp-step.js';
import { isBvhNode } from '../../warp-step.js';
import { ReqKind, ReqSource, type Waiter } from '../mem-request.js';
import { ALL_WORDS } from '../cache.js';
import { intersectionTableStores, STORE_BYTES } from '../rt/intersection-table.js';
import { chunkWords } from '../rt/rt-chunk-requests.js';
import { popcount } from '../bit-count.js';
import type { RtUnit } from '../rt/rt-unit.js';
import { DONE, LOADING, LOOKUP, QUEUED, READY, type RtRay, type RtWarp, TAG_STORE_ACK, type TraceSource, type TraversalPolicy } from '../rt/traversal-policy.js';
import { type LookedUpRay, PredictorLookup } from '../predictor/predictor-lookup.js';
import { TreeletQueues } from './treelet-queues.js';
import { TraversalMode, TreeletStats } from './treelet-stats.js';
import { treeletSegments } from './treelet-order.js';
import type { TreeletMap } from '../../rt/treelets.js';
import { truncate } from '../truncate.js';

/** Where ray data lives (a reserved region, held in the L2 when it fits, Sec. 4.2 / 6.5). */
export const RAY_DATA_BASE = 2 ** 48;

export type { TreeletMap } from '../../rt/treelets.js';

/** One SM warp's traceRay; with the predictor its rays wait in `held` until all their lookups are done. */
interface Source extends TraceSource {
  lookups: number;
  held: Ray[];
}

interface Ray extends RtRay, Pick<LookedUpRay, 'work' | 'update' | 'predicted'> {
  id: number;
  src: Source;
  warp: Warp | null;
  /** Transactions regrouped treelet by treelet; segment s is [segEnd[s-1], segEnd[s]). */
  segEnd: number[];
  segTreelet: number[];
  seg: number;
  /** Ray data: 0 only in memory, 1 being loaded, 2 in the warp buffer. */
  data: number;
  /** Cycle the ray joined its current warp. */
  joined: number;
}

interface Warp extends RtWarp {
  mode: TraversalMode;
  treelet: number;
  rays: Ray[];
  enteredAt: number;
  /** Sum over its rays of cycles spent in this warp (Vulkan-Sim's efficiency numerator). */
  threadCycles: number;
  /** Rays that have left it (done or moved to a queue): every ray it traced, refills included. */
  served: number;
}

/** A ray-data load of one line: wakes its rays. */
interface RayLoad extends Waiter {
  rays: Ray[];
}

const TAG_PREFETCH = -2;
const TAG_RAY_LOAD = -3;
const LINE = 128;

export class TreeletPolicy implements TraversalPolicy {
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
  private readonly rayLoadQueue: { addr: number; words: number; load: RayLoad }[] = [];
  private readonly prefetchQueue: number[] = [];
  private readonly prefetchWaiter: Waiter;
  readonly stats = new TreeletStats();
  private readonly rayBase: number;
  /** The intersection predictor's lookup in front of the incoming warps (gpgpu_rt_predictor), or null. */
  private readonly lookup: PredictorLookup<Ray> | null;

  /**
   * This policy regroups rays into treelet warps that belong to no SM warp, so it records nothing on
   * the RT-unit tracks of the warp timeline; the SM side still shows each warp's time in the RT unit.
   */
  constructor(private readonly unit: RtUnit, private readonly map: TreeletMap, smId: number) {
    const t = unit.cfg.treelet;
    this.freeIds = Array.from({ length: t.raysPerSm }, (_, i) => t.raysPerSm - 1 - i);
    this.rayById = new Array<Ray | null>(t.raysPerSm).fill(null);
    this.rayBase = RAY_DATA_BASE + smId * t.raysPerSm * t.rayBytes;
    this.queues = new TreeletQueues(t.queueTableEntries, t.countTableEntries, (x) => x * map.budget, Math.ceil(Math.log2(map.budget)));
    this.prefetchWaiter = { client: unit, tag: TAG_PREFETCH };
    this.lookup = unit.cfg.rt.predictor.enabled ? new PredictorLookup<Ray>(unit) : null;
  }

  get activeRays(): number {
    return this.activeInWarps;
  }

  get raysInFlight(): number {
    return this.raysInUnit;
  }

  get predictorTableBytes(): number {
    return this.lookup?.tableBytes ?? 0;
  }

  hasRoom(): boolean {
    return this.raysInUnit + this.unit.cfg.warpSize <= this.unit.cfg.treelet.raysPerSm;
  }

  /** Takes a warp's traceRay: its rays' data are stored and the rays wait for a warp-buffer entry. */
  tryAccept(token: number, work: readonly RtLaneWork[], now: number): boolean {
    const u = this.unit, cfg = u.cfg;
    if (this.raysInUnit + work.length > cfg.treelet.raysPerSm) return false;
    u.account(now);
    u.lastProgress = now;
    const src: Source = { client: u, tag: TAG_STORE_ACK, token, left: 0, pendingStores: 0, lookups: 0, held: [] };
    const table = u.ports.tableBase(token);
    const rays: Ray[] = [];
    for (const lw of work) {
      // A looked-up ray's transactions and operations are known once its lookup resolves.
      const looked = this.lookup !== null && this.lookup.considers(lw);
      if (!looked) {
        u.stats.ops += lw.boxTests + lw.triangleTests + lw.transforms;
        if (lw.transactions.length === 0) {
          u.stats.raysCompleted++;
          continue;
        }
      }
      const id = this.freeIds.pop()!;
      const ray: Ray = {
        id, src, lane: lw.lane, data: 2, tx: lw.transactions, segEnd: [], segTreelet: [], seg: 0, idx: 0, status: READY, pendingChunks: 0,
        warp: null, joined: now, start: now, opDone: 0, sentAt: 0,
        stores: cfg.rt.intersectionTableStores ? intersectionTableStores(table, lw.lane, lw.transactions) : null,
      };
      if (looked) {
        ray.status = LOOKUP;
        src.lookups++;
        this.lookup!.enqueue(ray, lw, now);
      } else this.segment(ray);
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
    if (cfg.treelet.queues) this.storeRayData(rays);
    if (src.lookups > 0) src.held = rays;
    else this.incoming.push(rays);
    return true;
  }

  /** The ray's transactions regrouped treelet by treelet (one segment without treelet queues). */
  private segment(ray: Ray): void {
    const seg = this.unit.cfg.treelet.queues
      ? treeletSegments(ray.tx, this.map.treeletOfAddress)
      : { tx: ray.tx, segEnd: [ray.tx.length], segTreelet: [-1] };
    ray.tx = seg.tx;
    ray.segEnd = seg.segEnd;
    ray.segTreelet = seg.segTreelet;
  }

  /** Ray data to its reserved region, one store per 128 B line (Sec. 4.2 step 1). */
  private storeRayData(rays: readonly Ray[]): void {
    const bytes = this.unit.cfg.treelet.rayBytes;
    const lines = new Map<number, number>();
    for (const r of rays) {
      const a = this.rayBase + r.id * bytes;
      for (let b = a; b < a + bytes; b += STORE_BYTES) {
        const line = b - (b % LINE);
        lines.set(line, ((lines.get(line) ?? 0) | chunkWords(b, Math.min(STORE_BYTES, a + bytes - b))) >>> 0);
      }
    }
    for (const [line, words] of lines) {
      this.unit.queueStore({ addr: line, bytes: Math.min(LINE, 4 * popcount(words)), words, ack: null });
      this.stats.rayDataStores++;
    }
  }

  onResponse(w: Waiter, _now: number): void {
    if (w.tag === TAG_PREFETCH) return;
    for (const r of (w as RayLoad).rays) {
      if (r.data === 1) r.data = 2;
      if (r.status !== LOADING || r.warp === null) continue;
      r.status = READY;
      r.warp.inflight--;
      r.warp.readyRays.push(r);
    }
  }

  beforeCycle(now: number): void {
    for (const token of this.emptySources.splice(0)) this.unit.ports.onTraceDone(token, now);
  }

  /**
   * The predictor's lookups (predictor-lookup.ts): a traceRay's rays enter as an incoming warp once
   * all their lookups are done, each with the transactions its lookup gave, regrouped by treelet.
   * The predictor's own warp repacking is not used: the treelet controller forms the warps.
   */
  cycle(now: number): void {
    if (this.lookup === null) return;
    this.lookup.cycle(now, (ray) => {
      const src = ray.src;
      ray.status = READY;
      this.segment(ray);
      if (--src.lookups > 0) return;
      const rays = src.held.filter((r) => r.tx.length > 0);
      for (const r of src.held) if (r.tx.length === 0) this.retire(r, now);
      src.held = [];
      if (rays.length > 0) this.incoming.push(rays);
    });
  }

  afterResponses(now: number): void {
    this.fillWarpBuffer(now);
  }

  sourceDone(src: TraceSource, now: number): void {
    this.unit.ports.onTraceDone(src.token, now);
  }

  // --- warp formation (the treelet controller)

  private residentOfMode(mode: TraversalMode): boolean {
    for (const w of this.unit.buffer) if (w && (w as Warp).mode === mode) return true;
    return false;
  }

  private fillWarpBuffer(now: number): void {
    const entry = this.unit.freeEntry();
    if (entry < 0) return;
    const t = this.unit.cfg.treelet;
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
        this.queues.takeAny(this.unit.cfg.warpSize, ids);
        this.formWarp(entry, TraversalMode.Ray, -1, this.raysOf(ids), now, true);
        this.preloadRayData(TraversalMode.Ray);
        return;
      } else return;
    }
    this.queues.take(this.current, this.unit.cfg.warpSize, ids);
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
        this.stats.treeletsPreloaded++;
      }
    }
  }

  /** Whether fillWarpBuffer would form a warp now (mirrors its choices). */
  private canFormWarp(): boolean {
    if (this.incoming.length > 0) return true;
    if (this.queues.size === 0) return false;
    const t = this.unit.cfg.treelet;
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
    this.stats.treeletsActivated++;
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
      entry, age: this.unit.nextAge(), mode, treelet, rays: [], active: 0, inflight: 0, readyRays: [], enteredAt: now, served: 0,
      threadCycles: 0, draining: false,
    };
    this.unit.place(w);
    this.stats.modeWarps[mode]!++;
    this.addRays(w, rays, now, loadData);
  }

  /** `loadData`: the rays come from the queues, so their ray data must be in the warp buffer first. */
  private addRays(w: Warp, rays: Ray[], now: number, loadData: boolean): void {
    this.unit.account(now);
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
    const bytes = this.unit.cfg.treelet.rayBytes;
    const loads = new Map<number, RayLoad & { words: number }>();
    for (const r of rays) {
      if (r.data !== 0) continue;
      r.data = 1;
      const a = this.rayBase + r.id * bytes;
      for (let b = a; b < a + bytes; b += STORE_BYTES) {
        const line = b - (b % LINE);
        let l = loads.get(line);
        if (!l) {
          l = { client: this.unit, tag: TAG_RAY_LOAD, rays: [], words: 0 };
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
    if (!this.unit.cfg.treelet.preload) return;
    const ids: number[] = [];
    if (mode === TraversalMode.Treelet && this.current >= 0) this.queues.peek(this.current, this.unit.cfg.warpSize, ids);
    else this.queues.peekAny(this.unit.cfg.warpSize, ids);
    this.loadRayData(this.raysOf(ids));
  }

  // --- the memory port's turns of this policy

  /** Ray-data loads (bypassing the L1D) go after the stores, before node chunks. */
  portBeforeChunks(now: number): boolean {
    if (this.rayLoadQueue.length === 0) return false;
    const l = this.rayLoadQueue[0]!;
    if (this.unit.ports.cache.loadUncached(l.addr, 4 * popcount(l.words), l.words, ReqSource.Rt, l.load, now)) {
      this.rayLoadQueue.shift();
      this.stats.rayDataLoads++;
    }
    return true;
  }

  /** Treelet lines into the L1D when no node chunk waits. */
  portIdle(now: number): void {
    if (this.prefetchQueue.length === 0) return;
    if (this.unit.ports.cache.access(this.prefetchQueue[0]!, LINE, ReqKind.Load, ReqSource.Rt, this.prefetchWaiter, now, false, ALL_WORDS)) {
      this.prefetchQueue.shift();
      this.stats.treeletLineLoads++;
    }
  }

  /** The predictor's requests by class of ray are counted on the baseline order only (predictor-policy.ts). */
  requested(_ray: RtRay, _fresh: number, _merged: number): void {}

  opStarted(ray: RtRay, kind: RtNodeKind): void {
    if (isBvhNode(kind)) {
      this.stats.modeTests[(ray as Ray).warp!.mode]!++;
    }
  }

  /** The ray's access and operation are done: next transaction, next treelet, or finished. */
  advance(r: RtRay, now: number): void {
    const ray = r as Ray;
    const w = ray.warp!;
    w.inflight--;
    ray.idx++;
    this.unit.lastProgress = now;
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
    this.retire(ray, now);
  }

  /** The ray is done (out of any warp): its id is free, its traceRay may complete. */
  private retire(ray: Ray, now: number): void {
    ray.status = DONE;
    this.rayById[ray.id] = null;
    this.freeIds.push(ray.id);
    this.raysInUnit--;
    this.unit.stats.raysCompleted++;
    this.unit.stats.rayLatencySum += now - ray.start;
    if (this.lookup !== null) this.lookup.finished(ray);
    const s = ray.src;
    if (--s.left === 0 && s.pendingStores === 0) this.unit.ports.onTraceDone(s.token, now);
  }

  private leaveWarp(ray: Ray, now: number): void {
    const w = ray.warp!;
    this.unit.account(now);
    w.threadCycles += now - ray.joined;
    w.served++;
    w.active--;
    this.activeInWarps--;
    ray.warp = null;
  }

  private enqueue(ray: Ray): void {
    ray.status = QUEUED;
    ray.data = 0;
    this.queues.insert(ray.segTreelet[ray.seg]!, ray.id);
    this.stats.queuedRays++;
  }

  /** Divergence check (initial phase), repacking (ray-stationary), warp completion. */
  private afterRayChange(w: Warp, now: number): void {
    const t = this.unit.cfg.treelet;
    if (w.mode === TraversalMode.Initial && t.queues && !w.draining && w.active > 0) {
      const seen = new Set<number>();
      for (const r of w.rays) if (r.warp === w) seen.add(r.segTreelet[r.seg]!);
      if (seen.size > t.divergenceThreshold) {
        w.draining = true;
        this.stats.divergedWarps++;
        this.unit.dropGreedy(w);
      }
    }
    if (w.draining && w.inflight === 0) {
      // Sec. 4.2 step 3: the diverged warp is terminated; each ray joins its treelet's queue.
      for (const r of w.rays) {
        if (r.warp !== w) continue;
        this.leaveWarp(r, now);
        this.enqueue(r);
      }
      truncate(w.readyRays, 0);
    }
    if (w.mode === TraversalMode.Ray && t.queues && t.repackThreshold > 0 && w.active > 0 && w.active < t.repackThreshold &&
      this.queues.size > 0 && !w.draining) {
      // Sec. 4.5: refill the warp with rays from the underpopulated queues.
      const ids: number[] = [];
      this.queues.takeAny(this.unit.cfg.warpSize - w.active, ids);
      w.rays = w.rays.filter((r) => r.warp === w);
      this.stats.repacks++;
      this.stats.repackedRays += ids.length;
      this.addRays(w, this.raysOf(ids), now, true);
      this.preloadRayData(TraversalMode.Ray);
    }
    if (w.active === 0) this.completeWarp(w, now);
  }

  private completeWarp(w: Warp, now: number): void {
    if (!this.unit.release(w, now)) return;
    this.unit.stats.warpDone(now - w.enteredAt, w.threadCycles, w.served);
  }

  accountResident(dt: number): void {
    for (const w of this.unit.buffer) if (w) this.stats.modeWarpCycles[(w as Warp).mode]! += dt;
  }

  finish(_now: number): void {
    this.stats.queues.add(this.queues.stats);
  }

  busy(): boolean {
    return this.incoming.length > 0 || this.queues.size > 0 || this.rayLoadQueue.length > 0 || this.prefetchQueue.length > 0 ||
      (this.lookup !== null && this.lookup.busy());
  }

  nextEvent(now: number): number {
    if (this.rayLoadQueue.length > 0 || this.prefetchQueue.length > 0) return now + 1;
    if (this.emptySources.length > 0 || (this.unit.freeEntry() >= 0 && this.canFormWarp())) return now + 1;
    return this.lookup === null ? Infinity : this.lookup.nextEvent(now);
  }

  /** For the deadlock watchdog: the oldest unfinished ray's SM warp and where it is. */
  stall(): { context: number; detail: string } | null {
    let oldest: Ray | null = null;
    for (const r of this.rayById) if (r !== null && r.status !== DONE && (oldest === null || r.start < oldest.start)) oldest = r;
    if (oldest === null) return null;
    const where = oldest.status === LOOKUP ? 'waiting for its intersection predictor lookup'
      : oldest.src.lookups > 0 ? `looked up, waiting for ${oldest.src.lookups} more lookups of its traceRay`
      : oldest.warp === null ? 'queued for a treelet warp' : `in a warp of traversal mode ${oldest.warp.mode}, status ${oldest.status}`;
    return { context: oldest.src.token, detail: `ray ${oldest.id} at transaction ${oldest.idx + 1} of ${oldest.tx.length}, ${where}` };
  }

  idle(): boolean {
    return this.incoming.length === 0 && this.emptySources.length === 0 && this.queues.size === 0 && this.rayLoadQueue.length === 0 && this.prefetchQueue.length === 0 &&
      (this.lookup === null || !this.lookup.busy());
  }
}
