/**
 * Functional RT statistics over many traversals, named as Vulkan-Sim reports them: rays traced,
 * nodes visited per ray (average and histogram), maximum tree depth, hits (rays with a committed
 * or candidate hit), closest-hit and any-hit / intersection candidate counts, and the memory
 * transactions and intersection operations of recorded rays.
 *
 * Invariants: counters only grow; derived ratios are computed in `rtStatsSummary`, never stored.
 */
import type { AccelerationStructure } from './acceleration-structure.js';
import type { TraversalResult } from './ray-query.js';
import { NODE_KIND } from './bvh-layout.js';

export interface RtStats {
  rays: number;
  nodesVisited: number;
  /** nodesVisitedHistogram[k] = rays that visited k nodes (last bucket collects >= its index). */
  nodesVisitedHistogram: Uint32Array;
  maxNodesVisited: number;
  maxStackDepth: number;
  /** Rays with a committed opaque hit or at least one candidate. */
  hits: number;
  /** Rays whose committed opaque triangle hit will run a closest-hit shader. */
  closestHitCandidates: number;
  /** Non-opaque triangle candidates (any-hit shader invocations). */
  anyHitCandidates: number;
  /** Procedural AABB candidates (intersection shader invocations). */
  intersectionCandidates: number;
  terminatedEarly: number;
  transactions: number;
  transactionBytes: number;
  boxTests: number;
  triangleTests: number;
  transforms: number;
}

const HISTOGRAM_BUCKETS = 256;

export function createRtStats(): RtStats {
  return {
    rays: 0, nodesVisited: 0, nodesVisitedHistogram: new Uint32Array(HISTOGRAM_BUCKETS), maxNodesVisited: 0, maxStackDepth: 0,
    hits: 0, closestHitCandidates: 0, anyHitCandidates: 0, intersectionCandidates: 0, terminatedEarly: 0,
    transactions: 0, transactionBytes: 0, boxTests: 0, triangleTests: 0, transforms: 0,
  };
}

export function accumulateTraversal(stats: RtStats, r: TraversalResult): void {
  stats.rays++;
  stats.nodesVisited += r.nodesVisited;
  stats.nodesVisitedHistogram[Math.min(r.nodesVisited, HISTOGRAM_BUCKETS - 1)]!++;
  if (r.nodesVisited > stats.maxNodesVisited) stats.maxNodesVisited = r.nodesVisited;
  if (r.maxStackDepth > stats.maxStackDepth) stats.maxStackDepth = r.maxStackDepth;
  if (r.committed || r.candidates.length > 0) stats.hits++;
  if (r.committed) stats.closestHitCandidates++;
  for (const c of r.candidates) {
    if (c.kind === 'triangle') stats.anyHitCandidates++;
    else stats.intersectionCandidates++;
  }
  if (r.terminatedEarly) stats.terminatedEarly++;
  const rec = r.transactions;
  if (rec) {
    stats.transactions += rec.count;
    for (let i = 0; i < rec.count; i++) stats.transactionBytes += rec.sizes[i]!;
    stats.boxTests += rec.boxTests;
    stats.triangleTests += rec.triangleTests;
    stats.transforms += rec.transforms;
  }
}

/** Maximum depth of the two-level tree: TLAS depth + deepest BLAS depth + 1 for the instance step. */
export function maxTreeDepth(as: AccelerationStructure): number {
  let blas = 0;
  for (const b of as.blases) if (b.maxDepth > blas) blas = b.maxDepth;
  return as.tlasMaxDepth + 1 + blas;
}

export interface RtStatsSummary {
  rays: number;
  avgNodesVisitedPerRay: number;
  maxNodesVisited: number;
  maxTreeDepth: number;
  maxStackDepth: number;
  hitRate: number;
  closestHitCandidates: number;
  anyHitCandidates: number;
  intersectionCandidates: number;
  avgTransactionsPerRay: number;
  avgBytesPerRay: number;
}

export function rtStatsSummary(stats: RtStats, as: AccelerationStructure): RtStatsSummary {
  const per = (x: number): number => (stats.rays > 0 ? x / stats.rays : 0);
  return {
    rays: stats.rays,
    avgNodesVisitedPerRay: per(stats.nodesVisited),
    maxNodesVisited: stats.maxNodesVisited,
    maxTreeDepth: maxTreeDepth(as),
    maxStackDepth: stats.maxStackDepth,
    hitRate: per(stats.hits),
    closestHitCandidates: stats.closestHitCandidates,
    anyHitCandidates: stats.anyHitCandidates,
    intersectionCandidates: stats.intersectionCandidates,
    avgTransactionsPerRay: per(stats.transactions),
    avgBytesPerRay: per(stats.transactionBytes),
  };
}

export interface AccelerationStructureSummary {
  blasCount: number;
  instanceCount: number;
  width: number;
  /** Node counts by kind. */
  internalNodes: number;
  instanceLeaves: number;
  triangleLeaves: number;
  proceduralLeaves: number;
  totalBytes: number;
  tlasMaxDepth: number;
  maxTreeDepth: number;
  treelets: number;
}

/** Size and shape of an acceleration structure, for reports (Vulkan-Sim reports BVH sizes). */
export function accelerationStructureSummary(as: AccelerationStructure): AccelerationStructureSummary {
  const byKind = [0, 0, 0, 0];
  for (let n = 0; n < as.nodeCount; n++) byKind[as.nodeKind[n]!]!++;
  return {
    blasCount: as.blases.length,
    instanceCount: as.instanceCount,
    width: as.width,
    internalNodes: byKind[NODE_KIND.internal]!,
    instanceLeaves: byKind[NODE_KIND.instanceLeaf]!,
    triangleLeaves: byKind[NODE_KIND.triangleLeaf]!,
    proceduralLeaves: byKind[NODE_KIND.proceduralLeaf]!,
    totalBytes: as.totalBytes,
    tlasMaxDepth: as.tlasMaxDepth,
    maxTreeDepth: maxTreeDepth(as),
    treelets: as.treeletBytes.length,
  };
}
