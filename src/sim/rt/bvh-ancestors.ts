/**
 * Go Up Level (Intersection Prediction, paper 002, Section 4.3): the k-th ancestor of a leaf,
 * across the two-level acceleration structure. Above a BLAS root the walk continues at the
 * instance leaf of the TLAS that references that BLAS for the hit's instance, then up the TLAS.
 * The walk stops at the TLAS root when k is larger than the path.
 *
 * The paper stores the precomputed ancestor in the padding of every Aila-Laine node, so it comes
 * with the leaf's own fetch and costs no memory access; here the walk reads `nodeParent`, and the
 * instance-leaf table is built once per structure (the same information, no timing cost).
 */
import type { AccelerationStructure } from './acceleration-structure.js';
import { NODE_KIND } from './bvh-layout.js';

/** A node to start traversal from: `instance` -1 for TLAS nodes, else the instance whose BLAS holds it. */
export interface StartNode {
  node: number;
  instance: number;
}

const instanceLeaves = new WeakMap<AccelerationStructure, Int32Array>();

/** TLAS instance-leaf node per instance index (-1 for inactive instances). */
function instanceLeafTable(as: AccelerationStructure): Int32Array {
  let t = instanceLeaves.get(as);
  if (t) return t;
  t = new Int32Array(as.instanceCount).fill(-1);
  for (let n = 0; n < as.nodeCount; n++) {
    if (as.nodeKind[n] === NODE_KIND.instanceLeaf && as.nodeBlas[n] === -1) t[as.leafRef[n]!] = n;
  }
  instanceLeaves.set(as, t);
  return t;
}

/** The k-th ancestor of `leaf` (a node of instance `instance`'s BLAS, or of the TLAS when -1). */
export function goUpAncestor(as: AccelerationStructure, leaf: StartNode, k: number): StartNode {
  let node = leaf.node, instance = leaf.instance;
  for (let i = 0; i < k; i++) {
    const parent = as.nodeParent[node]!;
    if (parent >= 0) {
      node = parent;
      continue;
    }
    if (instance < 0) break; // the TLAS root
    const up = instanceLeafTable(as)[instance]!;
    if (up < 0) break;
    node = up;
    instance = -1;
  }
  return { node, instance };
}

/** Depth of a start node counted from the TLAS root (deeper = a smaller subtree to verify). */
export function depthFromTlasRoot(as: AccelerationStructure, s: StartNode): number {
  let d = as.nodeDepth[s.node]!;
  if (s.instance >= 0) {
    const up = instanceLeafTable(as)[s.instance]!;
    if (up >= 0) d += as.nodeDepth[up]! + 1;
  }
  return d;
}
