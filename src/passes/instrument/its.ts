/**
 * The `its` utility (paper 003, Fig. 10-11): WarpUpdate(ballot) at the pipeline entry (raygen
 * entry) and at the pipeline exit. The pipeline must be left through ONE exit block so that a
 * warp that reconverges before leaving (SIMT stack) executes the exit probe exactly once and the
 * exit/entry ratio is 1.0; independent thread scheduling splits it into several executions.
 * So, when the raygen entry function has several returns, they are rewritten into branches to a
 * new exit block holding the probe and the only return (Fig. 10's "pre-Volta sync point").
 */
import { Builder, findInst } from '../../ir/builder.js';
import type { ValueId } from '../../ir/inst.js';
import type { Function } from '../../ir/module.js';
import type { InstrumentationSession, OriginalReturn } from './instrumentation-session.js';

/** The unified exit's return of each function already rewritten (a second `its` reuses it). */
const unifiedExits = new WeakMap<Function, ValueId>();

/** Rewrites every original return of `fn` into a branch to one new exit block; returns its `return`. */
function unifyReturns(s: InstrumentationSession, fn: Function, returns: readonly OriginalReturn[], final: OriginalReturn): ValueId {
  const done = unifiedExits.get(fn);
  if (done !== undefined) return done;
  const b = new Builder(s.m, fn);
  b.loc = { ...final.loc };
  const exit = b.createBlock('vv.pipeline.exit');
  b.setInsertPoint(exit);
  const ret = b.emitVoid('return', {});
  for (const r of returns) {
    const found = findInst(fn, r.id)!;
    const old = found.inst;
    // Same id: probes placed "before return k" by other utilities still name this point.
    found.block.insts[found.index] = { op: 'branch', target: exit, id: old.id, type: old.type, loc: old.loc };
  }
  unifiedExits.set(fn, ret);
  return ret;
}

export function instrumentIts(s: InstrumentationSession): void {
  for (const sh of s.shaders) {
    if (sh.entry.stage !== 'raygen') continue;
    const fn = sh.root;
    s.emit({ fn, point: { at: 'blockEntry', block: fn.blocks[0]!.id }, kind: 'pipelineEntry', primitive: 'WarpUpdate' });
    const returns = s.originalReturns(fn);
    if (returns.length === 0) continue;
    let final = returns[0]!;
    for (const r of returns) if (r.loc.line >= final.loc.line) final = r;
    const exitReturn = returns.length === 1 ? final.id : unifyReturns(s, fn, returns, final);
    s.emit({ fn, point: { at: 'before', inst: exitReturn }, kind: 'pipelineExit', primitive: 'WarpUpdate', block: final.block });
  }
}
