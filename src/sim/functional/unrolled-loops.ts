/**
 * The loops NIR unrolls completely, and what unrolling removes from Vulkan-Sim's PTX. lavapipe's
 * `optimize` loop runs nir_opt_loop_unroll with llvmpipe's max_unroll_iterations of 32
 * (lp_screen.c): a loop with a known trip count is unrolled when its control says `unroll`
 * ([[unroll]] / SPIR-V Unroll), never when it says `dontUnroll`, and otherwise when the trip count
 * is at most 32 and the loop's cost times its trip count at most 32 x 26
 * (nir_opt_loop_unroll.c `check_unrolling_restrictions`).
 *
 * The trip count is known here the way NIR's loop analysis finds it in the loops glslang writes:
 * the loop's only exit is a conditional branch on a comparison of a register variable with a
 * constant, the variable is set to a constant before the loop and changed in it only by adding or
 * subtracting a constant once per trip.
 *
 * An unrolled loop has no header, no exit test, no induction update, no back edge and no header
 * phis: those instructions issue nothing and the copies of the body follow each other.
 */
import type { Cfg } from '../../ir/cfg.js';
import type { DomTree } from '../../ir/dominators.js';
import type { BlockId, Inst, ValueId } from '../../ir/inst.js';
import type { Block, Function } from '../../ir/module.js';

/** What the analysis reads of the function's values. */
export interface LoopValues {
  /** The register variable a pointer is, when it is one directly (not an element of one). */
  variableOf(ptr: ValueId): number | undefined;
  /** A numeric scalar constant's value. */
  constant(v: ValueId): number | undefined;
}

export interface UnrolledLoops {
  /** Instructions unrolling removes. */
  removed: Set<Inst>;
  /** Headers of unrolled loops (their variable phis are gone). */
  headers: Set<BlockId>;
  /** Blocks of unrolled loops -> the block that follows them in the unrolled code (no jump between). */
  next: Map<BlockId, BlockId>;
  /** Blocks of unrolled loops -> the block that enters their loop (the header's one predecessor outside it). */
  entered: Map<BlockId, BlockId>;
}

const MAX_UNROLL_ITERATIONS = 32;
const LOOP_UNROLL_LIMIT = 26;

export function unrolledLoops(fn: Function, cfg: Cfg, dom: DomTree, values: LoopValues): UnrolledLoops {
  const out: UnrolledLoops = { removed: new Set(), headers: new Set(), next: new Map(), entered: new Map() };
  const byId = new Map(fn.blocks.map((b) => [b.id, b]));
  for (const header of fn.blocks) {
    const merge = header.merge;
    if (merge?.kind !== 'loop' || merge.unroll === 'dontUnroll' || !cfg.rpo.includes(header.id)) continue;
    const blocks = loopBlocks(cfg, header.id, merge.continue);
    const loop = inductionLoop(blocks, header, merge.merge, byId, dom, values);
    if (loop === undefined) continue;
    const cost = [...blocks].reduce((a, b) => a + (byId.get(b)?.insts.length ?? 0), 0);
    if (loop.trips > MAX_UNROLL_ITERATIONS || (merge.unroll !== 'unroll' && cost * loop.trips > MAX_UNROLL_ITERATIONS * LOOP_UNROLL_LIMIT)) continue;
    out.headers.add(header.id);
    for (const inst of loop.removed) out.removed.add(inst);
    // The loop's own jumps: into the test, from the body's end to the continue block, the back edge.
    for (const id of blocks) {
      const term = byId.get(id)!.insts.at(-1);
      if (term?.op !== 'branch') continue;
      if (id === header.id || id === merge.continue || term.target === merge.continue) {
        out.removed.add(term);
        out.next.set(id, term.target);
      }
    }
    out.next.set(loop.test, loop.body);
    const outside = (cfg.preds.get(header.id) ?? []).filter((p) => !blocks.has(p));
    if (outside.length === 1) for (const id of blocks) out.entered.set(id, outside[0]!);
  }
  return out;
}

/**
 * Where per-instruction charges of values NIR loads once per dominator path (first-use-loads.ts)
 * land after unrolling: the first copy of an unrolled body dominates the other copies, so what the
 * body uses first is loaded once, in the first copy; its charge moves to the terminator of the
 * block entering the loop (out of every unrolled loop around it), not paid on each trip.
 */
export function chargesAfterUnrolling(charges: ReadonlyMap<Inst, number>, fn: Function, unrolled: UnrolledLoops): ReadonlyMap<Inst, number> {
  if (unrolled.entered.size === 0 || charges.size === 0) return charges;
  const out = new Map(charges);
  const byId = new Map(fn.blocks.map((b) => [b.id, b]));
  for (const b of fn.blocks) {
    let to = b.id;
    while (unrolled.entered.has(to)) to = unrolled.entered.get(to)!;
    const term = byId.get(to)!.insts.at(-1);
    if (to === b.id || term === undefined) continue;
    for (const inst of b.insts) {
      const n = out.get(inst);
      if (n === undefined) continue;
      out.delete(inst);
      out.set(term, (out.get(term) ?? 0) + n);
    }
  }
  return out;
}

/** The natural loop of the back edge from `latch` to `header`. */
function loopBlocks(cfg: Cfg, header: BlockId, latch: BlockId): Set<BlockId> {
  const blocks = new Set<BlockId>([header]);
  const work = [latch];
  while (work.length > 0) {
    const b = work.pop()!;
    if (blocks.has(b)) continue;
    blocks.add(b);
    for (const p of cfg.preds.get(b) ?? []) work.push(p);
  }
  return blocks;
}

interface InductionLoop {
  trips: number;
  /** The block holding the exit test, and the in-loop target of its branch. */
  test: BlockId;
  body: BlockId;
  /** The exit test and the induction variable's loads, update and store. */
  removed: Inst[];
}

function inductionLoop(
  blocks: Set<BlockId>, header: Block, exit: BlockId, byId: Map<BlockId, Block>, dom: DomTree, values: LoopValues,
): InductionLoop | undefined {
  // Exactly one exit: a conditional branch to the merge block; no return inside.
  let test: Block | undefined;
  for (const id of blocks) {
    const b = byId.get(id)!;
    const term = b.insts.at(-1);
    if (term === undefined) return undefined;
    if (term.op === 'condBranch') {
      const outside = [term.ifTrue, term.ifFalse].filter((t) => !blocks.has(t));
      if (outside.length === 0) continue;
      if (outside.length !== 1 || outside[0] !== exit || test !== undefined) return undefined;
      test = b;
    } else if (term.op === 'branch') {
      if (!blocks.has(term.target)) return undefined;
    } else if (term.op !== 'switch' || [term.default, ...term.cases.map((c) => c.target)].some((t) => !blocks.has(t))) {
      return undefined;
    }
  }
  if (test === undefined) return undefined;
  const branch = test.insts.at(-1)!;
  if (branch.op !== 'condBranch') return undefined;
  const defs = new Map<ValueId, Inst>();
  for (const id of blocks) for (const inst of byId.get(id)!.insts) if ('id' in inst) defs.set(inst.id, inst);
  const cmp = defs.get(branch.cond);
  if (cmp?.op !== 'compare') return undefined;
  // variable <op> constant, or constant <op> variable.
  const loadOf = (v: ValueId): Inst | undefined => {
    const d = defs.get(v);
    return d?.op === 'load' && values.variableOf(d.ptr) !== undefined ? d : undefined;
  };
  const load = loadOf(cmp.a) ?? loadOf(cmp.b);
  const bound = loadOf(cmp.a) !== undefined ? values.constant(cmp.b) : values.constant(cmp.a);
  if (load?.op !== 'load' || bound === undefined) return undefined;
  const variable = values.variableOf(load.ptr)!;
  // Stores to it: one in the loop (v +/- constant), and constants outside it on the way in.
  const inLoop: Inst[] = [];
  let init: number | undefined;
  for (const b of byId.values()) {
    for (const inst of b.insts) {
      if (inst.op !== 'store' || values.variableOf(inst.ptr) !== variable) continue;
      if (blocks.has(b.id)) inLoop.push(inst);
      else if (dom.dominates(b.id, header.id)) {
        const c = values.constant(inst.value);
        if (c === undefined) return undefined;
        init = c;
      }
    }
  }
  if (init === undefined || inLoop.length !== 1) return undefined;
  const update = inLoop[0]!;
  if (update.op !== 'store') return undefined;
  const step = defs.get(update.value);
  if (step?.op !== 'binary' || (step.kind !== 'add' && step.kind !== 'sub')) return undefined;
  const stepLoad = defs.get(step.a);
  const delta = values.constant(step.b);
  if (stepLoad?.op !== 'load' || values.variableOf(stepLoad.ptr) !== variable || delta === undefined) return undefined;
  const d = step.kind === 'add' ? delta : -delta;
  const stays = (v: number): boolean => {
    const [x, y] = loadOf(cmp.a) !== undefined ? [v, bound] : [bound, v];
    switch (cmp.kind) {
      case 'lt': return x < y;
      case 'le': return x <= y;
      case 'gt': return x > y;
      case 'ge': return x >= y;
      case 'ne': return x !== y;
      default: return false;
    }
  };
  // Which branch target continues the loop.
  const body = blocks.has(branch.ifTrue) ? branch.ifTrue : branch.ifFalse;
  const continuesWhen = body === branch.ifTrue;
  let trips = 0;
  for (let v = init; stays(v) === continuesWhen; v += d) {
    if (++trips > MAX_UNROLL_ITERATIONS) return undefined;
  }
  return { trips, test: test.id, body, removed: [branch, cmp, load, update, step, stepLoad] };
}
