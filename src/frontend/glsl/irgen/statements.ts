/**
 * Statements to a structured CFG, in glslang's shapes:
 * - if: header `condBranch` with a selection merge; then/else blocks branch to the merge.
 * - for/while: pre -> header (loop merge, continue target) -> condition block -> body -> continue
 *   block (step) -> back edge to the header; `break` goes to the merge block.
 * - do-while: header -> body -> continue block evaluating the condition -> header or merge.
 * - switch: header `switch` with a selection merge; each case block falls through to the next
 *   unless it ends in `break`.
 * - return / ignoreIntersectionEXT / terminateRayEXT end the block; code after them is dropped.
 *
 * Errors inside one statement are reported and generation resumes with the next statement.
 */
import type { Attribute, Expr, Stmt, SwitchCase } from '../ast.js';
import type { Loc } from '../../../ir/inst.js';
import type { MergeInfo } from '../../../ir/module.js';
import { evalConst } from '../sema/const-eval.js';
import { constEnvOf, declareStructType } from '../sema/type-resolution.js';
import { STAGE_NAMES } from '../builtins/variables.js';
import { caughtErrorMessage } from '../diagnostics.js';
import { SemanticError, type IrGenContext } from './context.js';
import { genCondition, genExpr } from './expressions.js';
import { genLocalDecl } from './declarations.js';
import { coerce } from './value-conversion.js';

export function genStmt(cx: IrGenContext, s: Stmt): void {
  try {
    genStmtInner(cx, s);
  } catch (e) {
    if (e instanceof SemanticError) return;
    cx.error(s.loc, caughtErrorMessage(e));
  }
}

function genStmtInner(cx: IrGenContext, s: Stmt): void {
  const fb = cx.fnb;
  const v = cx.types.void;
  if ('attributes' in s) for (const a of s.attributes) cx.requireFeature('controlFlowAttributes', a.loc, `[[${a.name}]]`);
  switch (s.kind) {
    case 'compound':
      cx.scope.push();
      for (const x of s.body) genStmt(cx, x);
      cx.scope.pop();
      return;
    case 'declStmt':
      if (s.decl.kind === 'struct') declareStructType(cx, s.decl);
      else genLocalDecl(cx, s.decl);
      return;
    case 'exprStmt':
      if (s.expr.kind === 'ident' && (s.expr.name === 'ignoreIntersectionEXT' || s.expr.name === 'terminateRayEXT')) {
        genAnyHitJump(cx, s.expr.name === 'ignoreIntersectionEXT' ? 'ignoreIntersection' : 'terminateRay', s.loc);
        return;
      }
      genExpr(cx, s.expr);
      return;
    case 'empty':
      return;
    case 'if': {
      const cond = genCondition(cx, s.cond, "the condition of 'if'");
      const thenB = fb.newBlock('if.then');
      const elseB = s.else ? fb.newBlock('if.else') : undefined;
      const merge = fb.newBlock('if.end');
      fb.setMerge({ kind: 'selection', merge: merge.id });
      fb.terminate({ op: 'condBranch', cond: cond.id, ifTrue: thenB.id, ifFalse: (elseB ?? merge).id }, v, s.loc);
      fb.setBlock(thenB);
      genScoped(cx, s.then);
      fb.branchTo(merge, v, s.loc);
      if (elseB && s.else) {
        fb.setBlock(elseB);
        genScoped(cx, s.else);
        fb.branchTo(merge, v, s.loc);
      }
      fb.setBlock(merge);
      return;
    }
    case 'for':
    case 'while': {
      cx.scope.push();
      if (s.kind === 'for' && s.init) genStmt(cx, s.init);
      const header = fb.newBlock(`${s.kind}.header`);
      const condB = fb.newBlock(`${s.kind}.cond`);
      const body = fb.newBlock(`${s.kind}.body`);
      const cont = fb.newBlock(`${s.kind}.continue`);
      const merge = fb.newBlock(`${s.kind}.end`);
      fb.branchTo(header, v, s.loc);
      fb.setMerge(loopMerge(merge.id, cont.id, s.attributes));
      fb.branchTo(condB, v, s.loc);
      const condE: Expr | undefined = s.kind === 'for' ? s.cond : s.cond;
      if (condE) {
        const c = guarded(cx, () => genCondition(cx, condE, `the condition of '${s.kind}'`).id);
        if (c !== undefined) fb.terminate({ op: 'condBranch', cond: c, ifTrue: body.id, ifFalse: merge.id }, v, condE.loc);
        else fb.terminate({ op: 'branch', target: body.id }, v, s.loc);
      } else {
        fb.terminate({ op: 'branch', target: body.id }, v, s.loc);
      }
      fb.setBlock(body);
      fb.jumps.push({ breakTo: merge.id, continueTo: cont.id });
      genScoped(cx, s.body);
      fb.jumps.pop();
      fb.branchTo(cont, v, s.loc);
      if (s.kind === 'for' && s.step) {
        const step = s.step;
        guarded(cx, () => genExpr(cx, step));
      }
      fb.terminate({ op: 'branch', target: header.id }, v, s.loc);
      fb.setBlock(merge);
      cx.scope.pop();
      return;
    }
    case 'doWhile': {
      const header = fb.newBlock('do.header');
      const body = fb.newBlock('do.body');
      const cont = fb.newBlock('do.cond');
      const merge = fb.newBlock('do.end');
      fb.branchTo(header, v, s.loc);
      fb.setMerge(loopMerge(merge.id, cont.id, s.attributes));
      fb.branchTo(body, v, s.loc);
      fb.jumps.push({ breakTo: merge.id, continueTo: cont.id });
      genScoped(cx, s.body);
      fb.jumps.pop();
      fb.branchTo(cont, v, s.loc);
      const c = guarded(cx, () => genCondition(cx, s.cond, "the condition of 'do-while'").id);
      if (c !== undefined) fb.terminate({ op: 'condBranch', cond: c, ifTrue: header.id, ifFalse: merge.id }, v, s.cond.loc);
      else fb.terminate({ op: 'branch', target: merge.id }, v, s.loc);
      fb.setBlock(merge);
      return;
    }
    case 'switch':
      genSwitch(cx, s.selector, s.body, s.loc);
      return;
    case 'break': {
      const j = fb.jumps[fb.jumps.length - 1];
      if (!j) return cx.fail(s.loc, "'break' is only allowed inside a loop or switch");
      fb.terminate({ op: 'branch', target: j.breakTo }, v, s.loc);
      return;
    }
    case 'continue': {
      const j = [...fb.jumps].reverse().find((x) => x.continueTo !== undefined);
      if (!j) return cx.fail(s.loc, "'continue' is only allowed inside a loop");
      fb.terminate({ op: 'branch', target: j.continueTo! }, v, s.loc);
      return;
    }
    case 'return': {
      const rt = cx.returnType!;
      if (!s.value) {
        if (!cx.types.isVoid(rt)) cx.fail(s.loc, `'return' without a value in a function returning '${cx.types.name(rt)}'`);
        fb.terminate({ op: 'return' }, v, s.loc);
        return;
      }
      if (cx.types.isVoid(rt)) {
        fb.terminate({ op: 'return' }, v, s.loc);
        cx.fail(s.value.loc, 'a void function cannot return a value');
      }
      try {
        const r = coerce(cx, genExpr(cx, s.value), rt, s.value.loc, ' in return statement');
        fb.terminate({ op: 'return', value: r.id }, v, s.loc);
      } finally {
        // A bad return value still ends the path (no follow-up "missing return" warning).
        if (fb.isOpen) fb.terminate({ op: 'return', value: fb.emit({ op: 'undef' }, rt, s.loc) }, v, s.loc);
      }
      return;
    }
    case 'discard':
      return cx.fail(s.loc, `'discard' is not allowed in ${STAGE_NAMES[cx.stage]} shaders${cx.stage === 'anyHit' ? '; use ignoreIntersectionEXT' : ''}`);
    case 'ignoreIntersection':
    case 'terminateRay':
      genAnyHitJump(cx, s.kind, s.loc);
      return;
    default:
      throw new Error(`unknown statement kind '${(s as { kind: string }).kind}'`);
  }
}

function genAnyHitJump(cx: IrGenContext, kind: 'ignoreIntersection' | 'terminateRay', loc: Loc): void {
  const name = kind === 'ignoreIntersection' ? 'ignoreIntersectionEXT' : 'terminateRayEXT';
  cx.requireFeature('rayTracing', loc, name);
  if (cx.stage !== 'anyHit') cx.fail(loc, `'${name}' is only allowed in any-hit shaders, not in ${STAGE_NAMES[cx.stage]} shaders`);
  cx.fnb.terminate({ op: kind }, cx.types.void, loc);
}

/** The body of if/loops gets its own scope even when it is a single statement. */
function genScoped(cx: IrGenContext, s: Stmt): void {
  cx.scope.push();
  genStmt(cx, s);
  cx.scope.pop();
}

/** Runs `f`; a reported semantic error yields undefined instead of abandoning the statement. */
function guarded<T>(cx: IrGenContext, f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof SemanticError) return undefined;
    throw e;
  }
}

function loopMerge(merge: MergeInfo['merge'], cont: MergeInfo['merge'], attrs: Attribute[]): MergeInfo {
  const m: MergeInfo = { kind: 'loop', merge, continue: cont };
  if (attrs.some((a) => a.name === 'unroll')) m.unroll = 'unroll';
  if (attrs.some((a) => a.name === 'dont_unroll' || a.name === 'loop')) m.unroll = 'dontUnroll';
  return m;
}

function genSwitch(cx: IrGenContext, selectorE: Expr, cases: SwitchCase[], loc: Loc): void {
  const fb = cx.fnb;
  const types = cx.types;
  const v = types.void;
  const sel = genExpr(cx, selectorE);
  if (!types.isScalar(sel.type) || !types.isIntKind(sel.type)) cx.fail(selectorE.loc, `switch selector must be a scalar integer, found '${types.name(sel.type)}'`);
  const last = cases[cases.length - 1];
  if (last && last.body.length === 0) cx.error(loc, "the last case/default label of a switch must be followed by statements");
  const merge = fb.newBlock('switch.end');
  const blocks = cases.map(() => fb.newBlock('switch.case'));
  let defaultBlock = merge;
  const labels: { value: number; target: (typeof blocks)[number]['id'] }[] = [];
  const seen = new Set<number>();
  cases.forEach((c, i) => {
    for (const l of c.labels) {
      if (l === null) {
        if (defaultBlock !== merge) cx.error(c.loc, "multiple 'default' labels in one switch");
        defaultBlock = blocks[i]!;
        continue;
      }
      const cv = evalConst(constEnvOf(cx), l);
      if (cv?.scalar === undefined || typeof cv.scalar === 'boolean' || !types.isIntKind(cv.type)) {
        cx.error(l.loc, 'case label must be a constant integer expression');
        continue;
      }
      // Case labels take the selector's signedness (a negative label on a uint selector wraps).
      const value = types.isUnsignedInt(sel.type) ? Number(cv.scalar) >>> 0 : Number(cv.scalar) | 0;
      if (seen.has(value)) cx.error(l.loc, `duplicate case label ${value}`);
      seen.add(value);
      labels.push({ value, target: blocks[i]!.id });
    }
  });
  fb.setMerge({ kind: 'selection', merge: merge.id });
  fb.terminate({ op: 'switch', selector: sel.id, default: defaultBlock.id, cases: labels }, v, loc);
  fb.jumps.push({ breakTo: merge.id });
  cx.scope.push();
  cases.forEach((c, i) => {
    fb.setBlock(blocks[i]!);
    for (const st of c.body) genStmt(cx, st);
    // Fall through to the next case unless the case ended with break/return.
    fb.branchTo(blocks[i + 1] ?? merge, v, c.loc);
  });
  cx.scope.pop();
  fb.jumps.pop();
  fb.setBlock(merge);
}
