/**
 * Treelet traversal order (Chou et al., paper 001 Sec. 2.2: a current stack and a treelet stack)
 * on recorded traversals: a ray's node fetches regrouped treelet by treelet, in the order the ray
 * first reaches each treelet, keeping their order within a treelet.
 *
 * Invariants: the output is a permutation of the input; segment s is `[segEnd[s-1], segEnd[s])`
 * and holds the fetches of treelet `segTreelet[s]`, each treelet in one segment only.
 */
import type { RtTransaction } from '../../warp-step.js';
import { isBvhNode } from '../../warp-step.js';

/**
 * A lane's transactions regrouped treelet by treelet (treelet traversal order, see the file
 * comment). Other transactions (stack spills, BVH headers) stay with the treelet of the
 * node before them.
 */
export function treeletSegments(
  tx: readonly RtTransaction[], treeletOf: ReadonlyMap<number, number>,
): { tx: RtTransaction[]; segEnd: number[]; segTreelet: number[] } {
  const order: number[] = [];
  const groups = new Map<number, RtTransaction[]>();
  let cur = -1;
  for (const t of tx) {
    // A leaf descriptor sits at its leaf's address, so it goes with the leaf's treelet.
    const atNode = isBvhNode(t.kind) || t.kind === 'leafDescriptor';
    const tl = atNode ? treeletOf.get(t.address) ?? cur : cur;
    cur = tl;
    let g = groups.get(tl);
    if (!g) {
      g = [];
      groups.set(tl, g);
      order.push(tl);
    }
    g.push(t);
  }
  if (order.length <= 1) return { tx: tx as RtTransaction[], segEnd: [tx.length], segTreelet: [order[0] ?? -1] };
  const out: RtTransaction[] = [];
  const segEnd: number[] = [];
  for (const tl of order) {
    for (const t of groups.get(tl)!) out.push(t);
    segEnd.push(out.length);
  }
  return { tx: out, segEnd, segTreelet: order };
}

