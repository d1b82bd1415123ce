/**
 * The baseline traversal order (Vulkan-Sim III-C): an SM warp's traceRay takes one Warp Buffer
 * entry, its rays each replay their own transactions in the functional traversal's order, and the
 * warp leaves the buffer (the SM warp continues) when its last ray is done and its
 * intersection-table stores are acknowledged. A policy of the one RT unit (rt-unit.ts); the
 * predictor (predictor/predictor-policy.ts) extends it.
 *
 * Invariants: an SM warp's own group is in the buffer from its traceRay's acceptance until the
 * SM warp completes, unless the predictor moved all its remaining rays to other groups; `active`
 * counts rays accepted and not done (in a lookup, the collector, ready, waiting or in an operation).
 */
import type { RtLaneWork } from '../../warp-step.js';
import type { Waiter } from '../mem-request.js';
import { intersectionTableStores } from './intersection-table.js';
import type { RtUnit } from './rt-unit.js';
import { DONE, IN_OP, READY, type RtRay, type RtWarp, TAG_STORE_ACK, type TraceSource, type TraversalPolicy, WAIT_MEM } from './traversal-policy.js';

/** The traceRay of one SM warp: it completes (and the SM warp continues) when all its rays are done. */
export interface SmWarp extends TraceSource {
  /** The Warp Buffer entry its own group took when it entered (its track in the warp timeline). */
  entry: number;
  enteredAt: number;
  /** All its rays, in lane order (for the deadlock report). */
  rays: OrderRay[];
  /** Sum over its rays of (finish - entry) cycles. */
  threadCycles: number;
  /** Its own group while that is in the Warp Buffer. */
  group: Group | null;
}

/** A warp of the buffer: exactly one SM warp's rays, or (predictor repacking) a group of its own. */
export interface Group extends RtWarp {
  /** The SM warp this group was created for; null for a repacked warp. */
  owner: SmWarp | null;
}

export interface OrderRay extends RtRay {
  warp: Group;
  src: SmWarp;
}

export class BaselineOrder implements TraversalPolicy {
  /** SM warps whose traceRay is in the unit (at most gpgpu_rt_max_warps). */
  protected readonly smWarps = new Set<SmWarp>();
  private rays = 0;

  constructor(protected readonly unit: RtUnit) {}

  get activeRays(): number {
    return this.rays;
  }

  get raysInFlight(): number {
    return this.rays;
  }

  get predictorTableBytes(): number {
    return 0;
  }

  hasRoom(): boolean {
    return this.unit.resident < this.unit.buffer.length;
  }

  tryAccept(slot: number, work: readonly RtLaneWork[], now: number): boolean {
    if (!this.hasRoom()) return false;
    const u = this.unit;
    const entry = u.freeEntry();
    if (entry < 0) return false;
    u.account(now);
    u.lastProgress = now;
    const w = this.newGroup(entry, null);
    const owner: SmWarp = { client: u, tag: TAG_STORE_ACK, token: slot, left: 0, pendingStores: 0, entry, enteredAt: now, rays: [], threadCycles: 0, group: w };
    w.owner = owner;
    const table = u.ports.tableBase(slot);
    const stores = u.cfg.rt.intersectionTableStores;
    for (const lw of work) {
      const ray: OrderRay = {
        warp: w, src: owner, lane: lw.lane, tx: lw.transactions, idx: 0, status: READY, pendingChunks: 0, start: now, opDone: 0, sentAt: 0,
        stores: stores ? intersectionTableStores(table, lw.lane, lw.transactions) : null,
      };
      owner.rays.push(ray);
      if (this.acceptRay(ray, lw, now)) continue;
      u.stats.ops += lw.boxTests + lw.triangleTests + lw.transforms;
      if (ray.tx.length === 0) {
        ray.status = DONE;
        u.stats.raysCompleted++;
      } else {
        w.active++;
        w.readyRays.push(ray);
      }
    }
    owner.left = w.active;
    this.rays += w.active;
    u.place(w);
    this.smWarps.add(owner);
    if (u.timeline !== null) u.timeline.rtEnter(entry, slot, owner.rays.length, now);
    if (w.active === 0) this.completeWarp(owner, now);
    return true;
  }

  /** A group for `entry` (not yet placed). */
  protected newGroup(entry: number, owner: SmWarp | null): Group {
    return { entry, age: this.unit.nextAge(), active: 0, readyRays: [], inflight: 0, draining: false, owner };
  }

  /** Takes the ray elsewhere before it traverses (predictor lookup); false: it traverses now. */
  protected acceptRay(_ray: OrderRay, _lw: RtLaneWork, _now: number): boolean {
    return false;
  }

  advance(r: RtRay, now: number): void {
    const ray = r as OrderRay;
    const w = ray.warp;
    w.inflight--;
    ray.idx++;
    this.unit.lastProgress = now;
    if (ray.idx < ray.tx.length) {
      ray.status = READY;
      w.readyRays.push(ray);
      return;
    }
    this.finishRay(ray, now);
  }

  protected finishRay(ray: OrderRay, now: number): void {
    const w = ray.warp, owner = ray.src, stats = this.unit.stats;
    ray.status = DONE;
    stats.raysCompleted++;
    stats.rayLatencySum += now - ray.start;
    owner.threadCycles += now - owner.enteredAt;
    w.active--;
    owner.left--;
    this.rays--;
    this.rayFinished(ray);
    if (w.active === 0 && (w.owner === null || w.owner.left > 0)) this.releaseGroup(w, now);
    if (owner.left === 0 && owner.pendingStores === 0) this.completeWarp(owner, now);
  }

  /** A ray finished its traversal (the predictor queues its table update). */
  protected rayFinished(_ray: OrderRay): void {}

  /** Frees a group's Warp Buffer entry. */
  protected releaseGroup(w: Group, now: number): void {
    if (!this.unit.release(w, now)) return;
    if (w.owner !== null) w.owner.group = null;
  }

  private completeWarp(w: SmWarp, now: number): void {
    const u = this.unit;
    u.lastProgress = now;
    if (w.group !== null) this.releaseGroup(w.group, now);
    this.smWarps.delete(w);
    u.stats.warpDone(now - w.enteredAt, w.threadCycles, w.rays.length);
    if (u.timeline !== null) u.timeline.rtLeave(w.entry, w.token, now);
    u.ports.onTraceDone(w.token, now);
  }

  sourceDone(src: TraceSource, now: number): void {
    this.completeWarp(src as SmWarp, now);
  }

  stall(): { context: number; detail: string } | null {
    let w: SmWarp | null = null;
    for (const o of this.smWarps) if (!w || o.enteredAt < w.enteredAt) w = o;
    if (!w) return null;
    const ray = w.rays.find((r) => r.status !== DONE);
    if (!ray) return { context: w.token, detail: `all rays done, ${w.pendingStores} intersection-table store acknowledgements outstanding` };
    const own = this.stallOf(ray);
    if (own !== null) return { context: w.token, detail: own };
    const t = ray.tx[ray.idx]!;
    const at = `ray of lane ${ray.lane} at transaction ${ray.idx + 1} of ${ray.tx.length} (${t.kind} at 0x${t.address.toString(16)})`;
    // Say whether the memory system holds the request or the L1 never took it (issue 26: both
    // showed as "waiting for its chunk responses" / "ready" while the L1 refused the RT unit).
    const unsent = this.unit.requests.memQueue.filter((c) => c.rays.includes(ray)).length;
    const port = this.unit.portState();
    const why =
      ray.status === IN_OP ? `in an intersection operation until cycle ${ray.opDone}`
      : ray.status === WAIT_MEM ? `waiting for ${ray.pendingChunks} of its chunk responses (${unsent} of them not yet taken by the L1; ${port})`
      : `ready but not scheduled (${port})`;
    return { context: w.token, detail: `${at}, ${why}` };
  }

  /** Where a ray in a state of the policy's own is (the predictor's lookup and collector); null otherwise. */
  protected stallOf(_ray: OrderRay): string | null {
    return null;
  }

  beforeCycle(_now: number): void {}
  cycle(_now: number): void {}
  afterResponses(_now: number): void {}
  opStarted(): void {}
  requested(_ray: RtRay, _fresh: number, _merged: number): void {}
  onResponse(_w: Waiter, _now: number): void {}
  portBeforeChunks(_now: number): boolean {
    return false;
  }
  portIdle(_now: number): void {}
  accountResident(_dt: number): void {}
  busy(): boolean {
    return false;
  }
  idle(): boolean {
    return true;
  }
  nextEvent(_now: number): number {
    return Infinity;
  }
  finish(_now: number): void {}
}
