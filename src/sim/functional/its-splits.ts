/**
 * Independent thread scheduling (Vulkan-Sim Section IV-B): a warp's splits kept in a table rather
 * than a reconvergence stack, so each split runs on its own and a scheduler may pick any of them.
 *
 * Invariants:
 * - Every split has a non-empty call chain (`calls`, outermost first); the last entry is where it
 *   executes next. Masks of live splits are disjoint and non-zero; their union is the set of lanes
 *   that have not yet returned from the entry function.
 * - A divergent branch creates splits and pushes no reconvergence entry: the lanes taking the
 *   first taken successor keep the split (and its id, so oldest-first matches the SIMT stack's
 *   "taken path first" order); every other taken successor gets a new split with a fresh, larger id.
 * - Two splits merge (the older id survives) when they sit at the same position of the same call
 *   frame object; a frame object belongs to the split that called it and is shared by the splits
 *   descending from that split, so the same top frame implies the same call chain below it.
 * - `splits` is sorted by id; ids are never reused within a warp, so runs are deterministic.
 * - Scheduling order (`ordered()`, what `runnable()` lists and `pick()` takes by default): the
 *   split that lags behind in program order runs first. Call chains are compared outermost frame
 *   first; within a frame a split lags one whose block post-dominates its own (that block is where
 *   the SIMT stack would have reconverged them: an if/else join, a loop's exit), otherwise the
 *   smaller reverse-postorder rank lags (wherever the front end or the RT lowering placed the
 *   blocks); then the smaller piece; a split inside a call lags one that returned; ties by id. Letting the laggard catch up is what makes splits of an if/else meet at the join. The
 *   one exception is the split whose last step entered the RT unit (traceRay's traverse): it goes
 *   last, because on hardware it waits there while the others proceed (Vulkan-Sim IV-B: "the next
 *   block can be scheduled without waiting for ray tracing to complete"). So, without a timing
 *   model, splits around a divergent traceRay drift apart and leave the pipeline separately.
 * - Frames are shared by sibling splits and therefore not returned to the launch's frame pool.
 */
import { EXIT, type BlockInfo, type FunctionInfo } from './compile-to-js.js';
import { convergenceBarrier, NO_BARRIER, type BarrierPolicy } from './its-barriers.js';
import type { Frame } from './launch-state.js';

/** Where a split is in one call frame: block position (or EXIT) and the next piece to run. */
export interface CallPosition {
  frame: Frame;
  pc: number;
  piece: number;
}

export interface ItsSplit {
  /** Unique within the warp; smaller is older. */
  id: number;
  /** Active lanes (int32 bit mask). */
  mask: number;
  calls: CallPosition[];
  /** Convergence barriers the split belongs to, innermost last (shared with its siblings). */
  barriers: Barrier[];
}

/**
 * A convergence barrier (BSSY / BSYNC): the lanes of a divergent branch wait at `frame`'s position
 * (`pc`, `piece`) until every one of `mask` that is still running has arrived, then run as one split.
 */
export interface Barrier {
  frame: Frame;
  pc: number;
  piece: number;
  /** Lanes expected; lanes that finish or leave the frame early are dropped from it. */
  mask: number;
}

/** What a scheduler sees of a split it may run next. */
export interface RunnableSplit {
  id: number;
  mask: number;
  /** Function id and block position the split executes next (EXIT never appears here). */
  fn: number;
  pc: number;
  piece: number;
}

const rpoRanks = new WeakMap<FunctionInfo, Int32Array>();

/** Reverse-postorder rank of each block position of `fn` (unreachable blocks rank last). */
function rpoRank(fn: FunctionInfo): Int32Array {
  let rank = rpoRanks.get(fn);
  if (rank) return rank;
  const n = fn.blocks.length;
  rank = new Int32Array(n).fill(n);
  const seen = new Uint8Array(n);
  const post: number[] = [];
  // Iterative DFS: (block, successors visited) pairs. Successors are visited last to first so the
  // first successor ranks lowest: the taken path runs first, as on the SIMT stack.
  const stack: [number, number][] = n > 0 ? [[0, 0]] : [];
  if (n > 0) seen[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const succs = fn.blocks[top[0]]!.succs;
    if (top[1] < succs.length) {
      const s = succs[succs.length - 1 - top[1]++]!;
      if (s >= 0 && seen[s] === 0) {
        seen[s] = 1;
        stack.push([s, 0]);
      }
      continue;
    }
    post.push(top[0]);
    stack.pop();
  }
  for (let i = 0; i < post.length; i++) rank[post[i]!] = post.length - 1 - i;
  rpoRanks.set(fn, rank);
  return rank;
}

/** Whether block position `a` post-dominates block position `b` in `fn` (walks b's ipdom chain). */
function postDominates(fn: FunctionInfo, a: number, b: number): boolean {
  for (let x = b, guard = fn.blocks.length; x !== EXIT && guard >= 0; x = fn.blocks[x]!.ipdom, guard--) if (x === a) return true;
  return false;
}

/** Negative when split a lags b in program order (so a should run first). */
function lagOrder(a: ItsSplit, b: ItsSplit): number {
  const n = Math.min(a.calls.length, b.calls.length);
  for (let i = 0; i < n; i++) {
    const x = a.calls[i]!;
    const y = b.calls[i]!;
    if (x.pc !== y.pc) {
      if (x.frame.fn !== y.frame.fn) return x.pc - y.pc;
      if (postDominates(x.frame.fn, x.pc, y.pc)) return 1;
      if (postDominates(x.frame.fn, y.pc, x.pc)) return -1;
      const rank = rpoRank(x.frame.fn);
      return rank[x.pc]! - rank[y.pc]!;
    }
    if (x.piece !== y.piece) return x.piece - y.piece;
  }
  if (a.calls.length !== b.calls.length) return b.calls.length - a.calls.length;
  return a.id - b.id;
}

export class SplitTable {
  readonly splits: ItsSplit[] = [];
  private nextId = 1;
  /** Id of the split whose last step entered the RT unit, or -1 once another split stepped. */
  private inRtUnit = -1;

  constructor(entry: Frame, mask: number, private readonly policy?: BarrierPolicy) {
    this.splits.push({ id: 0, mask, calls: [{ frame: entry, pc: 0, piece: 0 }], barriers: [] });
  }

  /** A split waiting at its innermost barrier (not runnable until the barrier's lanes are all there). */
  private waiting(s: ItsSplit): boolean {
    const b = s.barriers[s.barriers.length - 1];
    if (!b) return false;
    const top = s.calls[s.calls.length - 1]!;
    return top.frame === b.frame && top.pc === b.pc && top.piece === b.piece;
  }

  /**
   * Merges the splits waiting at barrier `b` once all its running lanes are there; repeats for the
   * survivor's next barrier when it sits at that one too. Returns the survivor, if a merge happened.
   */
  private release(b: Barrier): void {
    for (;;) {
      let arrived = 0;
      const members: ItsSplit[] = [];
      for (const s of this.splits) {
        if (s.barriers[s.barriers.length - 1] === b && this.waiting(s)) {
          arrived |= s.mask;
          members.push(s);
        }
      }
      if (members.length === 0 || (b.mask & ~arrived) !== 0) return;
      members.sort((x, y) => x.id - y.id);
      const survivor = members[0]!;
      for (const o of members.slice(1)) {
        survivor.mask |= o.mask;
        this.remove(o);
      }
      survivor.barriers.pop();
      const next = survivor.barriers[survivor.barriers.length - 1];
      if (!next || !this.waiting(survivor)) return;
      b = next;
    }
  }

  /** After `s` moved: if it reached its innermost barrier, release that barrier when complete. */
  arrive(s: ItsSplit): void {
    if (this.policy && this.waiting(s)) this.release(s.barriers[s.barriers.length - 1]!);
  }

  /** Lanes `mask` will never reach barriers in `frame` (they returned from it, or finished). */
  private dropLanes(mask: number, frame: Frame | undefined): void {
    const touched = new Set<Barrier>();
    for (const s of this.splits) {
      for (const b of s.barriers) {
        if ((frame === undefined || b.frame === frame) && (b.mask & mask) !== 0) {
          b.mask &= ~mask;
          touched.add(b);
        }
      }
    }
    for (const b of touched) this.release(b);
  }

  get empty(): boolean {
    return this.splits.length === 0;
  }

  /** Live splits in scheduling order (see the file comment). */
  ordered(): ItsSplit[] {
    if (this.splits.length === 1) return this.splits;
    const out = (this.policy ? this.splits.filter((s) => !this.waiting(s)) : [...this.splits]).sort(lagOrder);
    const k = out.findIndex((s) => s.id === this.inRtUnit);
    if (k >= 0) out.push(...out.splice(k, 1));
    return out;
  }

  /**
   * Whether split `a` sits at a block that post-dominates where split `b` is in a frame they share
   * (b's reconvergence point on the SIMT stack): a timing model keeps `a` there while `b` waits
   * for a short-latency result, so they merge instead of drifting apart. False when either split
   * no longer exists (finished or merged).
   */
  waitsAtJoin(a: number, b: number): boolean {
    const A = this.splits.find((s) => s.id === a);
    const B = this.splits.find((s) => s.id === b);
    if (!A || !B) return false;
    const i = A.calls.length - 1;
    if (B.calls.length <= i || A.calls[i]!.frame !== B.calls[i]!.frame) return false;
    const x = A.calls[i]!;
    const y = B.calls[i]!;
    return x.pc !== y.pc && postDominates(x.frame.fn, x.pc, y.pc);
  }

  /** Records that `id` executed a step, `traversal` when that step ended in an RT traversal. */
  stepped(id: number, traversal: boolean): void {
    this.inRtUnit = traversal ? id : -1;
  }

  runnable(): RunnableSplit[] {
    return this.ordered().map((s) => {
      const top = s.calls[s.calls.length - 1]!;
      return { id: s.id, mask: s.mask >>> 0, fn: top.frame.fn.id, pc: top.pc, piece: top.piece };
    });
  }

  /** The split with this id, or the scheduling order's first when `id` is undefined. */
  pick(id: number | undefined): ItsSplit | undefined {
    if (id === undefined) return this.splits.length === 1 ? this.splits[0] : this.ordered()[0];
    return this.splits.find((s) => s.id === id);
  }

  /**
   * Applies a branch of split `s` (W.succ masks per successor). Uniform: the split moves.
   * Divergent: `s` keeps the first taken successor's lanes, each other taken successor gets a new
   * split. Returns the splits whose position changed.
   */
  branch(s: ItsSplit, block: BlockInfo, succMasks: Int32Array): ItsSplit[] {
    const top = s.calls[s.calls.length - 1]!;
    const succs = block.succs;
    let first = -1;
    const moved: ItsSplit[] = [s];
    let taken = 0;
    for (let i = 0; i < succs.length; i++) if (succMasks[i] !== 0) taken++;
    if (taken > 1 && this.policy) {
      // Divergent: a convergence barrier at the post-dominator, unless the policy leaves this
      // branch without one (a traceRay in between); the function's end means the caller's return point.
      const pc = convergenceBarrier(top.frame.fn, top.pc, this.policy);
      if (pc !== NO_BARRIER) {
        const caller = s.calls[s.calls.length - 2];
        const at = pc !== EXIT ? { frame: top.frame, pc, piece: 0 } : caller ? { frame: caller.frame, pc: caller.pc, piece: caller.piece } : undefined;
        if (at) s.barriers = [...s.barriers, { ...at, mask: s.mask }];
      }
    }
    for (let i = 0; i < succs.length; i++) {
      const m = succMasks[i]!;
      if (m === 0) continue;
      if (first < 0) {
        first = i;
        continue;
      }
      // Own copies of the return positions: each split advances its callers on its own.
      const calls = s.calls.slice(0, -1).map((c) => ({ ...c }));
      calls.push({ frame: top.frame, pc: succs[i]!, piece: 0 });
      const ns: ItsSplit = { id: this.nextId++, mask: m, calls, barriers: [...s.barriers] };
      this.splits.push(ns);
      moved.push(ns);
    }
    top.pc = first < 0 ? EXIT : succs[first]!;
    top.piece = 0;
    if (first >= 0) s.mask = succMasks[first]!;
    return moved;
  }

  /**
   * Split `s` left its top frame (returned, or ran off the function's end): its lanes' results go
   * to the caller's call site and it may merge there; leaving the entry function finishes it.
   */
  leaveFrame(s: ItsSplit): void {
    const F = s.calls.pop()!.frame;
    if (this.policy) {
      // Barriers of the frame it leaves can no longer be reached by these lanes.
      while (s.barriers.length > 0 && s.barriers[s.barriers.length - 1]!.frame === F) s.barriers.pop();
    }
    if (s.calls.length === 0) {
      this.remove(s);
      if (this.policy) this.dropLanes(s.mask, undefined);
      return;
    }
    if (this.policy) this.dropLanes(s.mask, F);
    const caller = s.calls[s.calls.length - 1]!;
    const callPiece = caller.frame.fn.blocks[caller.pc]!.pieces[caller.piece - 1]!;
    if (callPiece.callResultSlot >= 0) {
      for (let k = 0; k < callPiece.callResultLeaves; k++) {
        const dst = (callPiece.callResultSlot + k) * 32;
        for (let m = s.mask; m !== 0; m &= m - 1) {
          const l = 31 - Math.clz32(m & -m);
          caller.frame.regs[dst + l] = F.ret[k * 32 + l]!;
        }
      }
    }
    if (this.policy) this.arrive(s);
    else this.merge(s);
  }

  /**
   * After split `s` moved: with convergence barriers it may complete one; without (the policy-less
   * table of the earlier model) it merges with any split at the same position.
   */
  settle(s: ItsSplit): void {
    if (this.policy) this.arrive(s);
    else this.merge(s);
  }

  remove(s: ItsSplit): void {
    const i = this.splits.indexOf(s);
    if (i >= 0) this.splits.splice(i, 1);
  }

  /**
   * Opportunistic reconvergence: merges every split sitting at the same frame position as `s`
   * into the oldest of them. Returns the survivor.
   */
  merge(s: ItsSplit): ItsSplit {
    const top = s.calls[s.calls.length - 1]!;
    if (top.pc === EXIT) return s;
    let survivor = s;
    for (const o of this.splits) {
      if (o === s) continue;
      const ot = o.calls[o.calls.length - 1]!;
      if (ot.frame !== top.frame || ot.pc !== top.pc || ot.piece !== top.piece) continue;
      if (o.id < survivor.id) survivor = o;
    }
    for (let i = this.splits.length - 1; i >= 0; i--) {
      const o = this.splits[i]!;
      if (o === survivor) continue;
      const ot = o.calls[o.calls.length - 1]!;
      if (ot.frame !== top.frame || ot.pc !== top.pc || ot.piece !== top.piece) continue;
      survivor.mask |= o.mask;
      this.splits.splice(i, 1);
    }
    return survivor;
  }
}
