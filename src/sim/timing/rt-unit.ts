/**
 * The RT unit of one SM (Vulkan-Sim Section III-C), a variable-latency execution unit that replays
 * the traversal transaction records of the functional core:
 * - Warp Buffer of `gpgpu_rt_max_warps` warps; each warp's Ray Buffer holds per-ray status and the
 *   position in its transaction list (the short traversal stack's spills appear in that list as
 *   `stackSpill` transactions).
 * - Warp Scheduler: greedy-then-oldest -- keep the warp chosen last while it has rays ready to
 *   issue, else the oldest warp that has.
 * - Memory Scheduler: collects the next address of each ready ray of the chosen warp, splits it into
 *   32 B chunks, merges identical chunks within the warp (and across warps with
 *   `gpgpu_rt_coalesce_warps`) and pushes the unique ones into the Memory Access Queue; a ray whose
 *   chunks do not fit (queue or MSHRs full) stays ready. The queue head goes to the L1D (or RT
 *   cache) each cycle.
 * - Response FIFO: one response popped per cycle; rays whose chunks have all arrived start their
 *   operation (box test, triangle test, transform) on pipelined Operation Units with the
 *   `gpgpu_rt_intersection_latency` latencies.
 * - A warp leaves (and its SM warp may continue) when its last ray finishes.
 *
 * Invariants: a ray waits on at most one transaction at a time; `mshrUsed` equals the number of
 * chunk requests issued and not yet answered; stats accumulate per cycle weighted by skipped cycles.
 * `lastProgress` is the last cycle a ray retired a transaction or a predictor lookup, or a warp
 * entered, received a store acknowledgement or left: the deadlock watchdog stops a run whose RT
 * unit holds warps and has not progressed for `gpgpu_deadlock_window` cycles, even while the rest
 * of the GPU keeps busy.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { RtLaneWork, RtNodeKind, RtTransaction } from '../warp-step.js';
import { EventHeap } from './event-heap.js';
import { IntersectionPredictor, PredictorStats, type TableUpdate } from './predictor/intersection-predictor.js';
import type { L1DataCache } from './l1-cache.js';
import { type MemClient, ReqKind, ReqSource, type Waiter } from './mem-request.js';
import { type ChunkReq as ChunkReqOf, RtChunkRequests } from './rt-chunk-requests.js';
import type { SmTimelineHooks } from './timeline-hooks.js';

const READY = 0;
const WAIT_MEM = 1;
const IN_OP = 2;
const DONE = 3;
/** In the predictor's lookup queue or table access (intersection prediction). */
const LOOKUP = 4;
/** In the partial warp collector, waiting to be repacked. */
const COLLECTED = 5;

interface Ray {
  /** The group the scheduler issues it with: its SM warp's own, or a repacked warp. */
  warp: RtWarp;
  /** The SM warp whose traceRay it is. */
  owner: SmWarp;
  lane: number;
  tx: RtTransaction[];
  idx: number;
  status: number;
  pendingChunks: number;
  start: number;
  /** While IN_OP: the cycle its operation completes (for the deadlock report). */
  opDone: number;
  /** Intersection-table store addresses not yet queued (queued when the ray's first node arrives). */
  stores: number[] | null;
  /** Intersection prediction: the table update this ray makes when it finishes. */
  update?: TableUpdate | undefined;
  /** Intersection prediction: the lane's work, until its lookup resolves it. */
  work?: RtLaneWork | undefined;
  /** Intersection prediction: the table returned nodes for it (repacking moves it to the collector). */
  predicted?: boolean;
}

/**
 * A warp in the Warp Buffer: what the warp and memory schedulers pick from. Without repacking it
 * is exactly one SM warp's rays; the predictor's repacking moves predicted rays out of it into
 * new groups of their own (`owner` null).
 */
interface RtWarp {
  entry: number;
  age: number;
  /** Rays of this group not done (in the lookup, ready, waiting or in an operation). */
  active: number;
  /** Rays in READY status, in the order they became ready. */
  readyRays: Ray[];
  /** The SM warp this group was created for; null for a repacked warp. */
  owner: SmWarp | null;
  /**
   * Intersection prediction: rays still in the predictor lookup; those already looked up wait in
   * `held` so the warp starts traversing together once all of its lookups are done (paper 002
   * Sec. 4.4.1: after the lookups, predicted rays leave and the not-predicted remain).
   */
  lookups: number;
  held: Ray[];
}

/** The traceRay of one SM warp: it completes (and the SM warp continues) when all its rays are done. */
interface SmWarp {
  slot: number;
  /** The Warp Buffer entry its own group took when it entered (its track in the warp timeline). */
  entry: number;
  enteredAt: number;
  /** All its rays, in lane order (for the deadlock report). */
  rays: Ray[];
  /** Its rays not done, wherever they are. */
  active: number;
  /** Sum over its rays of (finish - entry) cycles. */
  threadCycles: number;
  /** Intersection-table stores sent or queued and not yet acknowledged; the warp leaves after the last ack. */
  pendingStores: number;
  storeAck: StoreAck;
  /** Its own group while that is in the Warp Buffer. */
  group: RtWarp | null;
}

/** The write-ack waiter of a warp's intersection-table stores. */
interface StoreAck extends Waiter {
  warp: SmWarp;
}

/** A unique chunk request; it is its own cache waiter (client = the RT unit). */
type ChunkReq = ChunkReqOf<Ray>;

/** Operation unit kind per latency index: 0 ray-box, 1 ray-triangle / procedural, 2 transform. */
const UNIT_OF_LATENCY = [0, 0, 2, 1, 1, 1, 1];

/** Operation-unit latency index per node kind (gpgpu_rt_intersection_latency order); -1: memory only. */
const LATENCY_INDEX: Record<RtNodeKind, number> = {
  structure: 0, internal: 1, instanceLeaf: 2, transform: 2, triangleLeaf: 4, proceduralLeaf: 6, stackSpill: -1, coalescingBuffer: -1,
};

export class RtStats {
  warpsCompleted = 0;
  warpLatencySum = 0;
  /** Per-warp latency in the RT unit, cycles (Fig. 13). */
  readonly warpLatencies: number[] = [];
  raysCompleted = 0;
  rayLatencySum = 0;
  /**
   * Vulkan-Sim's per-warp measures (shader.cc rt_unit::cycle): the sum over warps of
   * sum(thread end - warp start) / (32 x warp latency), and of sum(thread end - warp start) / 32.
   * Both divide by the warp size, not the active lanes: a warp of few rays is inefficient.
   */
  warpEfficiencySum = 0;
  warpThreadLatencySum = 0;
  /** Node fetches (transactions other than stack spills). */
  nodes = 0;
  stackSpills = 0;
  /** Function call coalescing: coalescing-buffer reads (Vulkan-Sim IV-A's extra RT-unit loads). */
  coalescingAccesses = 0;
  /** Intersection tests and transforms (roofline operations). */
  ops = 0;
  /** Sum over operations of their pipeline latency (stage-cycles occupied). */
  opStageCycles = 0;
  /** Unique chunk requests sent to the cache (cache blocks fetched). */
  chunkRequests = 0;
  /** Intersection-table stores (Vulkan-Sim rt_writes): two 32-byte writes per procedural-leaf candidate. */
  stores = 0;
  /** Chunk requests merged into an identical pending request (within the warp / across warps). */
  mergedInWarp = 0;
  mergedAcrossWarps = 0;
  /** Cycles with at least one warp resident. */
  activeCycles = 0;
  /** Intersection prediction (paper 002), zero when the predictor is off. */
  readonly predictor = new PredictorStats();
  /** Sum over cycles of resident warps / rays still traversing. */
  warpCycles = 0;
  activeRayCycles = 0;
  add(o: RtStats): void {
    this.warpsCompleted += o.warpsCompleted;
    this.warpLatencySum += o.warpLatencySum;
    for (const l of o.warpLatencies) this.warpLatencies.push(l);
    this.raysCompleted += o.raysCompleted;
    this.rayLatencySum += o.rayLatencySum;
    this.warpEfficiencySum += o.warpEfficiencySum;
    this.warpThreadLatencySum += o.warpThreadLatencySum;
    this.nodes += o.nodes;
    this.stackSpills += o.stackSpills;
    this.coalescingAccesses += o.coalescingAccesses;
    this.ops += o.ops;
    this.opStageCycles += o.opStageCycles;
    this.chunkRequests += o.chunkRequests;
    this.stores += o.stores;
    this.mergedInWarp += o.mergedInWarp;
    this.mergedAcrossWarps += o.mergedAcrossWarps;
    this.activeCycles += o.activeCycles;
    this.warpCycles += o.warpCycles;
    this.activeRayCycles += o.activeRayCycles;
    this.predictor.add(o.predictor);
  }
}

/** Vulkan-Sim's RT_WRITE_BACK_SIZE: every RT-unit store is one 32-byte write. */
const STORE_BYTES = 32;
/** Vulkan-Sim's Baseline_Entry: uint32 hitGroupIndex[32], then {uint32 primitiveID, instanceID} shader_data[32]. */
export const INTERSECTION_TABLE_ENTRY_BYTES = 32 * 4 + 32 * 8;
/** INTERSECTION_TABLE_MAX_LENGTH entries per warp. */
export const INTERSECTION_TABLE_BYTES = 1000 * INTERSECTION_TABLE_ENTRY_BYTES;

/**
 * The intersection-table stores of one lane's traversal (Vulkan-Sim Baseline_warp_intersection_table
 * ::add_intersection): the k-th procedural-leaf candidate writes hitGroupIndex[lane] (4 B) and
 * shader_data[lane] (8 B) of table entry k, each as a 32-byte write of its aligned sector.
 */
export function intersectionTableStores(table: number, lane: number, tx: readonly RtTransaction[]): number[] | null {
  let out: number[] | null = null;
  let k = 0;
  for (const t of tx) {
    if (t.kind !== 'proceduralLeaf') continue;
    const entry = table + k++ * INTERSECTION_TABLE_ENTRY_BYTES;
    const hitGroup = entry + lane * 4;
    const shaderData = entry + 32 * 4 + lane * 8;
    (out ??= []).push(hitGroup - (hitGroup % STORE_BYTES), shaderData - (shaderData % STORE_BYTES));
  }
  return out;
}

/** The words of its 128-byte line that a chunk of `bytes` at `addr` covers. */
export function chunkWords(addr: number, bytes: number): number {
  const first = (addr % 128) >> 2;
  const n = Math.min(32 - first, Math.max(1, bytes >> 2));
  return n >= 32 ? 0xffffffff : (((1 << n) - 1) << first) >>> 0;
}

export class RtUnit implements MemClient {
  private readonly buffer: (RtWarp | null)[];
  private resident = 0;
  private activeRays = 0;
  private ageCounter = 0;
  private greedy: RtWarp | null = null;
  /** Unique chunk requests: MSHRs and the Memory Access Queue. */
  private readonly requests: RtChunkRequests<Ray>;
  /** Chunk requests sent to the cache whose response has not been popped from the FIFO. */
  private awaitingFifo = 0;
  /** Intersection-table stores waiting for the memory port (they go before new chunk requests). */
  private readonly storeQueue: { addr: number; ack: StoreAck }[] = [];
  private storeHead = 0;
  private readonly responses: Waiter[] = [];
  private responseHead = 0;
  private readonly ops = new EventHeap<Ray>();
  private lastAccount = 0;
  /** Operations started this cycle per unit kind: each of the `opUnits` pipelines takes one per cycle. */
  private readonly opStarts = new Int32Array(3);
  private opCycle = -1;
  readonly stats = new RtStats();
  /** The warp-timeline hooks of the SM (set by Sm.attachTimeline), or null. */
  timeline: SmTimelineHooks | null = null;
  private readonly latency: number[];
  private readonly chunkBytes: number;
  /** SM warps whose traceRay is in the unit (at most gpgpu_rt_max_warps). */
  private readonly smWarps = new Set<SmWarp>();
  /** See the file comment (watchdog). */
  lastProgress = 0;
  // Intersection prediction (paper 002); all empty when the predictor is off.
  private readonly predictor: IntersectionPredictor | null;
  private readonly lookupQueue: { ray: Ray; since: number }[] = [];
  private lookupHead = 0;
  private readonly lookupDone = new EventHeap<Ray>();
  private readonly updateQueue: TableUpdate[] = [];
  private updateHead = 0;
  /** The partial warp collector: predicted rays waiting to form a warp (Sec. 4.4.1). */
  private readonly collector: Ray[] = [];
  private collectorSince = 0;
  /** A full or timed-out partial warp waits for a Warp Buffer entry (new SM warps wait behind it). */
  private collectorWaiting = false;

  /**
   * `cache`: where node chunks go (the L1D, or the RT cache); `l1`: where intersection-table
   * stores go (always the L1D, as in Vulkan-Sim). `tableBase(slot)`: the address of the
   * intersection table of the warp in that SM slot.
   */
  constructor(
    private readonly cfg: GpuConfig,
    private readonly cache: L1DataCache,
    private readonly onWarpDone: (slot: number, now: number) => void,
    private readonly l1: L1DataCache = cache,
    private readonly tableBase: (slot: number) => number = () => 0,
  ) {
    const pc = cfg.rt.predictor;
    this.predictor = pc.enabled ? new IntersectionPredictor(pc, this.stats.predictor) : null;
    this.buffer = new Array<RtWarp | null>(cfg.rt.maxWarps + (pc.enabled ? pc.extraWarps : 0)).fill(null);
    this.latency = cfg.rt.latency;
    this.chunkBytes = cfg.rt.chunkBytes;
    this.requests = new RtChunkRequests<Ray>(this, cfg.rt.chunkBytes, cfg.rt.maxMshr, cfg.rt.memQueueSize);
  }

  get residentWarps(): number {
    return this.resident;
  }

  get raysInFlight(): number {
    return this.activeRays;
  }

  /** Predictor table bytes per SM, or 0 without a predictor. */
  get predictorTableBytes(): number {
    return this.predictor?.storageBytes() ?? 0;
  }

  hasRoom(): boolean {
    if (this.predictor === null) return this.resident < this.buffer.length;
    // Repacked warps may use the extra entries; new SM warps may not, and wait behind a repacked warp.
    return this.smWarps.size < this.cfg.rt.maxWarps && this.resident < this.cfg.rt.maxWarps && !this.collectorWaiting;
  }

  /** Routes a warp's traceRay into the warp buffer; false when the buffer is full. */
  tryAccept(slot: number, work: readonly RtLaneWork[], now: number): boolean {
    if (!this.hasRoom()) return false;
    const entry = this.buffer.indexOf(null);
    if (entry < 0) return false;
    this.account(now);
    this.lastProgress = now;
    const w: RtWarp = { entry, age: this.ageCounter++, active: 0, readyRays: [], owner: null, lookups: 0, held: [] };
    const owner = { slot, entry, enteredAt: now, rays: [], active: 0, threadCycles: 0, pendingStores: 0, group: w } as unknown as SmWarp;
    owner.storeAck = { client: this, tag: -1, warp: owner };
    w.owner = owner;
    const table = this.tableBase(slot);
    const predictor = this.predictor;
    for (const lw of work) {
      const ray: Ray = {
        warp: w, owner, lane: lw.lane, tx: lw.transactions, idx: 0, status: READY, pendingChunks: 0, start: now, opDone: 0,
        stores: this.cfg.rt.intersectionTableStores ? intersectionTableStores(table, lw.lane, lw.transactions) : null,
      };
      owner.rays.push(ray);
      if (predictor !== null && predictor.considers(lw)) {
        // Its transactions are known once the lookup resolves (operations counted then).
        ray.status = LOOKUP;
        ray.work = lw;
        this.lookupQueue.push({ ray, since: now });
        w.active++;
        w.lookups++;
        continue;
      }
      this.stats.ops += lw.boxTests + lw.triangleTests + lw.transforms;
      if (ray.tx.length === 0) {
        ray.status = DONE;
        this.stats.raysCompleted++;
      } else {
        w.active++;
        w.readyRays.push(ray);
      }
    }
    owner.active = w.active;
    this.activeRays += w.active;
    this.buffer[entry] = w;
    this.resident++;
    this.smWarps.add(owner);
    if (this.timeline !== null) this.timeline.rtEnter(entry, slot, owner.rays.length, now);
    if (w.active === 0) this.completeWarp(owner, now);
    return true;
  }

  onResponse(w: Waiter, _now: number): void {
    this.responses.push(w);
  }

  cycle(now: number): void {
    if (this.resident === 0 && this.requests.memQueue.length === 0 && this.responseHead === this.responses.length && !this.predictorBusy()) return;
    this.account(now);
    if (this.predictor !== null) this.predictorCycle(now);
    // 1. Operations finishing this cycle advance their rays.
    while (this.ops.size > 0 && this.ops.peekTime() <= now) this.advance(this.ops.pop(), now);
    // 2. Response FIFO: one chunk per cycle to the operation scheduler.
    if (this.responseHead < this.responses.length) {
      const r = this.responses[this.responseHead++]!;
      if (this.responseHead === this.responses.length) {
        this.responses.length = 0;
        this.responseHead = 0;
      }
      if (r.tag === -1) {
        // A write ack of an intersection-table store.
        const w = (r as StoreAck).warp;
        w.pendingStores--;
        this.lastProgress = now;
        this.awaitingFifo--;
        if (w.active === 0 && w.pendingStores === 0) this.completeWarp(w, now);
        return this.cycleScheduler(now);
      }
      const c = r as ChunkReq;
      this.requests.answered(c);
      this.awaitingFifo--;
      for (const ray of c.rays) {
        if (--ray.pendingChunks === 0) this.startOp(ray, now);
      }
    }
    this.cycleScheduler(now);
  }

  private cycleScheduler(now: number): void {
    // 3. Warp + memory scheduler.
    if (this.cfg.rt.scheduler === 'access') {
      // Vulkan-Sim (rt_unit::memory_cycle): a new access only when the last one's chunks and all
      // queued stores are out; then the oldest warp with a ray ready gets one unique address,
      // shared by all its ready rays that want it.
      if (!this.requests.blocked && this.requests.memQueue.length === 0 && this.storeHead === this.storeQueue.length) {
        const w = this.oldestReadyWarp();
        if (w) this.scheduleMemory(w, true);
      }
    } else if (!this.requests.blocked) {
      const w = this.selectWarp();
      if (w) this.scheduleMemory(w, false);
    }
    // 4. One request per cycle to the memory port, if its response will have a Response FIFO
    //    entry (credit-based: sent and not yet popped < FIFO size). Intersection-table stores go
    //    first (Vulkan-Sim rt_unit::memory_cycle serves mem_store_q before new accesses).
    if (this.storeHead < this.storeQueue.length && this.awaitingFifo < this.cfg.rt.responseFifoSize) {
      const s = this.storeQueue[this.storeHead]!;
      if (this.l1.access(s.addr, STORE_BYTES, ReqKind.Store, ReqSource.Rt, s.ack, now, false, chunkWords(s.addr, STORE_BYTES))) {
        this.storeHead++;
        if (this.storeHead === this.storeQueue.length) {
          this.storeQueue.length = 0;
          this.storeHead = 0;
        }
        this.awaitingFifo++;
        this.stats.stores++;
      }
      return;
    }
    const head = this.requests.memQueue[0];
    if (head !== undefined && this.awaitingFifo < this.cfg.rt.responseFifoSize) {
      const line = head.addr;
      if (this.cache.access(line, this.chunkBytes, ReqKind.Load, ReqSource.Rt, head, now, false, chunkWords(line, this.chunkBytes))) {
        this.requests.sent();
        this.awaitingFifo++;
        this.stats.chunkRequests++;
      }
    }
  }

  private selectWarp(): RtWarp | null {
    const g = this.greedy;
    if (g && g.readyRays.length > 0 && this.buffer[g.entry] === g) return g;
    let best: RtWarp | null = null;
    for (const w of this.buffer) if (w && w.readyRays.length > 0 && (!best || w.age < best.age)) best = w;
    this.greedy = best;
    return best;
  }

  private oldestReadyWarp(): RtWarp | null {
    let best: RtWarp | null = null;
    for (const w of this.buffer) if (w && w.readyRays.length > 0 && (!best || w.age < best.age)) best = w;
    return best;
  }

  /** `oneAccess`: only the rays of `w` that want the same node as its first ready ray. */
  private scheduleMemory(w: RtWarp, oneAccess: boolean): void {
    const coalesce = this.cfg.rt.coalesceWarps;
    const maxWarps = this.buffer.length;
    const ready = w.readyRays;
    if (oneAccess) {
      const address = ready[0]!.tx[ready[0]!.idx]!.address;
      const same = ready.filter((r) => r.tx[r.idx]!.address === address);
      const rest = ready.filter((r) => r.tx[r.idx]!.address !== address);
      ready.length = 0;
      ready.push(...same);
      this.scheduleRays(w, ready, coalesce, maxWarps);
      ready.push(...rest);
      return;
    }
    this.scheduleRays(w, ready, coalesce, maxWarps);
  }

  /** Queues the chunk requests of `ready` rays in order until MSHRs or the queue run out; removes the rays it took. */
  private scheduleRays(w: RtWarp, ready: Ray[], coalesce: boolean, maxWarps: number): void {
    let taken = 0;
    for (; taken < ready.length; taken++) {
      const ray = ready[taken]!;
      const t = ray.tx[ray.idx]!;
      const chunks = this.requests.request(ray, t.address, t.size, coalesce ? 1 : maxWarps, coalesce ? 0 : w.entry, w, this.stats);
      if (chunks < 0) break;
      ray.pendingChunks = chunks;
      ray.status = WAIT_MEM;
      if (t.kind === 'stackSpill') this.stats.stackSpills++;
      else if (t.kind === 'coalescingBuffer') this.stats.coalescingAccesses++;
      else this.stats.nodes++;
    }
    if (taken === ready.length) ready.length = 0;
    else if (taken > 0) ready.splice(0, taken);
  }

  private startOp(ray: Ray, now: number): void {
    if (ray.stores !== null) {
      // Vulkan-Sim queues all of a thread's traversal stores when its first node arrives
      // (warp_inst_t::dec_thread_latency, at the start of the thread's first intersection delay).
      for (const addr of ray.stores) this.storeQueue.push({ addr, ack: ray.owner.storeAck });
      ray.owner.pendingStores += ray.stores.length;
      ray.stores = null;
    }
    const t = ray.tx[ray.idx]!;
    const li = LATENCY_INDEX[t.kind];
    if (li < 0) {
      this.advance(ray, now);
      return;
    }
    ray.status = IN_OP;
    if (this.opCycle !== now) {
      this.opCycle = now;
      this.opStarts.fill(0);
    }
    // More simultaneous operations than pipelines of that kind start in later cycles.
    const queued = Math.floor(this.opStarts[UNIT_OF_LATENCY[li]!]++ / this.cfg.rt.opUnits);
    const lat = this.latency[li]!;
    this.stats.opStageCycles += lat;
    ray.opDone = now + queued + lat;
    this.ops.push(ray.opDone, ray);
  }

  private advance(ray: Ray, now: number): void {
    const w = ray.warp;
    ray.idx++;
    this.lastProgress = now;
    if (ray.idx < ray.tx.length) {
      ray.status = READY;
      w.readyRays.push(ray);
      return;
    }
    this.finishRay(ray, now);
  }

  private finishRay(ray: Ray, now: number): void {
    const w = ray.warp, owner = ray.owner;
    ray.status = DONE;
    this.stats.raysCompleted++;
    this.stats.rayLatencySum += now - ray.start;
    owner.threadCycles += now - owner.enteredAt;
    w.active--;
    owner.active--;
    this.activeRays--;
    if (ray.update !== undefined) this.updateQueue.push(ray.update);
    if (w.active === 0 && (w.owner === null || w.owner.active > 0)) this.releaseGroup(w);
    if (owner.active === 0 && owner.pendingStores === 0) this.completeWarp(owner, now);
  }

  /** Frees a group's Warp Buffer entry. */
  private releaseGroup(w: RtWarp): void {
    if (this.buffer[w.entry] !== w) return;
    this.buffer[w.entry] = null;
    this.resident--;
    if (this.greedy === w) this.greedy = null;
    if (w.owner !== null) w.owner.group = null;
  }

  private completeWarp(w: SmWarp, now: number): void {
    this.lastProgress = now;
    if (w.group !== null) this.releaseGroup(w.group);
    this.smWarps.delete(w);
    const lat = now - w.enteredAt;
    this.stats.warpsCompleted++;
    this.stats.warpLatencySum += lat;
    this.stats.warpLatencies.push(lat);
    this.stats.warpThreadLatencySum += w.threadCycles / 32;
    if (lat > 0) this.stats.warpEfficiencySum += w.threadCycles / (32 * lat);
    if (this.timeline !== null) this.timeline.rtLeave(w.entry, w.slot, now);
    this.onWarpDone(w.slot, now);
  }

  /** Adds the state held since the last call to the per-cycle averages. */
  private account(now: number): void {
    const dt = now - this.lastAccount;
    if (dt <= 0) return;
    if (this.resident > 0) {
      this.stats.activeCycles += dt;
      this.stats.warpCycles += dt * this.resident;
      this.stats.activeRayCycles += dt * this.activeRays;
    }
    this.lastAccount = now;
  }

  finish(now: number): void {
    this.account(now);
  }

  nextEvent(now: number): number {
    if (this.responseHead < this.responses.length || this.requests.memQueue.length > 0 || this.storeHead < this.storeQueue.length) return now + 1;
    if (this.lookupHead < this.lookupQueue.length || this.updateHead < this.updateQueue.length || this.collector.length > 0) return now + 1;
    const lookup = this.lookupDone.size > 0 ? Math.max(now + 1, this.lookupDone.peekTime()) : Infinity;
    if (!this.requests.blocked) for (const w of this.buffer) if (w && w.readyRays.length > 0) return now + 1;
    const t = this.ops.peekTime();
    return Math.min(lookup, t <= now ? now + 1 : t);
  }

  /**
   * For the deadlock watchdog: the oldest SM warp in the unit and what its first unfinished ray
   * waits on; null when no warp is in the unit.
   */
  stall(): { context: number; detail: string } | null {
    let w: SmWarp | null = null;
    for (const o of this.smWarps) if (!w || o.enteredAt < w.enteredAt) w = o;
    if (!w) return null;
    const ray = w.rays.find((r) => r.status !== DONE);
    if (!ray) return { context: w.slot, detail: `all rays done, ${w.pendingStores} intersection-table store acknowledgements outstanding` };
    if (ray.status === LOOKUP) return { context: w.slot, detail: `ray of lane ${ray.lane} waiting for its intersection predictor lookup` };
    if (ray.status === COLLECTED) {
      return { context: w.slot, detail: `ray of lane ${ray.lane} in the partial warp collector (${this.collector.length} rays, ${this.collectorWaiting ? 'waiting for a Warp Buffer entry' : 'filling'})` };
    }
    const t = ray.tx[ray.idx]!;
    const at = `ray of lane ${ray.lane} at transaction ${ray.idx + 1} of ${ray.tx.length} (${t.kind} at 0x${t.address.toString(16)})`;
    // Say whether the memory system holds the request or the L1 never took it (issue 26: both
    // showed as "waiting for its chunk responses" / "ready" while the L1 refused the RT unit).
    const unsent = this.requests.memQueue.filter((c) => c.rays.includes(ray)).length;
    const port = `${this.requests.mshrUsed} of ${this.cfg.rt.maxMshr} MSHRs in use, ${this.requests.memQueue.length} chunks and ` +
      `${this.storeQueue.length - this.storeHead} intersection-table stores queued for the L1, ${this.awaitingFifo} responses outstanding`;
    const why =
      ray.status === IN_OP ? `in an intersection operation until cycle ${ray.opDone}`
      : ray.status === WAIT_MEM ? `waiting for ${ray.pendingChunks} of its chunk responses (${unsent} of them not yet taken by the L1; ${port})`
      : `ready but not scheduled (${port})`;
    return { context: w.slot, detail: `${at}, ${why}` };
  }

  idle(): boolean {
    return this.resident === 0 && this.requests.memQueue.length === 0 && this.requests.mshrUsed === 0 && this.storeHead === this.storeQueue.length && !this.predictorBusy();
  }

  private predictorBusy(): boolean {
    return this.lookupHead < this.lookupQueue.length || this.lookupDone.size > 0 || this.updateHead < this.updateQueue.length || this.collector.length > 0;
  }

  /**
   * One cycle of the predictor (paper 002 Fig. 10): `ports` table updates and `ports` lookups;
   * lookups resolved `latency` cycles ago hand their rays to their warp, or with repacking the
   * predicted ones to the partial warp collector, which forms a warp at 32 rays or on timeout.
   */
  private predictorCycle(now: number): void {
    const p = this.predictor!;
    const ports = p.cfg.ports;
    for (let i = 0; i < ports && this.updateHead < this.updateQueue.length; i++) p.applyUpdate(this.updateQueue[this.updateHead++]);
    if (this.updateHead === this.updateQueue.length) { this.updateQueue.length = 0; this.updateHead = 0; }
    for (let i = 0; i < ports && this.lookupHead < this.lookupQueue.length; i++) {
      const { ray, since } = this.lookupQueue[this.lookupHead++]!;
      p.stats.lookupQueueCycles += now - since;
      this.lastProgress = now;
      const pred = p.predict(ray.work!);
      ray.work = undefined;
      ray.tx = pred.tx;
      ray.update = pred.update;
      this.stats.ops += pred.ops;
      ray.predicted = pred.predicted;
      this.lookupDone.push(now + p.cfg.latency, ray);
    }
    if (this.lookupHead === this.lookupQueue.length) { this.lookupQueue.length = 0; this.lookupHead = 0; }
    while (this.lookupDone.size > 0 && this.lookupDone.peekTime() <= now) {
      const ray = this.lookupDone.pop();
      const w = ray.warp;
      w.lookups--;
      if (ray.tx.length === 0) {
        this.finishRay(ray, now);
      } else if (ray.predicted === true && p.cfg.repack && this.collector.length < p.cfg.collectorSize) {
        ray.status = COLLECTED;
        w.active--;
        if (this.collector.length === 0) this.collectorSince = now;
        this.collector.push(ray);
        if (w.active === 0 && w.owner !== null && w.owner.active > 0) this.releaseGroup(w);
      } else {
        ray.status = READY;
        w.held.push(ray);
      }
      if (w.lookups === 0 && w.held.length > 0) {
        for (const r of w.held) w.readyRays.push(r);
        w.held.length = 0;
      }
    }
    const timedOut = this.collector.length > 0 && now - this.collectorSince >= p.cfg.collectorTimeout;
    this.collectorWaiting = false;
    if (this.collector.length >= 32 || timedOut) {
      const entry = this.buffer.indexOf(null);
      if (entry < 0) {
        this.collectorWaiting = true;
        return;
      }
      const w: RtWarp = { entry, age: this.ageCounter++, active: 0, readyRays: [], owner: null, lookups: 0, held: [] };
      for (const ray of this.collector.splice(0, 32)) {
        ray.warp = w;
        ray.status = READY;
        w.active++;
        w.readyRays.push(ray);
      }
      this.buffer[entry] = w;
      this.resident++;
      p.stats.repackedWarps++;
      if (w.active < 32) p.stats.collectorTimeouts++;
      this.collectorSince = now;
    }
  }
}
