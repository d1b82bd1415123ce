/**
 * Any-hit shaders with subgroup probes leave through one exit (issue 21: `alpha --mode simt` hung
 * the H100).
 *
 * `ignoreIntersectionEXT` and `terminateRayEXT` end the any-hit invocation where they stand
 * (SPIR-V terminators). On an NVIDIA H100 (driver 580) a subgroup operation (`subgroupBallot`
 * or `subgroupElect`: WarpUpdate's) executed in an any-hit shader after some invocations of the
 * subgroup already left through one of them never completes: the launch hangs. Measured by
 * bisection of `alpha`'s simt probes (docs/device.md): a ballot at the any-hit's entry, or in the
 * block that ends in `ignoreIntersectionEXT`, runs; a ballot in any block that can run after
 * another invocation took such an exit (the join after `if (...) ignoreIntersectionEXT;`, the
 * branch ending in `terminateRayEXT` below it) hangs, with ballot alone or elect alone.
 *
 * So when an instrumented any-hit shader holds subgroup operations, its entry function is
 * rewritten to leave through one exit block: each `ignoreIntersectionEXT` / `terminateRayEXT` /
 * `return` becomes "store the exit's kind; branch to the exit" (ids kept: probes placed before
 * them still name the same point), and the exit block does what the kind says:
 *
 *   exit:   k = load kind; if (k == 1) ignoreIntersection;        (selection merge: exit2)
 *   exit2:  if (k == 2) terminateRay;                             (selection merge: ret)
 *   ret:    return
 *
 * (a test only for the kinds of exit the function has).
 *
 * No invocation leaves before the others reach the exit, so every probe's subgroup operation runs
 * before any exit. The SPIR-V writer makes the shared exit structured (structure-exits.ts: the body
 * in a loop that runs once). Per invocation the same original blocks run in the same order, and
 * the any-hit ends the same way; the new blocks hold no probes, so no figure changes.
 *
 * An exit inside a loop stores its kind (3 for a `return`) and breaks to the innermost loop's merge,
 * where `if (kind != 0)` breaks on to the next loop's merge out, and from the outermost to the exit
 * block (a SPIR-V break leaves one loop at a time).
 *
 * Not rewritten (left as before, and still able to hang an NVIDIA GPU): any-hit shaders with an exit
 * in a loop's continue construct (it may only branch back to the header). Exits in functions the
 * entry function calls are skipped too, though no pipeline has them: the pipeline lowering
 * (rt-pipeline.ts) refuses ignoreIntersectionEXT / terminateRayEXT outside an any-hit's main.
 */
import { Builder, findInst, firstNonPhiIndex } from '../../ir/builder.js';
import { openIfThen } from '../../primitives/if-then-region.js';
import type { BlockId, Inst } from '../../ir/inst.js';
import { successors } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';
import type { InstrumentedShader } from './probe-context.js';

/** 0: not leaving; 3: a `return` taken inside a loop (outside loops a return just branches to the exit). */
const EXIT_KIND = { return: 0, ignoreIntersection: 1, terminateRay: 2 } as const;
const RETURN_IN_LOOP = 3;
type ExitOp = keyof typeof EXIT_KIND;

const done = new WeakSet<Function>();

export interface DeferredExits {
  /** Entry functions rewritten. */
  rewritten: string[];
  /** Any-hit shaders with subgroup operations left as they were, and why. */
  skipped: { fn: string; why: string }[];
}

export function deferAnyHitExits(m: Module, shaders: readonly InstrumentedShader[]): DeferredExits {
  const out: DeferredExits = { rewritten: [], skipped: [] };
  for (const sh of shaders) {
    if (sh.entry.stage !== 'anyHit' || done.has(sh.root)) continue;
    if (!sh.functions.some((f) => f.blocks.some((b) => b.insts.some((i) => i.op === 'subgroup')))) continue;
    const callees = sh.functions.filter((f) => f !== sh.root && exitsOf(f, false).length > 0);
    if (callees.length > 0) {
      out.skipped.push({ fn: sh.root.name, why: `ignoreIntersectionEXT / terminateRayEXT in ${callees.map((f) => f.name).join(', ')}` });
      continue;
    }
    const fn = sh.root;
    const exits = exitsOf(fn, true);
    if (!exits.some((e) => e.inst.op !== 'return')) continue;
    const inContinue = exits.find((e) => loopsOf(fn).some((l) => l.continueConstruct.has(e.block)));
    if (inContinue) {
      out.skipped.push({ fn: fn.name, why: `an exit (${inContinue.inst.op}) in a loop's continue construct` });
      continue;
    }
    rewrite(m, fn, exits);
    done.add(fn);
    out.rewritten.push(fn.name);
  }
  return out;
}

interface Exit {
  block: BlockId;
  inst: Inst;
}

function exitsOf(fn: Function, withReturns: boolean): Exit[] {
  const out: Exit[] = [];
  for (const b of fn.blocks) {
    const t = b.insts[b.insts.length - 1];
    if (t && (t.op === 'ignoreIntersection' || t.op === 'terminateRay' || (withReturns && t.op === 'return'))) out.push({ block: b.id, inst: t });
  }
  return out;
}

interface Loop {
  header: BlockId;
  merge: BlockId;
  /** Blocks from the header up to (not including) the merge, the continue construct included. */
  body: Set<BlockId>;
  /** Blocks from the continue target back to the header. */
  continueConstruct: Set<BlockId>;
}

/** The loops of `fn` (headers with a loop merge), innermost first for each block (smallest body first). */
function loopsOf(fn: Function): Loop[] {
  const byId = new Map(fn.blocks.map((x) => [x.id, x]));
  const walk = (from: BlockId, stop: ReadonlySet<BlockId>): Set<BlockId> => {
    const seen = new Set<BlockId>();
    const stack = [from];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id) || stop.has(id)) continue;
      seen.add(id);
      const t = byId.get(id)?.insts.at(-1);
      if (t) stack.push(...successors(t));
    }
    return seen;
  };
  const out: Loop[] = [];
  for (const h of fn.blocks) {
    if (h.merge?.kind !== 'loop') continue;
    const merge = h.merge.merge;
    const body = walk(h.id, new Set([merge]));
    // Reached from the header again only through the back edge: stop at the header's re-entry.
    const cont = walk(h.merge.continue, new Set([h.id, merge]));
    out.push({ header: h.id, merge, body, continueConstruct: cont });
  }
  return out.sort((x, y) => x.body.size - y.body.size);
}

function rewrite(m: Module, fn: Function, exits: Exit[]): void {
  const b = new Builder(m, fn);
  const u32 = b.t.u32;
  const loc = { ...exits[exits.length - 1]!.inst.loc };
  b.loc = loc;
  // The exit's kind: a function-storage variable at the top of the entry block, 0 (return) at first.
  const entry = fn.blocks[0]!;
  const kind = b.constU32(0);
  const varIndex = entry.insts.findIndex((i) => i.op !== 'variable');
  b.setInsertPoint(entry.id, varIndex < 0 ? entry.insts.length : varIndex);
  const kindVar = b.emit('variable', { init: kind, name: 'vv.anyHitExit' }, b.t.ptr('function', u32));
  // One test per exit kind the function has, each a selection whose merge is the next test; the
  // last merge returns.
  const kinds = (['ignoreIntersection', 'terminateRay'] as const).filter((op) => exits.some((e) => e.inst.op === op));
  const exitBlock = b.createBlock('vv.anyhit.exit');
  const tests = [exitBlock, ...kinds.slice(1).map((op) => b.createBlock(`vv.anyhit.exit.${op === 'terminateRay' ? 'terminate' : 'ignore'}`))];
  const retBlock = b.createBlock('vv.anyhit.return');
  const layout: number[] = [];
  b.setInsertPoint(exitBlock);
  const k = b.emit('load', { ptr: kindVar }, u32);
  kinds.forEach((op, n) => {
    const test = tests[n]!;
    const next = tests[n + 1] ?? retBlock;
    const leave = b.createBlock(op === 'ignoreIntersection' ? 'vv.anyhit.ignore' : 'vv.anyhit.terminate');
    b.setInsertPoint(test);
    const is = b.emit('compare', { kind: 'eq', a: k, b: b.constU32(EXIT_KIND[op]) }, b.t.bool);
    b.emitVoid('condBranch', { cond: is, ifTrue: leave, ifFalse: next });
    findBlockOf(fn, test).merge = { kind: 'selection', merge: next };
    b.setInsertPoint(leave);
    b.emitVoid(op, {});
    layout.push(test, leave);
  });
  b.setInsertPoint(retBlock);
  b.emitVoid('return', {});
  layout.push(retBlock);
  // Layout: each test, then the block that leaves, then the next test (its merge); the return last.
  const moved = layout.map((id) => fn.blocks.splice(fn.blocks.findIndex((x) => x.id === id), 1)[0]!);
  fn.blocks.push(...moved);
  // An exit inside a loop breaks to the innermost loop's merge, which then leaves for the next
  // loop's merge out, and so on to the exit block (SPIR-V's breaks leave one loop at a time).
  const loops = loopsOf(fn);
  const innermost = (block: BlockId) => loops.find((l) => l.body.has(block));
  const checked = new Set<BlockId>();
  const check = (l: Loop): void => {
    if (checked.has(l.merge)) return;
    checked.add(l.merge);
    const outer = innermost(l.merge);
    const target = outer ? outer.merge : exitBlock;
    if (outer) check(outer);
    b.setInsertPoint(l.merge, firstNonPhiIndex(findBlockOf(fn, l.merge)));
    b.loc = { ...loc };
    const kk = b.emit('load', { ptr: kindVar }, u32);
    const leaving = b.emit('compare', { kind: 'ne', a: kk, b: b.constU32(0) }, b.t.bool);
    openIfThen(b, leaving, 'vv.anyhit.leaving');
    b.emitVoid('branch', { target });
  };
  for (const e of exits) {
    const found = findInst(fn, e.inst.id)!;
    const old = found.inst;
    const loop = innermost(e.block);
    const code = loop && old.op === 'return' ? RETURN_IN_LOOP : EXIT_KIND[old.op as ExitOp];
    // Same id on the branch: probes placed "before" the old terminator still name this point.
    found.block.insts[found.index] = { op: 'branch', target: loop ? loop.merge : exitBlock, id: old.id, type: old.type, loc: old.loc };
    if (code !== EXIT_KIND.return) {
      b.setInsertBefore(old.id);
      b.emitVoid('store', { ptr: kindVar, value: b.constU32(code) }, old.loc);
    }
    if (loop) check(loop);
  }
}

function findBlockOf(fn: Function, id: BlockId) {
  const block = fn.blocks.find((x) => x.id === id);
  if (!block) throw new Error(`block ^b${id} not found in @${fn.name}`);
  return block;
}
