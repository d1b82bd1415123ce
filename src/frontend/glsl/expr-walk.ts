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

/**
 * Is `e` more than `limit` levels high (a leaf is 1)? Without recursion or allocation per node
 * (it runs on every outermost expression): stops at the first path that is.
 */
export function higherThan(e: Expr, limit: number): boolean {
  heightTop = 0;
  pushHeight(e, 1);
  while (heightTop > 0) {
    const x = heightNodes[--heightTop]!;
    const d = heightDepths[heightTop]! + 1;
    if (d > limit + 1) {
      heightNodes.length = 0;
      return true;
    }
    switch (x.kind) {
      case 'binary': pushHeight(x.left, d); pushHeight(x.right, d); break;
      case 'unary': pushHeight(x.operand, d); break;
      case 'assign': pushHeight(x.target, d); pushHeight(x.value, d); break;
      case 'ternary': pushHeight(x.cond, d); pushHeight(x.then, d); pushHeight(x.else, d); break;
      case 'member': case 'lengthOf': pushHeight(x.object, d); break;
      case 'index': pushHeight(x.object, d); pushHeight(x.index, d); break;
      case 'comma': for (const c of x.exprs) pushHeight(c, d); break;
      case 'call': for (const c of x.args) pushHeight(c, d); break;
      case 'initList': for (const c of x.items) pushHeight(c, d); break;
      default: break;
    }
  }
  return false;
}
const heightNodes: Expr[] = [];
const heightDepths: number[] = [];
let heightTop = 0;
function pushHeight(e: Expr, depth: number): void {
  heightNodes[heightTop] = e;
  heightDepths[heightTop++] = depth;
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
