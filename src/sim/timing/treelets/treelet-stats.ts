/**
 * Statistics of the virtualized treelet queues (paper 001): per traversal mode (Fig. 14, 15) and
 * per mechanism (repacking, ray-data and treelet traffic, table occupancy). Counters only; the
 * derived figures are computed in stats.ts.
 */
import { TreeletQueueStats } from './treelet-queues.js';

/** Traversal modes of paper 001 Fig. 14 / 15. */
export const enum TraversalMode {
  Initial = 0,
  Treelet = 1,
  Ray = 2,
}
export const MODE_NAMES = ['initial', 'treelet', 'ray'] as const;

export class TreeletStats {
  /** Per mode: warp-buffer entry-cycles (cycles with the warp buffer of one entry, Fig. 14). */
  readonly modeWarpCycles = [0, 0, 0];
  /** Per mode: node intersection tests (box and primitive tests, Fig. 15). */
  readonly modeTests = [0, 0, 0];
  /** Per mode: warps formed. */
  readonly modeWarps = [0, 0, 0];
  /** Initial-phase warps terminated into the queues for divergence. */
  divergedWarps = 0;
  /** Warps refilled by repacking, and rays they took. */
  repacks = 0;
  repackedRays = 0;
  /** Ray-data traffic: 128 B lines stored at traceRay, lines loaded (bypassing the L1D). */
  rayDataStores = 0;
  rayDataLoads = 0;
  /** Treelets made current; of them, already preloaded; L1D line loads for treelets. */
  treeletsActivated = 0;
  treeletsPreloaded = 0;
  treeletLineLoads = 0;
  /** Rays moved into a treelet queue. */
  queuedRays = 0;
  readonly queues = new TreeletQueueStats();
  add(o: TreeletStats): void {
    for (let m = 0; m < 3; m++) {
      this.modeWarpCycles[m]! += o.modeWarpCycles[m]!;
      this.modeTests[m]! += o.modeTests[m]!;
      this.modeWarps[m]! += o.modeWarps[m]!;
    }
    this.divergedWarps += o.divergedWarps;
    this.repacks += o.repacks;
    this.repackedRays += o.repackedRays;
    this.rayDataStores += o.rayDataStores;
    this.rayDataLoads += o.rayDataLoads;
    this.treeletsActivated += o.treeletsActivated;
    this.treeletsPreloaded += o.treeletsPreloaded;
    this.treeletLineLoads += o.treeletLineLoads;
    this.queuedRays += o.queuedRays;
    this.queues.add(o.queues);
  }
}

