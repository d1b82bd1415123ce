/**
 * Deep expressions without a deep JavaScript stack (issue 14). `genExpr` recurses per nesting
 * level; a machine-generated expression thousands of levels deep (a 2,000-arm `?:` chain,
 * `max(max(max(...)))`) would overflow it. Before such an expression is generated, its
 * side-effect-free subtrees are generated bottom-up, every HOIST_HEIGHT levels, from an explicit
 * work stack; `genExpr` then finds their values ready (`IrGenContext.hoisted`) and never recurses
 * more than HOIST_HEIGHT levels below one.
 *
 * Evaluating a pure subtree early (before its siblings, or outside the `?:` arm or `&&` operand
 * that guards it) cannot be observed: it has no side effects, GLSL arithmetic does not trap, and
 * its value is defined in a block that dominates the use. Subtrees with side effects
 * (assignments, `++`, user functions, atomics, subgroup operations, ray tracing calls, ...) are
 * never hoisted; a chain of thousands of those still ends in the located "nested too deeply" error.
 */
import type { Expr } from '../ast.js';
import type { IrGenContext } from './context.js';

/** Expression height below which `genExpr` simply recurses (all hand-written expressions). */
export const HOIST_HEIGHT = 48;

/** Built-ins whose result depends on more than their arguments, or that write (out parameters included). */
const IMPURE_BUILTIN = /^(modf|frexp|uaddCarry|usubBorrow|umulExtended|imulExtended|atomic|image(Store|Atomic)|traceRay|executeCallable|reportIntersection|debugPrintf|barrier|memoryBarrier|groupMemoryBarrier|controlBarrier|subgroup|rayQuery|clock|readClock|ignoreIntersection|terminateRay|EmitVertex|EndPrimitive)/;

function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'binary': return [e.left, e.right];
    case 'unary': return [e.operand];
    case 'assign': return [e.target, e.value];
    case 'ternary': return [e.cond, e.then, e.else];
    case 'comma': return e.exprs;
    case 'member': return [e.object];
    case 'index': return [e.object, e.index];
    case 'call': return e.args;
    case 'lengthOf': return [e.object];
    case 'initList': return e.items;
    default: return [];
  }
}

/** Height of `e` (a leaf is 1), without recursion. */
export function exprHeight(e: Expr): number {
  let max = 0;
  const work: { e: Expr; d: number }[] = [{ e, d: 1 }];
  while (work.length > 0) {
    const { e: x, d } = work.pop()!;
    if (d > max) max = d;
    for (const c of children(x)) work.push({ e: c, d: d + 1 });
  }
  return max;
}

/** Can this node be generated on its own with `genExpr`, and has it no side effects of its own? */
function pureNode(cx: IrGenContext, e: Expr): boolean {
  switch (e.kind) {
    case 'assign': return false;
    case 'unary': return e.op !== 'pre++' && e.op !== 'pre--' && e.op !== 'post++' && e.op !== 'post--';
    case 'call': return !cx.scope.functions.has(e.callee) && !IMPURE_BUILTIN.test(e.callee);
    default: return true;
  }
}

/** Node kinds that are always evaluated for their value (never as an l-value or an opaque handle). */
function valueKind(e: Expr): boolean {
  return e.kind === 'binary' || e.kind === 'unary' || e.kind === 'ternary' || e.kind === 'call';
}

/**
 * Generates the pure subtrees of a deep `e` bottom-up into `cx.hoisted`, so that generating `e`
 * afterwards recurses at most about HOIST_HEIGHT levels below any node. Post-order, so a hoisted
 * subtree's own deep parts are ready before it.
 */
export function hoistDeepSubexpressions(cx: IrGenContext, e: Expr, gen: (e: Expr) => unknown): void {
  // Post-order with an explicit stack: height above the nearest hoisted descendant, and purity.
  const height = new Map<Expr, number>();
  const pure = new Map<Expr, boolean>();
  const work: { e: Expr; expanded: boolean }[] = [{ e, expanded: false }];
  while (work.length > 0) {
    const top = work[work.length - 1]!;
    const kids = children(top.e);
    if (!top.expanded) {
      top.expanded = true;
      for (let i = kids.length - 1; i >= 0; i--) work.push({ e: kids[i]!, expanded: false });
      continue;
    }
    work.pop();
    let h = 1;
    let p = pureNode(cx, top.e);
    for (const k of kids) {
      h = Math.max(h, height.get(k)! + 1);
      p &&= pure.get(k)!;
    }
    pure.set(top.e, p);
    if (p && h >= HOIST_HEIGHT && valueKind(top.e) && top.e !== e) {
      gen(top.e);
      h = 1;
    }
    height.set(top.e, h);
  }
}
