/**
 * The ray intersection predictor of one SM (Intersection Prediction, paper 002, Sections 3-4).
 *
 * Before a ray traverses, its hash is looked up in the predictor table (through a lookup queue
 * with `ports` accesses per cycle and `latency` cycles). A hit gives predicted nodes; the ray then
 * traverses from them first, with full precision (verification). Terms as the paper defines them:
 * a ray is *predicted* if the table returns nodes, *verified* if traversing from them finds an
 * intersection, *mispredicted* if predicted but not verified -- it then restarts from the root,
 * paying for the predicted nodes and the whole traversal. Rays that hit (verified, or after a full
 * traversal) update the table with the Go-Up-Level ancestor of their hit leaf through an update
 * queue with the same number of ports.
 *
 * Which rays: occlusion rays (gl_RayFlagsTerminateOnFirstHitEXT), which need any hit, not the
 * closest; with `closestHit`, other rays too, as the paper's global-illumination extension: a
 * verified prediction only trims the ray's tmax before its full traversal from the root.
 *
 * The functional core has already traversed the ray from the root (its result is what shaders
 * see, so images never change); here the ray is traversed again from the predicted nodes to get
 * the transactions the RT unit replays instead. For procedural geometry a candidate AABB found
 * from the prediction counts as an intersection (the RT unit cannot know more: the intersection
 * shader decides later), so verification there is optimistic.
 *
 * Oracles (Sec. 6.3, Fig. 2): `lookup` picks, among the nodes in the table, one that verifies the
 * ray (the deepest) if any exists, else the ray is not predicted; `training` does the same over
 * every node any earlier ray inserted (an unbounded table); `update` is `training` with the
 * ray's own update applied at lookup instead of after its traversal. `never` (not in the paper)
 * predicts no ray: the lookup and update queues alone, a control for what the pipeline costs.
 */
import type { PredictorConfig } from '../../config/predictor-config.js';
import type { AccelerationStructure } from '../../rt/acceleration-structure.js';
import { type StartNode, depthFromTlasRoot, goUpAncestor } from '../../rt/bvh-ancestors.js';
import { RAY_FLAG } from '../../rt/ray-query.js';
import { TransactionRecord } from '../../rt/transaction-record.js';
import { traverse } from '../../rt/traversal.js';
import type { RtLaneWork, RtRayRecord, RtTransaction } from '../../warp-step.js';
import { isBvhNode } from '../../warp-step.js';
import { type PredictedNode, PredictorTable } from './predictor-table.js';
import { type SceneBox, hashBits, rayHash } from './ray-hash.js';

export class PredictorStats {
  /** Rays the predictor considered (occlusion rays; all rays with closest-hit prediction). */
  lookups = 0;
  predicted = 0;
  verified = 0;
  mispredicted = 0;
  /** Considered rays that intersect the scene (only these can be verified). */
  hitRays = 0;
  /** Node fetches of considered rays as replayed (prediction evaluation + traversals). */
  nodes = 0;
  /** Node fetches those rays would have made without the predictor (full traversals). */
  baselineNodes = 0;
  /** Node fetches spent evaluating predictions, and the part of it on mispredicted rays. */
  predictionNodes = 0;
  mispredictionNodes = 0;
  updates = 0;
  /** Warps formed by the partial warp collector, and those that left on its timeout. */
  repackedWarps = 0;
  collectorTimeouts = 0;
  /** Cycles rays waited in the lookup queue, summed. */
  lookupQueueCycles = 0;
  /**
   * Cycles from a looked-up ray's entry into the RT unit to its first chance to traverse (ready in
   * a warp of the buffer): the lookup, the wait for its warp's other lookups, and with repacking
   * the partial warp collector and the wait for a Warp Buffer entry. Summed over looked-up rays
   * with work; `collectorCycles` is the part spent in the collector (summed over repacked rays).
   */
  preTraversalCycles = 0;
  preTraversalRays = 0;
  collectorCycles = 0;
  repackedRays = 0;
  /**
   * Cycles from entry to finish, summed per class of looked-up ray. These and the class counters
   * below are counted by the predictor policy (predictor-policy.ts); behind the treelet queues
   * they stay 0.
   */
  latencyNotPredicted = 0;
  latencyVerified = 0;
  latencyMispredicted = 0;
  /**
   * The RT unit's chunk requests by class of the looked-up ray that made them: fresh requests
   * (sent to the L1D, `rt_total_requests`) and chunks merged into a pending request of the warp
   * (`rt_merged_in_warp` / `_across_warps`). Mispredicted rays' are split into the prediction
   * (traversal from the predicted nodes) and the restart from the root.
   */
  requestsNotPredicted = 0;
  requestsVerified = 0;
  requestsMispredictedPrediction = 0;
  requestsMispredictedRestart = 0;
  mergedNotPredicted = 0;
  mergedVerified = 0;
  mergedMispredictedPrediction = 0;
  mergedMispredictedRestart = 0;

  add(o: PredictorStats): void {
    for (const k of Object.keys(this) as (keyof PredictorStats)[]) {
      const v = o[k];
      if (typeof v === 'number') (this as unknown as Record<string, number>)[k]! += v;
    }
  }
}

/** A predictor table update: the ray hash and the node to store under it. */
export interface TableUpdate {
  hash: number;
  node: PredictedNode;
}

/** What the predictor decided for one ray: the transactions to replay and how it was classed. */
export interface Prediction {
  tx: RtTransaction[];
  ops: number;
  predicted: boolean;
  verified: boolean;
  /** The first `predictionTx` of `tx` traverse from the predicted nodes (0 when not predicted). */
  predictionTx: number;
  /** The table update this ray makes when it finishes, if it hits. */
  update?: TableUpdate;
}

const accelIds = new WeakMap<AccelerationStructure, number>();
let nextAccelId = 0;
function accelId(as: AccelerationStructure): number {
  let id = accelIds.get(as);
  if (id === undefined) accelIds.set(as, (id = nextAccelId++));
  return id;
}

const boxes = new WeakMap<AccelerationStructure, SceneBox>();
/** The scene bounding box: the TLAS root's box. */
function sceneBox(as: AccelerationStructure): SceneBox {
  let b = boxes.get(as);
  if (b) return b;
  const r = as.tlasRoot, nb = as.nodeBounds;
  b = r < 0 ? [0, 0, 0, 1, 1, 1] : [nb[6 * r]!, nb[6 * r + 1]!, nb[6 * r + 2]!, nb[6 * r + 3]!, nb[6 * r + 4]!, nb[6 * r + 5]!];
  boxes.set(as, b);
  return b;
}

/** Key of a node for the oracle sets: 6 bits of structure, 20 of instance + 1, 27 of node. */
function nodeKey(accel: number, node: number, instance: number): number {
  return ((accel & 63) * 1048576 + (instance + 1)) * 134217728 + node;
}

function opsOf(rec: TransactionRecord): number {
  return rec.boxTests + rec.triangleTests + rec.transforms;
}

function countNodes(tx: readonly RtTransaction[]): number {
  let n = 0;
  for (const t of tx) if (isBvhNode(t.kind)) n++;
  return n;
}

export class IntersectionPredictor {
  private readonly table: PredictorTable;
  /** Oracle training / update: every node ever inserted (unbounded), by key. */
  private readonly trained = new Map<number, PredictedNode>();
  private readonly rec = new TransactionRecord();
  private readonly bits: number;

  constructor(readonly cfg: PredictorConfig, readonly stats: PredictorStats = new PredictorStats()) {
    this.bits = hashBits(cfg.hash);
    this.table = new PredictorTable({
      entries: cfg.entries, ways: cfg.ways, nodesPerEntry: cfg.nodesPerEntry, tagBits: cfg.tagBits,
      hashBits: this.bits, entryReplacement: cfg.entryReplacement, nodeReplacement: cfg.nodeReplacement,
    });
  }

  /** Whether this lane's ray goes through the predictor at all. */
  considers(work: RtLaneWork): boolean {
    const r = work.ray;
    if (!r) return false;
    return (r.query.flags & RAY_FLAG.terminateOnFirstHit) !== 0 || this.cfg.closestHit;
  }

  /** Table storage per SM in bytes (Sec. 6.1.1: 1024 x 43 bits = 5.5 KB). */
  storageBytes(): number {
    return this.table.storageBits() / 8;
  }

  /** Looks the ray up and works out what the RT unit replays for it. */
  predict(work: RtLaneWork): Prediction {
    const r = work.ray!;
    const s = this.stats;
    s.lookups++;
    if (r.hitLeaf) s.hitRays++;
    const fullNodes = countNodes(work.transactions);
    s.baselineNodes += fullNodes;
    const accel = accelId(r.accel);
    const hash = rayHash(r.query.origin, r.query.direction, sceneBox(r.accel), this.cfg.hash);
    // The table update this ray makes when it finishes; oracle update makes it at lookup instead.
    const updateOf = (leaf: StartNode | undefined): { update?: TableUpdate } =>
      (this.cfg.oracle === 'update' || !leaf ? {} : { update: this.tableUpdate(hash, accel, r, leaf) });
    const full = (): Prediction => {
      s.nodes += fullNodes;
      return { tx: work.transactions, ops: work.boxTests + work.triangleTests + work.transforms, predicted: false, verified: false, predictionTx: 0, ...updateOf(r.hitLeaf) };
    };
    let nodes: readonly StartNode[] | undefined;
    if (this.cfg.oracle === 'never') {
      nodes = undefined;
    } else if (this.cfg.oracle === 'none') {
      nodes = this.table.lookup(hash)?.filter((n) => n.accel === accel);
    } else {
      if (this.cfg.oracle === 'update' && r.hitLeaf) this.applyUpdate(this.tableUpdate(hash, accel, r, r.hitLeaf));
      const pool = this.cfg.oracle === 'lookup' ? [...this.table.nodes()] : [...this.trained.values()];
      const pick = this.verifyingNode(r, pool.filter((n) => n.accel === accel));
      nodes = pick ? [pick] : undefined;
    }
    if (!nodes || nodes.length === 0) return full();
    s.predicted++;

    const occlusion = (r.query.flags & RAY_FLAG.terminateOnFirstHit) !== 0;
    const query = occlusion ? r.query : { ...r.query, flags: r.query.flags | RAY_FLAG.terminateOnFirstHit };
    const res = traverse(r.accel, query, { recordInto: this.rec, shortStackSize: r.shortStackSize, startNodes: nodes });
    const predTx = this.rec.toRtTransactions();
    const predOps = opsOf(this.rec);
    const predNodes = countNodes(predTx);
    s.predictionNodes += predNodes;
    const found = res.committed ?? res.candidates[0];
    const verified = found !== undefined && (occlusion || res.committed !== undefined);
    if (!verified) {
      s.mispredicted++;
      s.mispredictionNodes += predNodes;
      s.nodes += predNodes + fullNodes;
      return {
        tx: predTx.concat(work.transactions), ops: predOps + work.boxTests + work.triangleTests + work.transforms,
        predicted: true, verified: false, predictionTx: predTx.length, ...updateOf(r.hitLeaf),
      };
    }
    s.verified++;
    const leaf = found.leafNode !== undefined ? { node: found.leafNode, instance: found.instanceIndex } : undefined;
    if (occlusion) {
      s.nodes += predNodes;
      return { tx: predTx, ops: predOps, predicted: true, verified: true, predictionTx: predTx.length, ...updateOf(leaf) };
    }
    // Closest-hit ray: the predicted hit trims tmax, then the full traversal runs from the root.
    traverse(r.accel, { ...r.query, tmax: Math.min(r.query.tmax, res.committed!.t) }, { recordInto: this.rec, shortStackSize: r.shortStackSize });
    const trimmed = this.rec.toRtTransactions();
    s.nodes += predNodes + countNodes(trimmed);
    return { tx: predTx.concat(trimmed), ops: predOps + opsOf(this.rec), predicted: true, verified: true, predictionTx: predTx.length, ...updateOf(r.hitLeaf) };
  }

  /** The entry a hit ray writes: its hash and the Go-Up-Level ancestor of its hit leaf. */
  private tableUpdate(hash: number, accel: number, r: RtRayRecord, leaf: StartNode): TableUpdate {
    const up = goUpAncestor(r.accel, leaf, this.cfg.goUpLevel);
    return { hash, node: { accel, node: up.node, instance: up.instance } };
  }

  /** Applies a table update (the RT unit calls this as the update queue drains). */
  applyUpdate(u: TableUpdate): void {
    this.stats.updates++;
    if (this.cfg.oracle === 'training' || this.cfg.oracle === 'update') {
      this.trained.set(nodeKey(u.node.accel, u.node.node, u.node.instance), u.node);
    } else {
      this.table.update(u.hash, u.node);
    }
  }

  /** Oracles: the deepest node of `pool` under which the ray intersects something, if any. */
  private verifyingNode(r: RtRayRecord, pool: readonly PredictedNode[]): PredictedNode | undefined {
    if (pool.length === 0 || !r.hitLeaf) return undefined;
    const accel = accelId(r.accel);
    const verifying = new Set<number>();
    traverse(r.accel, r.query, {
      onEveryHit: (leaf, instance) => {
        let s: StartNode = { node: leaf, instance };
        for (;;) {
          const key = nodeKey(accel, s.node, s.instance);
          if (verifying.has(key)) break;
          verifying.add(key);
          const up = goUpAncestor(r.accel, s, 1);
          if (up.node === s.node && up.instance === s.instance) break;
          s = up;
        }
      },
    });
    let best: PredictedNode | undefined;
    let bestDepth = -1;
    for (const n of pool) {
      if (!verifying.has(nodeKey(n.accel, n.node, n.instance))) continue;
      const d = depthFromTlasRoot(r.accel, n);
      if (d > bestDepth) { best = n; bestDepth = d; }
    }
    return best;
  }
}
