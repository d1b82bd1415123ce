/**
 * Deep expressions without a deep JavaScript stack (issue 14). `genExpr` recurses per nesting
 * level; a machine-generated expression thousands of levels deep (a 2,000-arm `?:` chain,
 * `max(max(max(...)))`) would overflow it. Before such an expression is generated, its
 * side-effect-free subtrees are generated bottom-up, every HOIST_HEIGHT levels, from an explicit
 * work stack; `genExpr` then finds their values ready (`IrGenContext.hoisted`) and never recurses
 * more than HOIST_HEIGHT levels below one.
 *
 * Evaluating a pure subtree early (before its siblings, or outside the `?:` arm or `&&` operand
 * that guards it) cannot be observed: it has no side effects, no side effect of the expression
 * comes before it, GLSL arithmetic does not trap, and its value is defined in a block that
 * dominates the use. Subtrees with side effects
 * (assignments, `++`, user functions, atomics, subgroup operations, ray tracing calls, ...) are
 * hoisted only where they are evaluated first anyway (`evaluatedFirst`); elsewhere a nesting of
 * thousands of them still ends in the located "nested too deeply" error.
 */
import type { Expr } from '../ast.js';
import type { IrGenContext } from './context.js';
import { exprChildren, postOrder } from '../expr-walk.js';

/** Expression height below which `genExpr` simply recurses (all hand-written expressions). */
export const HOIST_HEIGHT = 48;

/** Built-ins whose result depends on more than their arguments, or that write (out parameters included). */
const IMPURE_BUILTIN = /^(modf|frexp|uaddCarry|usubBorrow|umulExtended|imulExtended|atomic|image(Store|Atomic)|traceRay|executeCallable|reportIntersection|debugPrintf|barrier|memoryBarrier|groupMemoryBarrier|controlBarrier|subgroup|rayQuery|clock|readClock|ignoreIntersection|terminateRay|EmitVertex|EndPrimitive)/;

/** Can this node be generated on its own with `genExpr`, and has it no side effects of its own? */
function pureNode(cx: IrGenContext, e: Expr): boolean {
  switch (e.kind) {
    case 'assign': return false;
    case 'unary': return e.op !== 'pre++' && e.op !== 'pre--' && e.op !== 'post++' && e.op !== 'post--';
    case 'call': return !cx.scope.functions.has(e.callee) && !IMPURE_BUILTIN.test(e.callee);
    default: return true;
  }
}

/**
 * Is `child` evaluated for its value by `parent` (so `genExpr` gives it), rather than as an
 * l-value or an opaque handle? Value operators take values; an index takes its index by value.
 */
function byValue(parent: Expr | undefined, child: Expr): boolean {
  if (child.kind === 'binary' || child.kind === 'unary' || child.kind === 'ternary' || child.kind === 'call') return true;
  if (child.kind !== 'index' && child.kind !== 'member') return false;
  if (parent === undefined) return false;
  if (parent.kind === 'index') return parent.index === child;
  return parent.kind === 'binary' || parent.kind === 'ternary' || (parent.kind === 'unary' && !parent.op.endsWith('++') && !parent.op.endsWith('--'));
}

/**
 * Generates the pure subtrees of a deep `e` bottom-up into `cx.hoisted`, so that generating `e`
 * afterwards recurses at most about HOIST_HEIGHT levels below any node. Post-order, so a hoisted
 * subtree's own deep parts are ready before it. A subtree is hoisted only if no side effect is
 * evaluated before it in `e` (post-order is evaluation order): moving it first then cannot change
 * what it reads.
 */
export function hoistDeepSubexpressions(cx: IrGenContext, e: Expr, gen: (e: Expr) => unknown): void {
  const first = evaluatedFirst(e);
  let effectBefore = false;
  postOrder<{ height: number; pure: boolean }>(e, (node, kids, parent) => {
    let height = 1;
    let pure = pureNode(cx, node);
    for (const k of kids) {
      height = Math.max(height, k.height + 1);
      pure &&= k.pure;
    }
    if (!pureNode(cx, node)) effectBefore = true;
    if (height >= HOIST_HEIGHT && node !== e && byValue(parent, node) && ((pure && !effectBefore) || first.has(node))) {
      gen(node);
      height = 1;
    }
    return { height, pure };
  });
}

/**
 * The nodes of `e` whose evaluation starts `e`'s (nothing outside their subtree comes before
 * them): the first operand, argument or condition, down from the root, and through `x = ...` to
 * a plain variable (naming it reads and writes nothing). Generating such a node first moves
 * nothing past it, so it may be hoisted even with side effects (`f(f(f(...)))` of a user function).
 */
function evaluatedFirst(e: Expr): Set<Expr> {
  const first = new Set<Expr>();
  let n: Expr | undefined = e;
  while (n !== undefined) {
    first.add(n);
    if (n.kind === 'assign') n = n.op === '=' && n.target.kind === 'ident' ? n.value : undefined;
    else n = exprChildren(n)[0];
  }
  return first;
}
