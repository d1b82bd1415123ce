/**
 * Dominator and post-dominator trees (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
 * Algorithm": iterate idom over reverse post-order, intersecting by reverse-post-order index).
 *
 * Invariants:
 * - Dominator tree: only blocks reachable from the entry are in `idom`; the entry maps to
 *   undefined. `dominates(a, b)` is reflexive for tree members, false when either is not in it.
 * - Post-dominator tree: computed on the reverse CFG with a virtual exit that joins every exit
 *   block (return, unreachable, ignoreIntersection, terminateRay). Blocks that cannot reach any
 *   exit (infinite loops) get a pseudo-edge to the virtual exit from the last block, in forward
 *   reverse post-order, of each such region, so every block of the function is in the tree.
 *   Blocks whose immediate post-dominator is the virtual exit map to undefined.
 * - `roots` are the blocks whose idom is undefined.
 */
import type { Cfg } from './cfg.js';
import { reversePostOrder } from './cfg.js';
import type { BlockId } from './inst.js';

export interface DomTree {
  idom: Map<BlockId, BlockId | undefined>;
  dominates(a: BlockId, b: BlockId): boolean;
  children(b: BlockId): BlockId[];
  /** Blocks with no immediate dominator: the entry (dominators) or the virtual exit's children (post-dominators). */
  readonly roots: BlockId[];
}

/** Node used for the virtual root; block ids are positive so -1 never collides. */
const VIRTUAL = -1 as BlockId;

/**
 * CHK on a graph given as rpo order + predecessor lists. Returns idom for every node in `rpo`
 * (root maps to itself, as in the paper).
 */
function iterateIdoms(rpo: readonly BlockId[], preds: (b: BlockId) => readonly BlockId[]): Map<BlockId, BlockId> {
  const order = new Map<BlockId, number>();
  rpo.forEach((b, i) => order.set(b, i));
  const idom = new Map<BlockId, BlockId>();
  const root = rpo[0]!;
  idom.set(root, root);
  const intersect = (x: BlockId, y: BlockId): BlockId => {
    let a = x;
    let b = y;
    while (a !== b) {
      while (order.get(a)! > order.get(b)!) a = idom.get(a)!;
      while (order.get(b)! > order.get(a)!) b = idom.get(b)!;
    }
    return a;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 1; i < rpo.length; i++) {
      const b = rpo[i]!;
      let next: BlockId | undefined;
      for (const p of preds(b)) {
        if (!idom.has(p)) continue;
        next = next === undefined ? p : intersect(p, next);
      }
      if (next !== undefined && idom.get(b) !== next) {
        idom.set(b, next);
        changed = true;
      }
    }
  }
  return idom;
}

function makeTree(idom: Map<BlockId, BlockId | undefined>): DomTree {
  const kids = new Map<BlockId, BlockId[]>();
  const roots: BlockId[] = [];
  for (const b of idom.keys()) kids.set(b, []);
  for (const [b, d] of idom) {
    if (d === undefined) roots.push(b);
    else kids.get(d)!.push(b);
  }
  // Pre/post numbering turns `dominates` into an O(1) interval test.
  const pre = new Map<BlockId, number>();
  const post = new Map<BlockId, number>();
  let clock = 0;
  for (const r of roots) {
    const stack: { node: BlockId; i: number }[] = [{ node: r, i: 0 }];
    pre.set(r, clock++);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const c = kids.get(top.node)!;
      if (top.i < c.length) {
        const n = c[top.i++]!;
        pre.set(n, clock++);
        stack.push({ node: n, i: 0 });
      } else {
        post.set(top.node, clock++);
        stack.pop();
      }
    }
  }
  return {
    idom,
    roots,
    dominates(a: BlockId, b: BlockId): boolean {
      const pa = pre.get(a);
      const pb = pre.get(b);
      if (pa === undefined || pb === undefined) return false;
      return pa <= pb && post.get(b)! <= post.get(a)!;
    },
    children(b: BlockId): BlockId[] {
      return [...(kids.get(b) ?? [])];
    },
  };
}

export function dominatorTree(cfg: Cfg): DomTree {
  const raw = iterateIdoms(cfg.rpo, (b) => cfg.preds.get(b) ?? []);
  const idom = new Map<BlockId, BlockId | undefined>();
  for (const b of cfg.rpo) {
    const d = raw.get(b);
    idom.set(b, b === cfg.entry ? undefined : d);
  }
  return makeTree(idom);
}

/** The edges added from infinite-loop regions to the virtual exit (exported for tests and the simulator). */
export function pseudoExits(cfg: Cfg): BlockId[] {
  return reverseGraph(cfg).pseudo;
}

function reverseGraph(cfg: Cfg): { next: Map<BlockId, BlockId[]>; pseudo: BlockId[] } {
  const next = new Map<BlockId, BlockId[]>();
  for (const b of cfg.blocks) next.set(b, [...(cfg.preds.get(b) ?? [])]);
  const exitEdges = [...cfg.exits];
  next.set(VIRTUAL, exitEdges);
  const pseudo: BlockId[] = [];
  // Candidate order: forward rpo (reachable blocks), then unreachable ones in layout order.
  const inRpo = new Set(cfg.rpo);
  const order = [...cfg.rpo, ...cfg.blocks.filter((b) => !inRpo.has(b))];
  const reached = new Set<BlockId>([VIRTUAL]);
  const flood = (from: BlockId): void => {
    const stack = [from];
    while (stack.length > 0) {
      const n = stack.pop()!;
      for (const p of next.get(n) ?? []) {
        if (!reached.has(p)) {
          reached.add(p);
          stack.push(p);
        }
      }
    }
  };
  flood(VIRTUAL);
  for (let i = order.length - 1; i >= 0; i--) {
    const b = order[i]!;
    if (reached.has(b)) continue;
    // `b` is the last not-yet-covered block in rpo: the latch-most block of its region.
    exitEdges.push(b);
    pseudo.push(b);
    reached.add(b);
    flood(b);
  }
  return { next, pseudo };
}

export function postDominatorTree(cfg: Cfg): DomTree {
  const { next } = reverseGraph(cfg);
  const rpo = reversePostOrder(VIRTUAL, next);
  // Predecessors in the reverse graph are successors in the forward graph (+ virtual exit).
  const revPreds = new Map<BlockId, BlockId[]>();
  for (const [n, outs] of next) for (const o of outs) {
    let l = revPreds.get(o);
    if (!l) revPreds.set(o, (l = []));
    l.push(n);
  }
  const raw = iterateIdoms(rpo, (b) => revPreds.get(b) ?? []);
  const idom = new Map<BlockId, BlockId | undefined>();
  for (const b of rpo) {
    if (b === VIRTUAL) continue;
    const d = raw.get(b);
    idom.set(b, d === VIRTUAL ? undefined : d);
  }
  return makeTree(idom);
}

/** The reconvergence point of a branch in `b`; undefined = function exit. */
export function immediatePostDominator(pdt: DomTree, b: BlockId): BlockId | undefined {
  return pdt.idom.get(b);
}

/**
 * Visits the blocks of `tree` in pre-order, iteratively (deep trees must not overflow the JS stack).
 * `enter(b)` may return what to undo once b's subtree is done: scoped tables (dominating
 * definitions, value numbers) add on entry and remove on exit.
 */
export function walkDominatorScopes(tree: DomTree, enter: (b: BlockId) => (() => void) | void): void {
  const stack: { block: BlockId; leave: (() => void) | void; entered: boolean }[] = tree.roots.map((b) => ({ block: b, leave: undefined, entered: false }));
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.entered) {
      if (top.leave) top.leave();
      stack.pop();
      continue;
    }
    top.entered = true;
    top.leave = enter(top.block);
    for (const child of tree.children(top.block)) stack.push({ block: child, leave: undefined, entered: false });
  }
}

/**
 * Dominance frontiers of the reachable blocks (Cooper, Harvey and Kennedy's walk up from each
 * predecessor of a join block to the join's immediate dominator): where a definition's dominance
 * ends, the blocks SSA construction puts phis in.
 */
export function dominanceFrontiers(cfg: Cfg, dom: DomTree): Map<BlockId, Set<BlockId>> {
  const df = new Map<BlockId, Set<BlockId>>(cfg.rpo.map((b) => [b, new Set<BlockId>()]));
  for (const b of cfg.rpo) {
    const preds = (cfg.preds.get(b) ?? []).filter((p) => df.has(p));
    if (preds.length < 2) continue;
    const stop = dom.idom.get(b);
    for (const p of preds) {
      for (let runner: BlockId | undefined = p; runner !== undefined && runner !== stop; runner = dom.idom.get(runner)) df.get(runner)!.add(b);
    }
  }
  return df;
}
