/**
 * Walking expression trees without recursion (issue 14: machine-generated expressions are
 * thousands of levels deep). Children are listed in evaluation order.
 */
import type { Expr } from './ast.js';

export function exprChildren(e: Expr): Expr[] {
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
    for (const c of exprChildren(x)) work.push({ e: c, d: d + 1 });
  }
  return max;
}

/**
 * Visits `e`'s nodes in post-order (children first, in evaluation order) with an explicit stack.
 * `visit` gets each node with the results of its children and returns the node's result.
 */
export function postOrder<T>(e: Expr, visit: (node: Expr, kids: T[], parent: Expr | undefined) => T): T {
  const work: { e: Expr; parent: Expr | undefined; results: T[] | undefined }[] = [{ e, parent: undefined, results: undefined }];
  const done: T[] = [];
  while (work.length > 0) {
    const top = work[work.length - 1]!;
    const kids = exprChildren(top.e);
    if (top.results === undefined) {
      top.results = [];
      for (let i = kids.length - 1; i >= 0; i--) work.push({ e: kids[i]!, parent: top.e, results: undefined });
      continue;
    }
    work.pop();
    const mine = done.splice(done.length - kids.length, kids.length);
    done.push(visit(top.e, mine, top.parent));
  }
  return done[0]!;
}
