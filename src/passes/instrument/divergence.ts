/**
 * The `divergence` utility (paper 003, Fig. 13): per-block active masks plus the points that let
 * the analysis attribute every inactive slot to a cause:
 * - CreateWarpId at the raygen entry (maps the elected lane of every WarpUpdate to its warp);
 * - `shaderEntry` ballot at the entry block of every stage's entry function (lanes that called
 *   traceRay but are not active there: indirect-function-call divergence), `block` ballots at
 *   every other block (the instruction slots themselves);
 * - `earlyReturn` ballots before every raygen `return` except the final one (lanes that finished
 *   the pipeline early);
 * - `preTraceRay` / `postTraceRay` ballots around every traceRay (the call's start and end), and
 *   `preExecuteCallable` / `postExecuteCallable` around every executeCallable (the pipeline's
 *   other indirect function call: lanes calling different callables serialise the same way).
 *
 * The final return of the raygen entry function is the last one in source order (ties: layout
 * order): the one closing `main`.
 */
import type { Loc, ValueId } from '../../ir/inst.js';
import type { Function } from '../../ir/module.js';
import type { ProbeContext } from './probe-context.js';

/** Returns of `fn` other than the final one, in layout order. */
export function earlyReturns(fn: Function): ValueId[] {
  return earlyOf(fn.blocks.flatMap((b) => b.insts.filter((i) => i.op === 'return')));
}

/** The final return is the last in source order (ties: layout order); the others are early. */
function earlyOf(returns: readonly { id: ValueId; loc: Loc }[]): ValueId[] {
  if (returns.length <= 1) return [];
  let final = returns[0]!;
  for (const r of returns) {
    if (r.loc.line > final.loc.line || (r.loc.line === final.loc.line && r.loc.column >= final.loc.column)) final = r;
  }
  return returns.filter((r) => r !== final).map((r) => r.id);
}

export function instrumentDivergence(s: ProbeContext): void {
  for (const sh of s.shaders) {
    const raygen = sh.entry.stage === 'raygen';
    const traces = s.traceRays(sh);
    const callables = s.instsOf(sh, 'executeCallable');
    const early = raygen ? earlyOf(s.originalReturns(sh.root)) : [];
    if (raygen) {
      s.probe({ fn: sh.root, point: { at: 'blockEntry', block: sh.root.blocks[0]!.id }, kind: 'warpId', record: 'warpId' });
    }
    for (const fn of sh.functions) {
      s.originalBlocks(fn).forEach((block, k) => {
        const kind = fn === sh.root && k === 0 ? 'shaderEntry' : 'block';
        s.probe({ fn, point: { at: 'blockEntry', block }, kind, record: 'ballot' });
      });
    }
    for (const inst of early) s.probe({ fn: sh.root, point: { at: 'before', inst }, kind: 'earlyReturn', record: 'ballot' });
    traces.forEach(({ fn, inst }, k) => {
      s.probe({ fn, point: { at: 'before', inst }, kind: 'preTraceRay', record: 'ballot', traceRay: k });
      s.probe({ fn, point: { at: 'after', inst }, kind: 'postTraceRay', record: 'ballot', traceRay: k });
    });
    for (const { fn, inst } of callables) {
      s.probe({ fn, point: { at: 'before', inst }, kind: 'preExecuteCallable', record: 'ballot' });
      s.probe({ fn, point: { at: 'after', inst }, kind: 'postExecuteCallable', record: 'ballot' });
    }
  }
}
