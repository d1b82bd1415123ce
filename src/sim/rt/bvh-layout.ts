/**
 * Wide BVH layout (Vulkan-Sim Fig. 7): collapses a binary BVH into a 6-wide (Mesa / Vulkan-Sim) or
 * 4-wide tree (SAH-optimal collapse, see `collapseToWide`) whose children are stored consecutively, so an internal node needs only its
 * first-child pointer, and defines the node sizes and the child-box quantization the simulated
 * memory image uses.
 *
 * Node contents (byte offsets in bvh-encoding.ts):
 * - internal node, 64 B: first-child pointer, child-bounds origin (3 x f32), per-axis
 *   power-of-two exponents (3 x i8), child count, per-child type (6), per-child quantized
 *   min/max as 8-bit offsets (6 x 6 = 36), after the Intel ANV layout Mesa and
 *   Vulkan-Sim use. Child boxes are QUANTIZED: each plane is rounded outward to the node's 8-bit
 *   grid, so the dequantized boxes traversal tests always contain the exact ones.
 * - top-level (instance) leaf, 128 B: BLAS root pointer, object-to-world and world-to-object 3x4
 *   matrices, instance custom index, mask, SBT offset, flags.
 * - triangle leaf, 64 B: leaf descriptor, geometry and primitive index, three vertices.
 * - procedural leaf, 64 B: leaf descriptor, geometry and primitive index, the AABB.
 *
 * Invariants of `WideBvh`: node 0 is the root and always an internal node (even for one
 * primitive, as in Mesa); node ids follow breadth-first order, so the children of a node are
 * `childFirst .. childFirst + childCount - 1`; every primitive is in exactly one leaf.
 */
import type { BinaryBvh } from './bvh-build.js';

export const NODE_KIND = {
  internal: 0,
  instanceLeaf: 1,
  triangleLeaf: 2,
  proceduralLeaf: 3,
} as const;

/** Node sizes in bytes by `NODE_KIND` (Vulkan-Sim Fig. 7). */
export const NODE_SIZE: readonly number[] = [64, 128, 64, 64];

export interface WideBvh {
  nodeCount: number;
  /** 1 for a leaf (one primitive), 0 for an internal node. */
  isLeaf: Uint8Array;
  parent: Int32Array;
  childFirst: Int32Array;
  childCount: Uint8Array;
  /** Leaves: the primitive index (input order). */
  prim: Int32Array;
  /** Exact bounds of each node's subtree (6 floats). */
  bounds: Float32Array;
  /** Root has depth 0. */
  depth: Uint16Array;
  maxDepth: number;
}

function halfAreaAt(b: Float32Array, node: number): number {
  const o = 6 * node;
  const dx = b[o + 3]! - b[o]!, dy = b[o + 4]! - b[o + 1]!, dz = b[o + 5]! - b[o + 2]!;
  return dx * dy + dy * dz + dz * dx;
}

/** SAH weights of the collapse: one node fetch + box tests vs one leaf fetch + primitive test. */
const COST_NODE = 1;
const COST_LEAF = 1;

/**
 * Collapse with the optimal-SAH dynamic programme of Ylitie, Karras and Laine (HPG 2017),
 * restricted to one-primitive leaves: `cost[n][j]` is the cheapest way to represent binary
 * subtree n with at most j child slots, either as one slot (a leaf, or a wide node whose own
 * `width` slots are split between n's two children) or by splitting the j slots between n's
 * children. The greedy "open the largest child" collapse leaves many half-empty nodes near the
 * leaves; the programme packs them (bunny 6-wide: about a third fewer internal nodes).
 */
export function collapseToWide(bin: BinaryBvh, width: number): WideBvh {
  const n = bin.order.length;
  const cap = Math.max(2 * n + 1, 1);
  const isLeaf = new Uint8Array(cap);
  const parent = new Int32Array(cap).fill(-1);
  const childFirst = new Int32Array(cap).fill(-1);
  const childCount = new Uint8Array(cap);
  const prim = new Int32Array(cap).fill(-1);
  const bounds = new Float32Array(6 * cap);
  const depth = new Uint16Array(cap);
  if (n === 0) {
    return { nodeCount: 0, isLeaf, parent, childFirst, childCount, prim, bounds, depth, maxDepth: 0 };
  }
  const W = width;
  const left = bin.left, right = bin.right;
  // cost[b * W + (j - 1)]; children have larger ids than their parent (pre-order numbering).
  const cost = new Float32Array(bin.nodeCount * W);
  for (let b = bin.nodeCount - 1; b >= 0; b--) {
    const area = halfAreaAt(bin.bounds, b);
    const o = b * W;
    if (left[b]! < 0) {
      const c = area * COST_LEAF;
      for (let j = 0; j < W; j++) cost[o + j] = c;
      continue;
    }
    const l = left[b]! * W, r = right[b]! * W;
    let best = Infinity;
    for (let k = 1; k < W; k++) {
      const c = cost[l + k - 1]! + cost[r + W - k - 1]!;
      if (c < best) best = c;
    }
    const asNode = area * COST_NODE + best;
    cost[o] = asNode;
    for (let j = 2; j <= W; j++) {
      let m = asNode;
      for (let k = 1; k < j; k++) {
        const c = cost[l + k - 1]! + cost[r + j - k - 1]!;
        if (c < m) m = c;
      }
      cost[o + j - 1] = m;
    }
  }

  // Slots of binary subtree b given j slots, replaying the programme's choices.
  const slots: number[] = [];
  const distribute = (b: number, j: number): void => {
    if (j === 1 || left[b]! < 0) { slots.push(b); return; }
    const l = left[b]! * W, r = right[b]! * W;
    let m = cost[b * W]!, split = 0;
    for (let k = 1; k < j; k++) {
      const c = cost[l + k - 1]! + cost[r + j - k - 1]!;
      if (c < m) { m = c; split = k; }
    }
    if (split === 0) { slots.push(b); return; }
    distribute(left[b]!, split);
    distribute(right[b]!, j - split);
  };

  // Binary node id of each wide node, in BFS order.
  const source = new Int32Array(cap);
  source[0] = 0;
  bounds.set(bin.bounds.subarray(0, 6), 0);
  let nodeCount = 1;
  let maxDepth = 0;
  for (let w = 0; w < nodeCount; w++) {
    if (isLeaf[w]) continue;
    const b = source[w]!;
    slots.length = 0;
    if (left[b]! < 0) {
      slots.push(b); // one-primitive tree: the root wraps the single leaf
    } else {
      const l = left[b]! * W, r = right[b]! * W;
      let m = Infinity, split = 1;
      for (let k = 1; k < W; k++) {
        const c = cost[l + k - 1]! + cost[r + W - k - 1]!;
        if (c < m) { m = c; split = k; }
      }
      distribute(left[b]!, split);
      distribute(right[b]!, W - split);
    }
    childFirst[w] = nodeCount;
    childCount[w] = slots.length;
    for (const c of slots) {
      const id = nodeCount++;
      parent[id] = w;
      depth[id] = depth[w]! + 1;
      if (depth[id]! > maxDepth) maxDepth = depth[id]!;
      source[id] = c;
      bounds.set(bin.bounds.subarray(6 * c, 6 * c + 6), 6 * id);
      if (left[c]! < 0) {
        isLeaf[id] = 1;
        prim[id] = bin.order[bin.primStart[c]!]!;
      }
    }
  }
  return { nodeCount, isLeaf, parent, childFirst, childCount, prim, bounds, depth, maxDepth };
}

const QUANT_STEPS = 255;

/** Largest float32 <= x. */
function f32Down(x: number): number {
  const f = Math.fround(x);
  if (f <= x) return f;
  return nextF32(f, -1);
}

/** Smallest float32 >= x. */
function f32Up(x: number): number {
  const f = Math.fround(x);
  if (f >= x) return f;
  return nextF32(f, 1);
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
function nextF32(f: number, dir: 1 | -1): number {
  if (f === 0) return dir > 0 ? 1.401298464324817e-45 : -1.401298464324817e-45;
  f32Scratch[0] = f;
  // Moving away from zero increments the bit pattern; towards zero decrements it.
  if ((f > 0) === (dir > 0)) u32Scratch[0]!++;
  else u32Scratch[0]!--;
  return f32Scratch[0]!;
}

/** Quantization frame of one internal node plus its children's 8-bit planes. */
export interface QuantizedChildren {
  /** float32 origin per axis. */
  origin: [number, number, number];
  /** Power-of-two exponent per axis (the node stores it as int8). */
  exponent: [number, number, number];
  /** 6 per child: qlo x, y, z, qhi x, y, z in 0..255. */
  planes: Uint8Array;
}

/**
 * Quantize the children `firstChild .. firstChild+count-1` of `exact` (6 floats per node):
 * origin = float32 floor of the children's union minimum, per-axis scale 2^e with e the smallest
 * exponent that fits the union in 255 steps, each min plane floored and each max plane ceiled
 * to the grid. `origin + q * 2^e` is exact in double precision (the span is at most ~32 bits).
 */
export function quantizeChildren(exact: Float32Array, firstChild: number, count: number): QuantizedChildren {
  let ux0 = Infinity, uy0 = Infinity, uz0 = Infinity, ux1 = -Infinity, uy1 = -Infinity, uz1 = -Infinity;
  for (let c = 0; c < count; c++) {
    const o = 6 * (firstChild + c);
    ux0 = Math.min(ux0, exact[o]!); uy0 = Math.min(uy0, exact[o + 1]!); uz0 = Math.min(uz0, exact[o + 2]!);
    ux1 = Math.max(ux1, exact[o + 3]!); uy1 = Math.max(uy1, exact[o + 4]!); uz1 = Math.max(uz1, exact[o + 5]!);
  }
  const origin: [number, number, number] = [f32Down(ux0), f32Down(uy0), f32Down(uz0)];
  const upper = [ux1, uy1, uz1];
  const exponent: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const extent = upper[a]! - origin[a]!;
    let e = extent > 0 ? Math.ceil(Math.log2(extent / QUANT_STEPS)) : -126;
    if (e < -126) e = -126;
    while (origin[a]! + QUANT_STEPS * 2 ** e < upper[a]!) e++;
    exponent[a] = e;
  }
  const planes = new Uint8Array(6 * count);
  for (let c = 0; c < count; c++) {
    const o = 6 * (firstChild + c);
    for (let a = 0; a < 3; a++) {
      const s = 2 ** exponent[a]!, org = origin[a]!;
      let qlo = Math.max(0, Math.floor((exact[o + a]! - org) / s));
      let qhi = Math.min(QUANT_STEPS, Math.ceil((exact[o + 3 + a]! - org) / s));
      // The divisions may round; step until the grid planes enclose the exact ones.
      while (qlo > 0 && org + qlo * s > exact[o + a]!) qlo--;
      while (qhi < QUANT_STEPS && org + qhi * s < exact[o + 3 + a]!) qhi++;
      planes[6 * c + a] = qlo;
      planes[6 * c + 3 + a] = qhi;
    }
  }
  return { origin, exponent, planes };
}

/**
 * The box the RT unit reads for child `c`: `origin + q * 2^e`, rounded outward to float32.
 * Always contains the exact child box.
 */
export function dequantizeChild(q: QuantizedChildren, c: number, out: Float32Array, outOffset: number): void {
  for (let a = 0; a < 3; a++) {
    const s = 2 ** q.exponent[a]!;
    out[outOffset + a] = f32Down(q.origin[a]! + q.planes[6 * c + a]! * s);
    out[outOffset + 3 + a] = f32Up(q.origin[a]! + q.planes[6 * c + 3 + a]! * s);
  }
}

/** Quantize and dequantize the children of one internal node into `out` (6 floats per child). */
export function quantizeChildBoxes(exact: Float32Array, firstChild: number, count: number, out: Float32Array, outOffset: number): void {
  const q = quantizeChildren(exact, firstChild, count);
  for (let c = 0; c < count; c++) dequantizeChild(q, c, out, outOffset + 6 * c);
}
