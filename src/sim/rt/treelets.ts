/**
 * Treelet formation for one wide BVH (Aila and Karras 2010, used by the Treelet Accelerated Ray
 * Tracing paper with treelets of half the 16 KB L1, i.e. 8 KB): a treelet grows greedily from its
 * root by adding the pending node with the largest surface area, a whole child group at a time
 * (the children of one internal node stay together because they are addressed through one
 * first-child pointer); a child group that no longer fits starts a new treelet later.
 *
 * Invariants: every node belongs to exactly one treelet; a treelet's bytes (sum of its node
 * sizes) never exceed `maxBytes` unless a single child group alone is larger; a node's parent is
 * in the same treelet unless the node's group is the first group of its treelet; `groupOrder`
 * lists every group exactly once, treelet by treelet, so placing nodes in that order packs each
 * treelet contiguously.
 */
import type { AccelerationStructure } from './acceleration-structure.js';
import type { WideBvh } from './bvh-layout.js';

/** What the timing model needs of a BVH's treelets (paper 001): node address -> treelet, each treelet's placement. */
export interface TreeletMap {
  treeletOfAddress: ReadonlyMap<number, number>;
  /** First byte of each treelet (with the treelet layout each treelet is contiguous from there). */
  treeletStart: readonly number[];
  treeletBytes: readonly number[];
  /** The treelet budget the BVH was partitioned with (bytes). */
  budget: number;
}

/** The treelets of several acceleration structures, ids made unique by offsetting each one's. */
export function treeletMapOf(accels: readonly AccelerationStructure[], budget: number): TreeletMap {
  const treeletOfAddress = new Map<number, number>();
  const treeletStart: number[] = [];
  const treeletBytes: number[] = [];
  for (const as of accels) {
    const base = treeletStart.length;
    for (let t = 0; t < as.treeletBytes.length; t++) {
      treeletStart.push(Infinity);
      treeletBytes.push(as.treeletBytes[t]!);
    }
    for (let n = 0; n < as.nodeCount; n++) {
      const t = base + as.nodeTreelet[n]!;
      treeletOfAddress.set(as.nodeAddress[n]!, t);
      if (as.nodeAddress[n]! < treeletStart[t]!) treeletStart[t] = as.nodeAddress[n]!;
    }
  }
  return { treeletOfAddress, treeletStart, treeletBytes, budget };
}

export interface TreeletPartition {
  treeletCount: number;
  /** Local treelet id per node. */
  treeletOfNode: Int32Array;
  /** Bytes per treelet. */
  treeletBytes: number[];
  /**
   * Child groups in placement order: -1 is the root group (the root alone), any other value n
   * is the group of n's children.
   */
  groupOrder: Int32Array;
}

function halfArea(b: Float32Array, n: number): number {
  const o = 6 * n;
  const dx = b[o + 3]! - b[o]!, dy = b[o + 4]! - b[o + 1]!, dz = b[o + 5]! - b[o + 2]!;
  return dx * dy + dy * dz + dz * dx;
}

/** Max-heap of node ids keyed by surface area, on plain arrays (reset per treelet). */
class AreaHeap {
  keys: number[] = [];
  nodes: number[] = [];

  get size(): number { return this.nodes.length; }

  clear(): void { this.keys.length = 0; this.nodes.length = 0; }

  push(key: number, node: number): void {
    let i = this.nodes.length;
    this.keys.push(key); this.nodes.push(node);
    while (i > 0) {
      const p = (i - 1) >> 1;
      // Ties go to the smaller id so formation is deterministic.
      if (this.keys[p]! > key || (this.keys[p] === key && this.nodes[p]! < node)) break;
      this.keys[i] = this.keys[p]!; this.nodes[i] = this.nodes[p]!;
      i = p;
    }
    this.keys[i] = key; this.nodes[i] = node;
  }

  pop(): number {
    const top = this.nodes[0]!;
    const key = this.keys.pop()!, node = this.nodes.pop()!;
    const n = this.nodes.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i, mk = key, mn = node;
        if (l < n && (this.keys[l]! > mk || (this.keys[l] === mk && this.nodes[l]! < mn))) { m = l; mk = this.keys[l]!; mn = this.nodes[l]!; }
        if (r < n && (this.keys[r]! > mk || (this.keys[r] === mk && this.nodes[r]! < mn))) { m = r; }
        if (m === i) break;
        this.keys[i] = this.keys[m]!; this.nodes[i] = this.nodes[m]!;
        i = m;
      }
      this.keys[i] = key; this.nodes[i] = node;
    }
    return top;
  }
}

/** `nodeBytes(i)` gives the size of wide node i as it will be laid out. */
export function formTreelets(wide: WideBvh, nodeBytes: (node: number) => number, maxBytes: number): TreeletPartition {
  const treeletOfNode = new Int32Array(wide.nodeCount).fill(-1);
  const groupOrder = new Int32Array(wide.nodeCount);
  const treeletBytes: number[] = [];
  if (wide.nodeCount === 0) return { treeletCount: 0, treeletOfNode, treeletBytes, groupOrder: groupOrder.subarray(0, 0) };
  let groups = 0;
  const pending: number[] = [-1];
  const heap = new AreaHeap();
  const groupBytes = (g: number): number => {
    if (g < 0) return nodeBytes(0);
    let b = 0;
    for (let c = wide.childFirst[g]!; c < wide.childFirst[g]! + wide.childCount[g]!; c++) b += nodeBytes(c);
    return b;
  };
  const addGroup = (g: number, treelet: number): void => {
    groupOrder[groups++] = g;
    const first = g < 0 ? 0 : wide.childFirst[g]!;
    const count = g < 0 ? 1 : wide.childCount[g]!;
    for (let c = first; c < first + count; c++) {
      treeletOfNode[c] = treelet;
      if (!wide.isLeaf[c]) heap.push(halfArea(wide.bounds, c), c);
    }
  };
  for (let head = 0; head < pending.length; head++) {
    const t = treeletBytes.length;
    heap.clear();
    const root = pending[head]!;
    let bytes = groupBytes(root);
    addGroup(root, t);
    while (heap.size > 0) {
      const n = heap.pop();
      const gb = groupBytes(n);
      if (bytes + gb <= maxBytes) {
        bytes += gb;
        addGroup(n, t);
      } else {
        pending.push(n);
      }
    }
    treeletBytes.push(bytes);
  }
  return { treeletCount: treeletBytes.length, treeletOfNode, treeletBytes, groupOrder: groupOrder.subarray(0, groups) };
}
