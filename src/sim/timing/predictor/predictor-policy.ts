/**
 * The intersection predictor as a policy of the one RT unit (paper 002 Sec. 4, Fig. 10): the
 * baseline order (rt/baseline-order.ts) with a predictor lookup before each considered ray
 * traverses, and warp repacking.
 * - Lookup: a considered ray (intersection-predictor.ts `considers`) waits in the lookup queue;
 *   `gpgpu_rt_predictor_ports` lookups per cycle, resolved `gpgpu_rt_predictor_latency` cycles
 *   later, give the ray the transactions it replays (from the predicted nodes, or from the root).
 *   Its warp starts traversing once all of its lookups are done (Sec. 4.4.1: after the lookups,
 *   predicted rays leave and the not-predicted remain).
 * - Updates: a ray that hits queues its table update when it finishes; `ports` updates per cycle.
 * - Repacking (`gpgpu_rt_predictor_repack`): predicted rays go to the partial warp collector,
 *   which forms a warp of its own at 32 rays or after `gpgpu_rt_predictor_collector_timeout`
 *   cycles, in a Warp Buffer entry that may be one of `gpgpu_rt_predictor_extra_warps` extra
 *   entries (Sec. 4.4.2); new SM warps wait behind a formed warp that finds no entry.
 * Knobs: `gpgpu_rt_predictor*` (config/params.ts, predictor-config.ts); stats: PredictorStats
 * (intersection-predictor.ts), reported as `rt_predictor_*`.
 *
 * Invariants: a ray with status LOOKUP is in the lookup queue or `lookupDone`; one with status
 * COLLECTED is in the collector; `lookups` of a group counts its rays with status LOOKUP.
 */
import type { RtLaneWork } from '../../warp-step.js';
import { EventHeap } from '../event-heap.js';
import { BaselineOrder, type Group, type OrderRay, type SmWarp } from '../rt/baseline-order.js';
import type { RtUnit } from '../rt/rt-unit.js';
import { COLLECTED, LOOKUP, READY } from '../rt/traversal-policy.js';
import { IntersectionPredictor, type TableUpdate } from './intersection-predictor.js';

interface LookupGroup extends Group {
  /**
   * Rays still in the predictor lookup; those already looked up wait in `held` so the warp starts
   * traversing together once all of its lookups are done.
   */
  lookups: number;
  held: PredictedRay[];
}

interface PredictedRay extends OrderRay {
  warp: LookupGroup;
  /** The table update this ray makes when it finishes. */
  update?: TableUpdate | undefined;
  /** The lane's work, until its lookup resolves it. */
  work?: RtLaneWork | undefined;
  /** The table returned nodes for it (repacking moves it to the collector). */
  predicted?: boolean;
}

export class PredictorPolicy extends BaselineOrder {
  private readonly predictor: IntersectionPredictor;
  private readonly lookupQueue: { ray: PredictedRay; since: number }[] = [];
  private lookupHead = 0;
  private readonly lookupDone = new EventHeap<PredictedRay>();
  private readonly updateQueue: TableUpdate[] = [];
  private updateHead = 0;
  /** The partial warp collector: predicted rays waiting to form a warp (Sec. 4.4.1). */
  private readonly collector: PredictedRay[] = [];
  private collectorSince = 0;
  /** A full or timed-out partial warp waits for a Warp Buffer entry (new SM warps wait behind it). */
  private collectorWaiting = false;

  /** Warp Buffer entries the unit needs: the SM warps' and the extra ones for repacked warps. */
  static entries(unit: { cfg: RtUnit['cfg'] }): number {
    return unit.cfg.rt.maxWarps + unit.cfg.rt.predictor.extraWarps;
  }

  constructor(unit: RtUnit) {
    super(unit);
    this.predictor = new IntersectionPredictor(unit.cfg.rt.predictor, unit.stats.predictor);
  }

  /** Predictor table bytes per SM. */
  get tableBytes(): number {
    return this.predictor.storageBytes();
  }

  override hasRoom(): boolean {
    // Repacked warps may use the extra entries; new SM warps may not, and wait behind a repacked warp.
    const max = this.unit.cfg.rt.maxWarps;
    return this.smWarps.size < max && this.unit.resident < max && !this.collectorWaiting;
  }

  protected override newGroup(entry: number, owner: SmWarp | null): LookupGroup {
    return { ...super.newGroup(entry, owner), lookups: 0, held: [] };
  }

  protected override acceptRay(r: OrderRay, lw: RtLaneWork, now: number): boolean {
    if (!this.predictor.considers(lw)) return false;
    // Its transactions are known once the lookup resolves (operations counted then).
    const ray = r as PredictedRay;
    ray.status = LOOKUP;
    ray.work = lw;
    this.lookupQueue.push({ ray, since: now });
    ray.warp.active++;
    ray.warp.lookups++;
    return true;
  }

  protected override rayFinished(r: OrderRay): void {
    const ray = r as PredictedRay;
    if (ray.update !== undefined) this.updateQueue.push(ray.update);
  }

  /**
   * One cycle of the predictor (paper 002 Fig. 10): `ports` table updates and `ports` lookups;
   * lookups resolved `latency` cycles ago hand their rays to their warp, or with repacking the
   * predicted ones to the partial warp collector, which forms a warp at 32 rays or on timeout.
   */
  override cycle(now: number): void {
    const u = this.unit;
    const p = this.predictor;
    const ports = p.cfg.ports;
    for (let i = 0; i < ports && this.updateHead < this.updateQueue.length; i++) p.applyUpdate(this.updateQueue[this.updateHead++]!);
    if (this.updateHead === this.updateQueue.length) { this.updateQueue.length = 0; this.updateHead = 0; }
    for (let i = 0; i < ports && this.lookupHead < this.lookupQueue.length; i++) {
      const { ray, since } = this.lookupQueue[this.lookupHead++]!;
      p.stats.lookupQueueCycles += now - since;
      u.lastProgress = now;
      const pred = p.predict(ray.work!);
      ray.work = undefined;
      ray.tx = pred.tx;
      ray.update = pred.update;
      u.stats.ops += pred.ops;
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
        if (w.active === 0 && w.owner !== null && w.owner.left > 0) this.releaseGroup(w, now);
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
      const entry = u.freeEntry();
      if (entry < 0) {
        this.collectorWaiting = true;
        return;
      }
      const w = this.newGroup(entry, null);
      for (const ray of this.collector.splice(0, 32)) {
        ray.warp = w;
        ray.status = READY;
        w.active++;
        w.readyRays.push(ray);
      }
      u.place(w);
      p.stats.repackedWarps++;
      if (w.active < 32) p.stats.collectorTimeouts++;
      this.collectorSince = now;
    }
  }

  protected override stallOf(r: OrderRay): string | null {
    const ray = r as PredictedRay;
    if (ray.status === LOOKUP) return `ray of lane ${ray.lane} waiting for its intersection predictor lookup`;
    if (ray.status === COLLECTED) {
      return `ray of lane ${ray.lane} in the partial warp collector (${this.collector.length} rays, ${this.collectorWaiting ? 'waiting for a Warp Buffer entry' : 'filling'})`;
    }
    return null;
  }

  override busy(): boolean {
    return this.lookupHead < this.lookupQueue.length || this.lookupDone.size > 0 || this.updateHead < this.updateQueue.length || this.collector.length > 0;
  }

  override idle(): boolean {
    return !this.busy();
  }

  override nextEvent(now: number): number {
    if (this.lookupHead < this.lookupQueue.length || this.updateHead < this.updateQueue.length || this.collector.length > 0) return now + 1;
    return this.lookupDone.size > 0 ? Math.max(now + 1, this.lookupDone.peekTime()) : Infinity;
  }
}
