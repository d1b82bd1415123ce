/**
 * The intersection predictor as a policy of the one RT unit (paper 002 Sec. 4, Fig. 10): the
 * baseline order (rt/baseline-order.ts) with a predictor lookup before each considered ray
 * traverses, and warp repacking.
 * - Lookup and updates (predictor-lookup.ts): a considered ray gets the transactions it replays
 *   from its lookup; its warp starts traversing once all of its lookups are done (Sec. 4.4.1:
 *   after the lookups, predicted rays leave and the not-predicted remain); a ray that hits queues
 *   its table update when it finishes.
 * - Repacking (`gpgpu_rt_predictor_repack`): predicted rays go to the partial warp collector,
 *   which forms a warp of its own at 32 rays or after `gpgpu_rt_predictor_collector_timeout`
 *   cycles, in a Warp Buffer entry that may be one of `gpgpu_rt_predictor_extra_warps` extra
 *   entries (Sec. 4.4.2); new SM warps wait behind a formed warp that finds no entry.
 * Knobs: `gpgpu_rt_predictor*` (config/params.ts, predictor-config.ts); stats: PredictorStats
 * (intersection-predictor.ts), reported as `rt_predictor_*`.
 *
 * Invariants: a ray with status LOOKUP is in the lookup; one with status COLLECTED is in the
 * collector; `lookups` of a group counts its rays with status LOOKUP.
 */
import type { RtLaneWork } from '../../warp-step.js';
import { BaselineOrder, type Group, type OrderRay, type SmWarp } from '../rt/baseline-order.js';
import type { RtUnit } from '../rt/rt-unit.js';
import { COLLECTED, LOOKUP, READY, type RtRay } from '../rt/traversal-policy.js';
import { type LookedUpRay, PredictorLookup } from './predictor-lookup.js';
import { truncate } from '../truncate.js';

interface LookupGroup extends Group {
  /**
   * Rays still in the predictor lookup; those already looked up wait in `held` so the warp starts
   * traversing together once all of its lookups are done.
   */
  lookups: number;
  held: PredictedRay[];
}

interface PredictedRay extends OrderRay, Pick<LookedUpRay, 'work' | 'update' | 'predicted' | 'verified' | 'predictionTx'> {
  warp: LookupGroup;
  /** The cycle it entered the partial warp collector. */
  collectedAt?: number;
}

export class PredictorPolicy extends BaselineOrder {
  private readonly lookup: PredictorLookup<PredictedRay>;
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
    this.lookup = new PredictorLookup(unit);
  }

  override get predictorTableBytes(): number {
    return this.lookup.tableBytes;
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
    if (!this.lookup.considers(lw)) return false;
    // Its transactions are known once the lookup resolves (operations counted then).
    const ray = r as PredictedRay;
    ray.status = LOOKUP;
    this.lookup.enqueue(ray, lw, now);
    ray.warp.active++;
    ray.warp.lookups++;
    return true;
  }

  protected override rayFinished(r: OrderRay): void {
    this.lookup.finished(r as PredictedRay);
  }

  protected override finishRay(r: OrderRay, now: number): void {
    const ray = r as PredictedRay;
    const s = this.lookup.predictor.stats;
    if (ray.predicted === false) s.latencyNotPredicted += now - ray.start;
    else if (ray.predicted === true) {
      if (ray.verified === true) s.latencyVerified += now - ray.start;
      else s.latencyMispredicted += now - ray.start;
    }
    super.finishRay(r, now);
  }

  /** Chunk requests and merges by class of looked-up ray (rays not looked up have `predicted` unset). */
  override requested(r: RtRay, fresh: number, merged: number): void {
    const ray = r as PredictedRay;
    if (ray.predicted === undefined) return;
    const s = this.lookup.predictor.stats;
    if (!ray.predicted) {
      s.requestsNotPredicted += fresh;
      s.mergedNotPredicted += merged;
    } else if (ray.verified === true) {
      s.requestsVerified += fresh;
      s.mergedVerified += merged;
    } else if (ray.idx < ray.predictionTx!) {
      s.requestsMispredictedPrediction += fresh;
      s.mergedMispredictedPrediction += merged;
    } else {
      s.requestsMispredictedRestart += fresh;
      s.mergedMispredictedRestart += merged;
    }
  }

  /**
   * One cycle of the predictor (paper 002 Fig. 10): `ports` table updates and `ports` lookups;
   * lookups resolved `latency` cycles ago hand their rays to their warp, or with repacking the
   * predicted ones to the partial warp collector, which forms a warp at 32 rays or on timeout.
   */
  override cycle(now: number): void {
    const u = this.unit;
    const p = this.lookup.predictor;
    this.lookup.cycle(now, (ray) => {
      const w = ray.warp;
      w.lookups--;
      if (ray.tx.length === 0) {
        this.finishRay(ray, now);
      } else if (ray.predicted === true && p.cfg.repack && this.collector.length < p.cfg.collectorSize) {
        ray.status = COLLECTED;
        ray.collectedAt = now;
        w.active--;
        if (this.collector.length === 0) this.collectorSince = now;
        this.collector.push(ray);
        if (w.active === 0 && w.owner !== null && w.owner.left > 0) this.releaseGroup(w, now);
      } else {
        ray.status = READY;
        w.held.push(ray);
      }
      if (w.lookups === 0 && w.held.length > 0) {
        for (const r of w.held) {
          w.readyRays.push(r);
          p.stats.preTraversalCycles += now - r.start;
          p.stats.preTraversalRays++;
        }
        truncate(w.held, 0);
      }
    });
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
        p.stats.preTraversalCycles += now - ray.start;
        p.stats.preTraversalRays++;
        p.stats.collectorCycles += now - ray.collectedAt!;
        p.stats.repackedRays++;
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
    return this.lookup.busy() || this.collector.length > 0;
  }

  override idle(): boolean {
    return !this.busy();
  }

  override nextEvent(now: number): number {
    return this.collector.length > 0 ? now + 1 : this.lookup.nextEvent(now);
  }
}
