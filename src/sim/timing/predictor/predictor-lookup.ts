/**
 * The predictor's pipeline in front of the traversal (paper 002 Sec. 4.1, Fig. 10), shared by the
 * traversal policies that look rays up (predictor-policy.ts on the baseline order, and the treelet
 * policy): the lookup queue and the update queue, `gpgpu_rt_predictor_ports` accesses each per
 * cycle, a lookup resolved `gpgpu_rt_predictor_latency` cycles after its table access. A resolved
 * ray carries the transactions it replays (from the predicted nodes, or from the root) and the
 * table update it makes when it finishes.
 *
 * Invariants: a ray handed to `enqueue` comes back through `cycle`'s callback exactly once; the
 * operations of a looked-up ray are counted when its lookup is made (they depend on it).
 */
import type { RtLaneWork } from '../../warp-step.js';
import { EventHeap } from '../event-heap.js';
import type { RtUnit } from '../rt/rt-unit.js';
import type { RtRay } from '../rt/traversal-policy.js';
import { IntersectionPredictor, type TableUpdate } from './intersection-predictor.js';
import { truncate } from '../truncate.js';

/** What the lookup gives a ray. */
export interface LookedUpRay extends RtRay {
  /** The lane's work, until its lookup resolves it. */
  work?: RtLaneWork | undefined;
  /** The table update this ray makes when it finishes. */
  update?: TableUpdate | undefined;
  /** The table returned nodes for it. */
  predicted?: boolean;
  /** Traversing from the predicted nodes found an intersection. */
  verified?: boolean;
  /** Its first `predictionTx` transactions traverse from the predicted nodes. */
  predictionTx?: number;
}

export class PredictorLookup<R extends LookedUpRay> {
  readonly predictor: IntersectionPredictor;
  private readonly lookupQueue: { ray: R; since: number }[] = [];
  private lookupHead = 0;
  private readonly lookupDone = new EventHeap<R>();
  private readonly updateQueue: TableUpdate[] = [];
  private updateHead = 0;

  constructor(private readonly unit: RtUnit) {
    this.predictor = new IntersectionPredictor(unit.cfg.rt.predictor, unit.stats.predictor);
  }

  /** Whether the ray of this lane is looked up (occlusion rays; all with closest-hit prediction). */
  considers(lw: RtLaneWork): boolean {
    return this.predictor.considers(lw);
  }

  /** Queues the ray's lookup; its transactions are known once the lookup resolves. */
  enqueue(ray: R, lw: RtLaneWork, now: number): void {
    ray.work = lw;
    this.lookupQueue.push({ ray, since: now });
  }

  /** A finished ray's table update, if it hit. */
  finished(ray: R): void {
    if (ray.update !== undefined) this.updateQueue.push(ray.update);
  }

  /** One cycle: `ports` table updates and `ports` lookups; lookups resolved by now go to `resolved`, in order. */
  cycle(now: number, resolved: (ray: R) => void): void {
    const u = this.unit;
    const p = this.predictor;
    const ports = p.cfg.ports;
    for (let i = 0; i < ports && this.updateHead < this.updateQueue.length; i++) p.applyUpdate(this.updateQueue[this.updateHead++]!);
    if (this.updateHead === this.updateQueue.length) { truncate(this.updateQueue, 0); this.updateHead = 0; }
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
      ray.verified = pred.verified;
      ray.predictionTx = pred.predictionTx;
      this.lookupDone.push(now + p.cfg.latency, ray);
    }
    if (this.lookupHead === this.lookupQueue.length) { truncate(this.lookupQueue, 0); this.lookupHead = 0; }
    while (this.lookupDone.size > 0 && this.lookupDone.peekTime() <= now) resolved(this.lookupDone.pop());
  }

  busy(): boolean {
    return this.lookupHead < this.lookupQueue.length || this.lookupDone.size > 0 || this.updateHead < this.updateQueue.length;
  }

  /** now + 1 with queued lookups or updates; the next resolution; Infinity when empty. */
  nextEvent(now: number): number {
    if (this.lookupHead < this.lookupQueue.length || this.updateHead < this.updateQueue.length) return now + 1;
    return this.lookupDone.size > 0 ? Math.max(now + 1, this.lookupDone.peekTime()) : Infinity;
  }

  /** Predictor table bytes per SM. */
  get tableBytes(): number {
    return this.predictor.storageBytes();
  }
}
