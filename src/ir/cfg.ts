/**
 * Control-flow graph of one function, as a side table keyed by block id (no back pointers in
 * the IR). Computed on demand; drop it when a pass changes the function's control flow.
 *
 * Invariants:
 * - `blocks` is the function's layout order; `entry` is `blocks[0]`.
 * - `succs`/`preds` contain every block, are deduplicated (a condBranch with both arms to the
 *   same block yields one edge: phis have one incoming entry per predecessor block), and name
 *   only blocks that exist in the function (dangling targets are the verifier's business).
 * - `exits` are the blocks whose terminator leaves the function or the invocation: return,
 *   unreachable, ignoreIntersection, terminateRay (and blocks lacking a terminator).
 * - `rpo` is the reverse post-order of the blocks reachable from the entry (DFS visiting
 *   successors in terminator order), so it is deterministic.
 */
import type { BlockId } from './inst.js';
import { isTerminator, successors } from './inst.js';
import type { Function } from './module.js';

export interface Cfg {
  blocks: BlockId[];
  succs: Map<BlockId, BlockId[]>;
  preds: Map<BlockId, BlockId[]>;
  entry: BlockId;
  exits: BlockId[];
  rpo: BlockId[];
}

export function buildCfg(fn: Function): Cfg {
  if (fn.blocks.length === 0) throw new Error(`function @${fn.name} has no blocks`);
  const blocks = fn.blocks.map((b) => b.id);
  const known = new Set(blocks);
  const succs = new Map<BlockId, BlockId[]>();
  const preds = new Map<BlockId, BlockId[]>();
  for (const id of blocks) preds.set(id, []);
  const exits: BlockId[] = [];
  for (const b of fn.blocks) {
    const last = b.insts[b.insts.length - 1];
    const out: BlockId[] = [];
    if (last && isTerminator(last)) {
      for (const s of successors(last)) if (known.has(s) && !out.includes(s)) out.push(s);
      if (successors(last).length === 0) exits.push(b.id);
    } else {
      exits.push(b.id);
    }
    succs.set(b.id, out);
    for (const s of out) preds.get(s)!.push(b.id);
  }
  const entry = blocks[0]!;
  return { blocks, succs, preds, entry, exits, rpo: reversePostOrder(entry, succs) };
}

/** Iterative DFS (deep CFGs must not overflow the JS stack). */
export function reversePostOrder<N>(root: N, next: ReadonlyMap<N, readonly N[]>): N[] {
  const post: N[] = [];
  const seen = new Set<N>([root]);
  const stack: { node: N; i: number }[] = [{ node: root, i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const out = next.get(top.node) ?? [];
    if (top.i < out.length) {
      const s = out[top.i++]!;
      if (!seen.has(s)) {
        seen.add(s);
        stack.push({ node: s, i: 0 });
      }
    } else {
      post.push(top.node);
      stack.pop();
    }
  }
  return post.reverse();
}

/** Blocks reachable from the entry. */
export function reachableBlocks(cfg: Cfg): Set<BlockId> {
  return new Set(cfg.rpo);
}
