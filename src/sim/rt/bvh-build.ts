/**
 * Binary BVH construction over primitive AABBs: binned SAH (Wald 2007, 16 bins on each of the
 * three axes, centroid binning) and an object-median split used as the quality baseline.
 * Primitives end in leaves of exactly one primitive so the wide collapse (bvh-layout.ts) can turn
 * each primitive into its own leaf node, as Vulkan-Sim's one-primitive-per-leaf layout needs.
 *
 * Invariants:
 * - Node 0 is the root; nodes are numbered in creation order; `left[i] === -1` iff i is a leaf.
 * - `bounds` holds the exact union of the primitive boxes below each node (min xyz, max xyz).
 * - Each leaf's `primStart` indexes `order`, which is a permutation of 0..n-1: every primitive
 *   lies in exactly one leaf.
 */

export type SplitStrategy = 'sah' | 'median';

export interface BinaryBvh {
  nodeCount: number;
  bounds: Float32Array;
  left: Int32Array;
  right: Int32Array;
  /** Leaves: index into `order` of their primitive. */
  primStart: Int32Array;
  order: Uint32Array;
}

const BIN_COUNT = 16;

/**
 * Build a binary BVH over `n = boxes.length / 6` primitive boxes. Degenerate (all centroids equal)
 * ranges are split in the middle of the index range.
 */
export function buildBinaryBvh(boxes: Float32Array, strategy: SplitStrategy = 'sah'): BinaryBvh {
  const n = boxes.length / 6;
  if (n === 0) {
    return { nodeCount: 0, bounds: new Float32Array(0), left: new Int32Array(0), right: new Int32Array(0), primStart: new Int32Array(0), order: new Uint32Array(0) };
  }
  const maxNodes = 2 * n - 1;
  const bounds = new Float32Array(6 * maxNodes);
  const left = new Int32Array(maxNodes).fill(-1);
  const right = new Int32Array(maxNodes).fill(-1);
  const primStart = new Int32Array(maxNodes).fill(-1);
  const order = new Uint32Array(n);
  const cent = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
    const b = 6 * i;
    cent[3 * i] = 0.5 * (boxes[b]! + boxes[b + 3]!);
    cent[3 * i + 1] = 0.5 * (boxes[b + 1]! + boxes[b + 4]!);
    cent[3 * i + 2] = 0.5 * (boxes[b + 2]! + boxes[b + 5]!);
  }

  const binCount = new Int32Array(3 * BIN_COUNT);
  const binBox = new Float64Array(3 * BIN_COUNT * 6);
  const rightArea = new Float64Array(BIN_COUNT);
  const rightCount = new Int32Array(BIN_COUNT);

  // Explicit task stack (node, start, end): degenerate inputs can make the tree deep.
  const taskNode: number[] = [0];
  const taskStart: number[] = [0];
  const taskEnd: number[] = [n];
  let nodeCount = 1;

  while (taskNode.length > 0) {
    const node = taskNode.pop()!;
    const start = taskStart.pop()!;
    const end = taskEnd.pop()!;
    // Node bounds and centroid bounds in one pass.
    let bx0 = Infinity, by0 = Infinity, bz0 = Infinity, bx1 = -Infinity, by1 = -Infinity, bz1 = -Infinity;
    let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity;
    for (let i = start; i < end; i++) {
      const p = order[i]!;
      const b = 6 * p;
      const x0 = boxes[b]!, y0 = boxes[b + 1]!, z0 = boxes[b + 2]!, x1 = boxes[b + 3]!, y1 = boxes[b + 4]!, z1 = boxes[b + 5]!;
      if (x0 < bx0) bx0 = x0; if (y0 < by0) by0 = y0; if (z0 < bz0) bz0 = z0;
      if (x1 > bx1) bx1 = x1; if (y1 > by1) by1 = y1; if (z1 > bz1) bz1 = z1;
      const cx = cent[3 * p]!, cy = cent[3 * p + 1]!, cz = cent[3 * p + 2]!;
      if (cx < cx0) cx0 = cx; if (cx > cx1) cx1 = cx;
      if (cy < cy0) cy0 = cy; if (cy > cy1) cy1 = cy;
      if (cz < cz0) cz0 = cz; if (cz > cz1) cz1 = cz;
    }
    const o = 6 * node;
    bounds[o] = bx0; bounds[o + 1] = by0; bounds[o + 2] = bz0; bounds[o + 3] = bx1; bounds[o + 4] = by1; bounds[o + 5] = bz1;
    const count = end - start;
    if (count === 1) {
      primStart[node] = start;
      continue;
    }
    let mid = -1;
    const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0;
    if (ex > 0 || ey > 0 || ez > 0) {
      if (count === 2) {
        mid = start + 1;
      } else if (strategy === 'median') {
        const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
        mid = (start + end) >> 1;
        selectNth(order, cent, axis, start, end, mid);
      } else {
        mid = sahSplit(boxes, cent, order, start, end, cx0, cy0, cz0, ex, ey, ez, binCount, binBox, rightArea, rightCount);
      }
    }
    if (mid <= start || mid >= end) mid = (start + end) >> 1;
    const l = nodeCount++;
    const r = nodeCount++;
    left[node] = l;
    right[node] = r;
    // Push right first so the left subtree is built (and numbered) first.
    taskNode.push(r); taskStart.push(mid); taskEnd.push(end);
    taskNode.push(l); taskStart.push(start); taskEnd.push(mid);
  }
  return { nodeCount, bounds, left, right, primStart, order };
}

function halfArea(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
  return dx * dy + dy * dz + dz * dx;
}

/**
 * Bin on all three axes, sweep, partition `order[start,end)` at the cheapest plane; returns mid.
 * Small ranges use as many bins as primitives: the per-node cost of clearing and sweeping 16 bins
 * dominated the build when most nodes hold a handful of primitives.
 */
function sahSplit(
  boxes: Float32Array, cent: Float32Array, order: Uint32Array, start: number, end: number,
  cx0: number, cy0: number, cz0: number, ex: number, ey: number, ez: number,
  binCount: Int32Array, binBox: Float64Array, rightArea: Float64Array, rightCount: Int32Array,
): number {
  const count = end - start;
  const nb = count < BIN_COUNT ? count : BIN_COUNT;
  for (let a = 0; a < 3; a++) {
    for (let j = 0; j < nb; j++) {
      const bin = a * BIN_COUNT + j;
      binCount[bin] = 0;
      const o = 6 * bin;
      binBox[o] = Infinity; binBox[o + 1] = Infinity; binBox[o + 2] = Infinity;
      binBox[o + 3] = -Infinity; binBox[o + 4] = -Infinity; binBox[o + 5] = -Infinity;
    }
  }
  // Scale maps a centroid to a bin; the 1 - 1e-6 keeps the maximum centroid inside the last bin.
  const kx = ex > 0 ? (nb * (1 - 1e-6)) / ex : 0;
  const ky = ey > 0 ? (nb * (1 - 1e-6)) / ey : 0;
  const kz = ez > 0 ? (nb * (1 - 1e-6)) / ez : 0;
  for (let i = start; i < end; i++) {
    const p = order[i]!;
    const b = 6 * p;
    const x0 = boxes[b]!, y0 = boxes[b + 1]!, z0 = boxes[b + 2]!, x1 = boxes[b + 3]!, y1 = boxes[b + 4]!, z1 = boxes[b + 5]!;
    let bin = (kx * (cent[3 * p]! - cx0)) | 0;
    binCount[bin]!++;
    let o = 6 * bin;
    if (x0 < binBox[o]!) binBox[o] = x0;
    if (y0 < binBox[o + 1]!) binBox[o + 1] = y0;
    if (z0 < binBox[o + 2]!) binBox[o + 2] = z0;
    if (x1 > binBox[o + 3]!) binBox[o + 3] = x1;
    if (y1 > binBox[o + 4]!) binBox[o + 4] = y1;
    if (z1 > binBox[o + 5]!) binBox[o + 5] = z1;
    bin = BIN_COUNT + ((ky * (cent[3 * p + 1]! - cy0)) | 0);
    binCount[bin]!++;
    o = 6 * bin;
    if (x0 < binBox[o]!) binBox[o] = x0;
    if (y0 < binBox[o + 1]!) binBox[o + 1] = y0;
    if (z0 < binBox[o + 2]!) binBox[o + 2] = z0;
    if (x1 > binBox[o + 3]!) binBox[o + 3] = x1;
    if (y1 > binBox[o + 4]!) binBox[o + 4] = y1;
    if (z1 > binBox[o + 5]!) binBox[o + 5] = z1;
    bin = 2 * BIN_COUNT + ((kz * (cent[3 * p + 2]! - cz0)) | 0);
    binCount[bin]!++;
    o = 6 * bin;
    if (x0 < binBox[o]!) binBox[o] = x0;
    if (y0 < binBox[o + 1]!) binBox[o + 1] = y0;
    if (z0 < binBox[o + 2]!) binBox[o + 2] = z0;
    if (x1 > binBox[o + 3]!) binBox[o + 3] = x1;
    if (y1 > binBox[o + 4]!) binBox[o + 4] = y1;
    if (z1 > binBox[o + 5]!) binBox[o + 5] = z1;
  }
  let bestCost = Infinity, bestAxis = -1, bestBin = -1;
  for (let a = 0; a < 3; a++) {
    const extent = a === 0 ? ex : a === 1 ? ey : ez;
    if (!(extent > 0)) continue;
    const base = a * BIN_COUNT;
    // Right-to-left sweep: area and count of bins [j, nb).
    let rx0 = Infinity, ry0 = Infinity, rz0 = Infinity, rx1 = -Infinity, ry1 = -Infinity, rz1 = -Infinity, rc = 0;
    for (let j = nb - 1; j > 0; j--) {
      const o = 6 * (base + j);
      const c = binCount[base + j]!;
      if (c > 0) {
        if (binBox[o]! < rx0) rx0 = binBox[o]!; if (binBox[o + 1]! < ry0) ry0 = binBox[o + 1]!; if (binBox[o + 2]! < rz0) rz0 = binBox[o + 2]!;
        if (binBox[o + 3]! > rx1) rx1 = binBox[o + 3]!; if (binBox[o + 4]! > ry1) ry1 = binBox[o + 4]!; if (binBox[o + 5]! > rz1) rz1 = binBox[o + 5]!;
        rc += c;
      }
      rightCount[j] = rc;
      rightArea[j] = rc > 0 ? halfArea(rx0, ry0, rz0, rx1, ry1, rz1) : 0;
    }
    let lx0 = Infinity, ly0 = Infinity, lz0 = Infinity, lx1 = -Infinity, ly1 = -Infinity, lz1 = -Infinity, lc = 0;
    for (let j = 0; j < nb - 1; j++) {
      const o = 6 * (base + j);
      const c = binCount[base + j]!;
      if (c > 0) {
        if (binBox[o]! < lx0) lx0 = binBox[o]!; if (binBox[o + 1]! < ly0) ly0 = binBox[o + 1]!; if (binBox[o + 2]! < lz0) lz0 = binBox[o + 2]!;
        if (binBox[o + 3]! > lx1) lx1 = binBox[o + 3]!; if (binBox[o + 4]! > ly1) ly1 = binBox[o + 4]!; if (binBox[o + 5]! > lz1) lz1 = binBox[o + 5]!;
        lc += c;
      }
      const rcount = rightCount[j + 1]!;
      if (lc === 0 || rcount === 0) continue;
      const cost = lc * halfArea(lx0, ly0, lz0, lx1, ly1, lz1) + rcount * rightArea[j + 1]!;
      if (cost < bestCost) { bestCost = cost; bestAxis = a; bestBin = j; }
    }
  }
  if (bestAxis < 0) return -1;
  const k = bestAxis === 0 ? kx : bestAxis === 1 ? ky : kz;
  const c0 = bestAxis === 0 ? cx0 : bestAxis === 1 ? cy0 : cz0;
  // Hoare-style partition: primitives whose bin <= bestBin go left.
  let i = start, j = end - 1;
  while (i <= j) {
    const p = order[i]!;
    if (((k * (cent[3 * p + bestAxis]! - c0)) | 0) <= bestBin) {
      i++;
    } else {
      order[i] = order[j]!;
      order[j] = p;
      j--;
    }
  }
  return i;
}

/** Quickselect: afterwards order[nth] has the nth smallest centroid on `axis` in [start,end). */
function selectNth(order: Uint32Array, cent: Float32Array, axis: number, start: number, end: number, nth: number): void {
  let lo = start, hi = end - 1;
  while (lo < hi) {
    const pivot = cent[3 * order[(lo + hi) >> 1]! + axis]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (cent[3 * order[i]! + axis]! < pivot) i++;
      while (cent[3 * order[j]! + axis]! > pivot) j--;
      if (i <= j) {
        const t = order[i]!; order[i] = order[j]!; order[j] = t;
        i++; j--;
      }
    }
    if (nth <= j) hi = j;
    else if (nth >= i) lo = i;
    else return;
  }
}

/**
 * SAH cost of a binary BVH with unit traversal and intersection costs, relative to the root's
 * surface area: sum over inner nodes of A(n)/A(root) + sum over leaves of A(n)/A(root).
 */
export function binarySahCost(bvh: BinaryBvh): number {
  if (bvh.nodeCount === 0) return 0;
  const b = bvh.bounds;
  const rootArea = halfArea(b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!) || 1;
  let cost = 0;
  for (let i = 0; i < bvh.nodeCount; i++) {
    const o = 6 * i;
    cost += halfArea(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!) / rootArea;
  }
  return cost;
}
