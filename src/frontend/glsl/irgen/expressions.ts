/**
 * Expressions to IR: literals, operators with GLSL 4.60 typing (implicit conversions, scalar/vector
 * mixing, linear-algebra `*`), assignment and compound assignment, ++/--, comma, `.length()`, and
 * short-circuiting `&&`, `||`, `?:`.
 *
 * Short-circuit shape follows glslang: a selection header branching to the right-hand side and a
 * phi in the merge block, unless the right-hand side is a side-effect-free simple expression, in
 * which case both sides are evaluated and combined with `and`/`or`/`select`.
 */
import type { Expr } from '../ast.js';
import type { BinaryOp, CompareOp, Loc, ValueId } from '../../../ir/inst.js';
import type { TypeId } from '../../../ir/types.js';
import { commonScalar } from '../sema/conversions.js';
import { foldBinary, parseFloatLiteral, parseIntLiteral, scalarConst, type ConstValue } from '../sema/const-eval.js';
import { checkWritable, genRef, loadLValue, loadRef, lvalueType, pointerOf, storeLValue, type LValue } from './access.js';
import { genCall } from './calls.js';
import { hoistDeepSubexpressions, HOIST_HEIGHT } from './deep-expressions.js';
import { higherThan } from '../expr-walk.js';
import type { IrGenContext, Val } from './context.js';
import { coerce, convertTo, splat } from './value-conversion.js';

export function genExpr(cx: IrGenContext, e: Expr): Val {
  if (cx.hoisted.size > 0) {
    const ready = cx.hoisted.get(e);
    if (ready !== undefined) return ready;
  }
  if (cx.exprDepth > 0 || e.kind === 'ident' || e.kind === 'intLit' || e.kind === 'floatLit' || e.kind === 'boolLit') return genExprNode(cx, e);
  // An outermost expression: a deep one gets its pure subtrees generated ahead, bottom-up.
  cx.exprDepth++;
  try {
    if (higherThan(e, HOIST_HEIGHT)) {
      hoistDeepSubexpressions(cx, e, (x) => cx.hoisted.set(x, genExprNode(cx, x)));
    }
    return genExprNode(cx, e);
  } finally {
    cx.exprDepth--;
    cx.hoisted.clear();
  }
}

function genExprNode(cx: IrGenContext, e: Expr): Val {
  switch (e.kind) {
    case 'intLit': {
      const lit = parseIntLiteral(e.text);
      if (!lit) return cx.fail(e.loc, `invalid or too large integer literal '${e.text}'`);
      const type = cx.types.scalar(lit.kind);
      if (lit.kind === 'int64' || lit.kind === 'uint64') cx.requireFeature('int64', e.loc, `64-bit integer literal ${e.text}`);
      return cx.constVal(scalarConst(cx.types, type, lit.value));
    }
    case 'floatLit': {
      const lit = parseFloatLiteral(e.text);
      if (!lit) return cx.fail(e.loc, `invalid floating-point literal '${e.text}'`);
      if (lit.kind === 'float16') cx.requireFeature('float16', e.loc, `float16_t literal ${e.text}`);
      return cx.constVal(scalarConst(cx.types, cx.types.scalar(lit.kind), lit.value));
    }
    case 'boolLit':
      return cx.constVal({ type: cx.types.bool, scalar: e.value });
    case 'stringLit':
      return cx.fail(e.loc, 'string literals are only allowed as the format argument of debugPrintfEXT');
    case 'ident':
    case 'member':
    case 'index':
      return loadRef(cx, genRef(cx, e), e.loc);
    case 'binary': {
      if (e.op === '&&' || e.op === '||') return genLogical(cx, e.op, e.left, e.right, e.loc);
      // Down the left spine of a left-associative chain iteratively (generated shaders hold
      // 20,000-term sums): only right operands recurse. Evaluation order is unchanged. The walk
      // stops at a subtree generated ahead (deep-expressions.ts hoists one every HOIST_HEIGHT
      // levels of the spine): walking past it would generate the spine below it again, once per
      // hoisted node, which made an n-term sum cost O(n^2 / HOIST_HEIGHT) instructions.
      const spine: Extract<Expr, { kind: 'binary' }>[] = [e];
      let base = e.left;
      while (base.kind === 'binary' && base.op !== '&&' && base.op !== '||' && !cx.hoisted.has(base)) {
        spine.push(base);
        base = base.left;
      }
      let acc = genExpr(cx, base);
      for (let i = spine.length - 1; i >= 0; i--) {
        const b = spine[i]!;
        acc = binaryOp(cx, b.op, acc, genExpr(cx, b.right), b.loc);
      }
      return acc;
    }
    case 'unary':
      return genUnary(cx, e.op, e.operand, e.loc);
    case 'assign':
      return genAssign(cx, e);
    case 'ternary':
      return genTernary(cx, e.cond, e.then, e.else, e.loc);
    case 'comma': {
      let last: Val | undefined;
      for (const x of e.exprs) last = genExpr(cx, x);
      return last!;
    }
    case 'call':
      return genCall(cx, e);
    case 'lengthOf':
      return genLength(cx, e.object, e.loc);
    case 'initList':
      return cx.fail(e.loc, 'an initializer list is only allowed as the initializer of a declaration');
    default:
      throw new Error(`unknown expression kind '${(e as { kind: string }).kind}'`);
  }
}

/** A boolean scalar condition (if/while/for/?:), reported with `what` otherwise. */
export function genCondition(cx: IrGenContext, e: Expr, what: string): Val {
  const v = genExpr(cx, e);
  if (v.type !== cx.types.bool) cx.fail(e.loc, `${what} must be a scalar boolean expression, found '${cx.types.name(v.type)}'`);
  return v;
}

function cannotApply(cx: IrGenContext, op: string, a: TypeId, b: TypeId, loc: Loc): never {
  return cx.fail(loc, `cannot apply '${op}' to '${cx.types.name(a)}' and '${cx.types.name(b)}'`);
}

const ARITH: Record<string, BinaryOp> = {
  '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'rem', '<<': 'shl', '>>': 'shr', '&': 'and', '|': 'or', '^': 'xor',
};
const COMPARE: Record<string, CompareOp> = { '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '==': 'eq', '!=': 'ne' };

/** `a op b` for every non-short-circuit binary operator. */
export function binaryOp(cx: IrGenContext, op: string, a: Val, b: Val, loc: Loc): Val {
  const types = cx.types;
  const bool = types.bool;
  if (op === '==' || op === '!=') {
    const s = types.isScalarOrVector(a.type) || types.isMatrix(a.type) ? commonScalar(types, a.type, b.type) : undefined;
    let x = a;
    let y = b;
    if (s !== undefined) {
      x = convertTo(cx, a, types.withScalar(a.type, s), loc);
      y = convertTo(cx, b, types.withScalar(b.type, s), loc);
    }
    if (x.type !== y.type || types.isOpaque(x.type)) cannotApply(cx, op, a.type, b.type, loc);
    if (x.constValue && y.constValue) {
      const f = foldBinary(types, op, x.constValue, y.constValue);
      if (f) return cx.constVal(f);
    }
    const eq = equalValues(cx, x, y, op === '==' ? 'eq' : 'ne', loc);
    return eq;
  }
  if (op === '<' || op === '<=' || op === '>' || op === '>=') {
    if (!types.isScalar(a.type) || !types.isScalar(b.type) || types.isBoolKind(a.type) || types.isBoolKind(b.type)) cannotApply(cx, op, a.type, b.type, loc);
    const s = commonScalar(types, a.type, b.type);
    if (s === undefined) cannotApply(cx, op, a.type, b.type, loc);
    const x = convertTo(cx, a, s, loc);
    const y = convertTo(cx, b, s, loc);
    if (x.constValue && y.constValue) {
      const f = foldBinary(types, op, x.constValue, y.constValue);
      if (f) return cx.constVal(f);
    }
    return { id: cx.emit({ op: 'compare', kind: COMPARE[op]!, a: x.id, b: y.id }, bool, loc), type: bool };
  }
  if (op === '^^' || op === '&&' || op === '||') {
    if (a.type !== bool || b.type !== bool) cannotApply(cx, op, a.type, b.type, loc);
    if (op === '^^') return { id: cx.emit({ op: 'compare', kind: 'ne', a: a.id, b: b.id }, bool, loc), type: bool };
    return { id: cx.emit({ op: 'binary', kind: op === '&&' ? 'and' : 'or', a: a.id, b: b.id }, bool, loc), type: bool };
  }
  const kind = ARITH[op];
  if (!kind) return cx.fail(loc, `unknown operator '${op}'`);
  const numeric = (t: TypeId) => (types.isScalarOrVector(t) || types.isMatrix(t)) && !types.isBoolKind(t);
  if (!numeric(a.type) || !numeric(b.type)) cannotApply(cx, op, a.type, b.type, loc);
  const integerOnly = op === '%' || op === '<<' || op === '>>' || op === '&' || op === '|' || op === '^';
  if (integerOnly && (!types.isIntKind(a.type) || !types.isIntKind(b.type) || types.isMatrix(a.type) || types.isMatrix(b.type))) {
    cannotApply(cx, op, a.type, b.type, loc);
  }
  if (op === '<<' || op === '>>') {
    // The shift count keeps its own type; only the shape must agree (scalar counts apply to every component).
    const na = types.components(a.type);
    const nb = types.components(b.type);
    if (nb !== 1 && nb !== na) cannotApply(cx, op, a.type, b.type, loc);
    if (a.constValue && b.constValue) {
      const f = foldBinary(types, op, a.constValue, b.constValue);
      if (f) return cx.constVal(f);
    }
    const count = nb === 1 && na > 1 ? splat(cx, b, types.vectorOf(b.type, na), loc) : b;
    return { id: cx.emit({ op: 'binary', kind, a: a.id, b: count.id }, a.type, loc), type: a.type };
  }
  const s = commonScalar(types, a.type, b.type);
  if (s === undefined) cannotApply(cx, op, a.type, b.type, loc);
  const x = convertTo(cx, a, types.withScalar(a.type, s), loc);
  const y = convertTo(cx, b, types.withScalar(b.type, s), loc);
  if (types.isMatrix(x.type) || types.isMatrix(y.type)) return matrixArith(cx, op, kind, x, y, loc);
  const na = types.components(x.type);
  const nb = types.components(y.type);
  if (na !== nb && na !== 1 && nb !== 1) cannotApply(cx, op, a.type, b.type, loc);
  if (x.constValue && y.constValue) {
    const f = foldBinary(types, op, x.constValue, y.constValue);
    if (f) return cx.constVal(f);
  }
  if (na === nb) return { id: cx.emit({ op: 'binary', kind, a: x.id, b: y.id }, x.type, loc), type: x.type };
  const vecType = na > 1 ? x.type : y.type;
  if (op === '*' && types.isFloatKind(s)) {
    const [v, sc] = na > 1 ? [x, y] : [y, x];
    return { id: cx.emit({ op: 'binary', kind: 'vectorTimesScalar', a: v.id, b: sc.id }, vecType, loc), type: vecType };
  }
  const xx = na === 1 ? splat(cx, x, vecType, loc) : x;
  const yy = nb === 1 ? splat(cx, y, vecType, loc) : y;
  return { id: cx.emit({ op: 'binary', kind, a: xx.id, b: yy.id }, vecType, loc), type: vecType };
}

function matrixArith(cx: IrGenContext, op: string, kind: BinaryOp, x: Val, y: Val, loc: Loc): Val {
  const types = cx.types;
  const s = types.elementScalar(x.type);
  const mx = types.isMatrix(x.type);
  const my = types.isMatrix(y.type);
  if (op === '*') {
    if (mx && my) {
      const A = types.matrixShape(x.type);
      const B = types.matrixShape(y.type);
      if (A.columns !== B.rows) cannotApply(cx, op, x.type, y.type, loc);
      const t = types.matrixOf(s, B.columns, A.rows);
      return { id: cx.emit({ op: 'binary', kind: 'matrixTimesMatrix', a: x.id, b: y.id }, t, loc), type: t };
    }
    if (mx && types.isVector(y.type)) {
      const A = types.matrixShape(x.type);
      if (types.components(y.type) !== A.columns) cannotApply(cx, op, x.type, y.type, loc);
      const t = types.vectorOf(s, A.rows);
      return { id: cx.emit({ op: 'binary', kind: 'matrixTimesVector', a: x.id, b: y.id }, t, loc), type: t };
    }
    if (my && types.isVector(x.type)) {
      const B = types.matrixShape(y.type);
      if (types.components(x.type) !== B.rows) cannotApply(cx, op, x.type, y.type, loc);
      const t = types.vectorOf(s, B.columns);
      return { id: cx.emit({ op: 'binary', kind: 'vectorTimesMatrix', a: x.id, b: y.id }, t, loc), type: t };
    }
    const [m, sc] = mx ? [x, y] : [y, x];
    if (!types.isScalar(sc.type)) cannotApply(cx, op, x.type, y.type, loc);
    return { id: cx.emit({ op: 'binary', kind: 'matrixTimesScalar', a: m.id, b: sc.id }, m.type, loc), type: m.type };
  }
  // + - / : component-wise, column by column (SPIR-V has no matrix add).
  const mt = mx ? x.type : y.type;
  if (mx && my && x.type !== y.type) cannotApply(cx, op, x.type, y.type, loc);
  if (!(mx && my) && !types.isScalar(mx ? y.type : x.type)) cannotApply(cx, op, x.type, y.type, loc);
  const { columns } = types.matrixShape(mt);
  const col = types.matrixColumn(mt);
  const parts: ValueId[] = [];
  for (let c = 0; c < columns; c++) {
    const column = (v: Val): ValueId =>
      types.isMatrix(v.type) ? cx.emit({ op: 'extract', value: v.id, indices: [c] }, col, loc) : splat(cx, v, col, loc).id;
    parts.push(cx.emit({ op: 'binary', kind, a: column(x), b: column(y) }, col, loc));
  }
  return { id: cx.emit({ op: 'construct', parts }, mt, loc), type: mt };
}

/** Aggregate equality: component-wise compare reduced with all (==) / any (!=). */
function equalValues(cx: IrGenContext, a: Val, b: Val, kind: 'eq' | 'ne', loc: Loc): Val {
  const types = cx.types;
  const bool = types.bool;
  const t = types.get(a.type);
  if (types.isScalar(a.type)) return { id: cx.emit({ op: 'compare', kind, a: a.id, b: b.id }, bool, loc), type: bool };
  if (t.kind === 'vector') {
    const bt = types.vectorOf(bool, t.count);
    const c = cx.emit({ op: 'compare', kind, a: a.id, b: b.id }, bt, loc);
    return { id: cx.emit({ op: 'test', kind: kind === 'eq' ? 'all' : 'any', a: c }, bool, loc), type: bool };
  }
  const parts: { type: TypeId; i: number }[] = [];
  if (t.kind === 'matrix') for (let i = 0; i < t.columns; i++) parts.push({ type: t.column, i });
  else if (t.kind === 'array') for (let i = 0; i < t.length; i++) parts.push({ type: t.elem, i });
  else if (t.kind === 'struct') t.members.forEach((m, i) => parts.push({ type: m.type, i }));
  else return cx.fail(loc, `cannot compare values of type '${types.name(a.type)}'`);
  let acc: ValueId | undefined;
  for (const p of parts) {
    const x = cx.emit({ op: 'extract', value: a.id, indices: [p.i] }, p.type, loc);
    const y = cx.emit({ op: 'extract', value: b.id, indices: [p.i] }, p.type, loc);
    const r = equalValues(cx, { id: x, type: p.type }, { id: y, type: p.type }, kind, loc).id;
    acc = acc === undefined ? r : cx.emit({ op: 'binary', kind: kind === 'eq' ? 'and' : 'or', a: acc, b: r }, bool, loc);
  }
  return { id: acc!, type: bool };
}

/** Side-effect-free and cheap: evaluating it unconditionally is what glslang does too. */
export function isSimpleExpr(e: Expr, depth = 0): boolean {
  if (depth > 4) return false;
  switch (e.kind) {
    case 'intLit':
    case 'floatLit':
    case 'boolLit':
    case 'ident':
      return true;
    case 'member':
      return isSimpleExpr(e.object, depth + 1);
    case 'index':
      return isSimpleExpr(e.object, depth + 1) && (e.index.kind === 'intLit' || e.index.kind === 'ident');
    case 'unary':
      return (e.op === '-' || e.op === '!' || e.op === '+' || e.op === '~') && isSimpleExpr(e.operand, depth + 1);
    case 'binary':
      // Like glslang's isTrivial: comparisons and arithmetic of trivial operands (no division: it may trap on ints).
      return e.op !== '/' && e.op !== '%' && e.op !== '&&' && e.op !== '||' && isSimpleExpr(e.left, depth + 2) && isSimpleExpr(e.right, depth + 2);
    default:
      return false;
  }
}

function genLogical(cx: IrGenContext, op: '&&' | '||', left: Expr, right: Expr, loc: Loc): Val {
  const bool = cx.types.bool;
  const a = genExpr(cx, left);
  if (a.type !== bool) cannotApply(cx, op, a.type, a.type, loc);
  if (a.constValue && isSimpleExpr(right)) {
    if (op === '&&' ? a.constValue.scalar === false : a.constValue.scalar === true) return a;
  }
  if (isSimpleExpr(right)) return binaryOp(cx, op, a, genExpr(cx, right), loc);
  const fb = cx.fnb;
  const rhs = fb.newBlock(op === '&&' ? 'and.rhs' : 'or.rhs');
  const merge = fb.newBlock(op === '&&' ? 'and.end' : 'or.end');
  fb.setMerge({ kind: 'selection', merge: merge.id });
  const headerBlock = fb.current;
  fb.terminate(
    op === '&&' ? { op: 'condBranch', cond: a.id, ifTrue: rhs.id, ifFalse: merge.id } : { op: 'condBranch', cond: a.id, ifTrue: merge.id, ifFalse: rhs.id },
    cx.types.void, loc,
  );
  fb.setBlock(rhs);
  const b = genExpr(cx, right);
  if (b.type !== bool) cannotApply(cx, op, a.type, b.type, loc);
  const rhsEnd = fb.current;
  fb.branchTo(merge, cx.types.void, loc);
  const id = cx.emit({ op: 'phi', incoming: [{ value: a.id, block: headerBlock.id }, { value: b.id, block: rhsEnd.id }] }, bool, loc);
  return { id, type: bool };
}

/** The type both arms of `?:` convert to. */
function ternaryType(cx: IrGenContext, a: TypeId, b: TypeId, loc: Loc): TypeId {
  const types = cx.types;
  if (a === b) return a;
  if ((types.isScalarOrVector(a) || types.isMatrix(a)) && (types.isScalarOrVector(b) || types.isMatrix(b))) {
    const s = commonScalar(types, a, b);
    if (s !== undefined && types.withScalar(a, s) === types.withScalar(b, s)) return types.withScalar(a, s);
  }
  return cx.fail(loc, `the two results of '?:' have incompatible types '${types.name(a)}' and '${types.name(b)}'`);
}

function genTernary(cx: IrGenContext, condE: Expr, thenE: Expr, elseE: Expr, loc: Loc): Val {
  const types = cx.types;
  const cond = genCondition(cx, condE, "the condition of '?:'");
  if (isSimpleExpr(thenE) && isSimpleExpr(elseE)) {
    const a = genExpr(cx, thenE);
    const b = genExpr(cx, elseE);
    const t = ternaryType(cx, a.type, b.type, loc);
    if (types.isScalarOrVector(t)) {
      const x = convertTo(cx, a, t, loc);
      const y = convertTo(cx, b, t, loc);
      if (cond.constValue) return cond.constValue.scalar ? x : y;
      return { id: cx.emit({ op: 'select', cond: cond.id, a: x.id, b: y.id }, t, loc), type: t };
    }
  }
  const fb = cx.fnb;
  const thenB = fb.newBlock('cond.true');
  const elseB = fb.newBlock('cond.false');
  const merge = fb.newBlock('cond.end');
  fb.setMerge({ kind: 'selection', merge: merge.id });
  fb.terminate({ op: 'condBranch', cond: cond.id, ifTrue: thenB.id, ifFalse: elseB.id }, types.void, loc);
  fb.setBlock(thenB);
  const a0 = genExpr(cx, thenE);
  const thenEnd = fb.current;
  fb.setBlock(elseB);
  const b0 = genExpr(cx, elseE);
  if (types.isVoid(a0.type) && types.isVoid(b0.type)) {
    fb.branchTo(merge, types.void, loc);
    fb.setBlock(thenEnd);
    fb.branchTo(merge, types.void, loc);
    return a0;
  }
  const t = ternaryType(cx, a0.type, b0.type, loc);
  const b = convertTo(cx, b0, t, loc);
  const elseEnd = fb.current;
  fb.branchTo(merge, types.void, loc);
  fb.setBlock(thenEnd);
  const a = convertTo(cx, a0, t, loc);
  const thenEnd2 = fb.current;
  fb.branchTo(merge, types.void, loc);
  const id = cx.emit({ op: 'phi', incoming: [{ value: a.id, block: thenEnd2.id }, { value: b.id, block: elseEnd.id }] }, t, loc);
  return { id, type: t };
}

function requireLValue(cx: IrGenContext, e: Expr, what: string): LValue {
  const r = genRef(cx, e);
  if (r.kind !== 'lv') {
    const root = rootName(e);
    const sym = root !== undefined ? cx.scope.lookup(root) : undefined;
    if (sym?.kind === 'constant') return cx.fail(e.loc, `${what} to const variable '${root}'`);
    return cx.fail(e.loc, `${what} requires an l-value (a variable, member, element or swizzle)`);
  }
  checkWritable(cx, r.lv, e.loc, what);
  return r.lv;
}

/** The variable name an access expression starts from (`a` in `a.b[i].xy`). */
function rootName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'member' || e.kind === 'index') return rootName(e.object);
  return undefined;
}

/**
 * `a = b = c ...` and compound assignments. A chain of assignments (`x = y = x = ...` thousands
 * long in generated code) is walked iteratively, in the order a recursive walk would take: each
 * target (and, for compound operators, its current value) outermost first, then the innermost
 * value, then the stores innermost first.
 */
function genAssign(cx: IrGenContext, e: Extract<Expr, { kind: 'assign' }>): Val {
  const links: { e: Extract<Expr, { kind: 'assign' }>; lv: LValue; t: TypeId; current?: Val }[] = [];
  let x: Expr = e;
  while (x.kind === 'assign') {
    const lv = requireLValue(cx, x.target, 'assignment');
    const t = lvalueType(cx, lv);
    links.push(x.op === '=' ? { e: x, lv, t } : { e: x, lv, t, current: loadLValue(cx, lv, x.loc) });
    x = x.value;
  }
  const innermost = links[links.length - 1]!;
  let v = innermost.e.op === '=' ? genInitValue(cx, x, innermost.t) : genExpr(cx, x);
  for (let i = links.length - 1; i >= 0; i--) {
    const { e: a, lv, t, current } = links[i]!;
    if (current === undefined) v = coerce(cx, v, t, a.value.loc, ' in assignment');
    else v = coerce(cx, binaryOp(cx, a.op.slice(0, -1), current, v, a.loc), t, a.loc, ` in '${a.op}'`);
    storeLValue(cx, lv, v, a.loc);
  }
  return v;
}

/** Value for an initializer or right-hand side; `{...}` lists take their shape from `type`. */
export function genInitValue(cx: IrGenContext, e: Expr, type: TypeId): Val {
  if (e.kind !== 'initList') return genExpr(cx, e);
  const types = cx.types;
  const t = types.get(type);
  let memberTypes: TypeId[];
  if (t.kind === 'struct') memberTypes = t.members.map((m) => m.type);
  else if (t.kind === 'array') memberTypes = Array.from({ length: t.length }, () => t.elem);
  else if (t.kind === 'runtimeArray') memberTypes = e.items.map(() => t.elem);
  else if (t.kind === 'vector') memberTypes = Array.from({ length: t.count }, () => t.elem);
  else if (t.kind === 'matrix') memberTypes = Array.from({ length: t.columns }, () => t.column);
  else return cx.fail(e.loc, `an initializer list cannot initialize a '${types.name(type)}'`);
  if (memberTypes.length !== e.items.length) {
    cx.fail(e.loc, `initializer list has ${e.items.length} element(s) but '${types.name(type)}' needs ${memberTypes.length}`);
  }
  const vals = e.items.map((item, i) => coerce(cx, genInitValue(cx, item, memberTypes[i]!), memberTypes[i]!, item.loc));
  const rt = t.kind === 'runtimeArray' ? types.arrayOf(t.elem, e.items.length) : type;
  if (vals.every((v) => v.constValue)) return cx.constVal({ type: rt, parts: vals.map((v) => v.constValue!) });
  return { id: cx.emit({ op: 'construct', parts: vals.map((v) => v.id) }, rt, e.loc), type: rt };
}

function genUnary(cx: IrGenContext, op: string, operand: Expr, loc: Loc): Val {
  const types = cx.types;
  if (op === 'pre++' || op === 'pre--' || op === 'post++' || op === 'post--') {
    const lv = requireLValue(cx, operand, `'${op.slice(-2)}'`);
    const t = lvalueType(cx, lv);
    if (!types.isScalarOrVector(t) || types.isBoolKind(t)) cx.fail(loc, `cannot apply '${op.slice(-2)}' to '${types.name(t)}'`);
    const old = loadLValue(cx, lv, loc);
    const s = types.elementScalar(t);
    const one: Val = cx.constVal(types.isScalar(t) ? scalarConst(types, s, 1) : { type: t, parts: Array.from({ length: types.components(t) }, () => scalarConst(types, s, 1)) });
    const nv = { id: cx.emit({ op: 'binary', kind: op.endsWith('++') ? 'add' : 'sub', a: old.id, b: one.id }, t, loc), type: t };
    storeLValue(cx, lv, nv, loc);
    return op.startsWith('pre') ? nv : old;
  }
  const v = genExpr(cx, operand);
  const t = v.type;
  if (op === '+') {
    if (!types.isScalarOrVector(t) && !types.isMatrix(t)) cx.fail(loc, `cannot apply unary '+' to '${types.name(t)}'`);
    return v;
  }
  if (op === '-') {
    if ((!types.isScalarOrVector(t) && !types.isMatrix(t)) || types.isBoolKind(t)) cx.fail(loc, `cannot apply unary '-' to '${types.name(t)}'`);
    if (v.constValue && types.isScalarOrVector(t)) {
      const f = foldBinary(types, '-', zeroOf(cx, t), v.constValue);
      if (f) return cx.constVal(negZero(f, v.constValue));
    }
    if (types.isMatrix(t)) {
      const { columns } = types.matrixShape(t);
      const col = types.matrixColumn(t);
      const parts: ValueId[] = [];
      for (let c = 0; c < columns; c++) {
        const x = cx.emit({ op: 'extract', value: v.id, indices: [c] }, col, loc);
        parts.push(cx.emit({ op: 'unary', kind: 'neg', a: x }, col, loc));
      }
      return { id: cx.emit({ op: 'construct', parts }, t, loc), type: t };
    }
    return { id: cx.emit({ op: 'unary', kind: 'neg', a: v.id }, t, loc), type: t };
  }
  if (op === '!') {
    if (t !== types.bool) cx.fail(loc, `cannot apply '!' to '${types.name(t)}' (use not() for boolean vectors)`);
    if (v.constValue) return cx.constVal({ type: t, scalar: !v.constValue.scalar });
    return { id: cx.emit({ op: 'unary', kind: 'not', a: v.id }, t, loc), type: t };
  }
  if (op === '~') {
    if (!types.isScalarOrVector(t) || !types.isIntKind(t)) cx.fail(loc, `cannot apply '~' to '${types.name(t)}'`);
    return { id: cx.emit({ op: 'unary', kind: 'not', a: v.id }, t, loc), type: t };
  }
  return cx.fail(loc, `unknown unary operator '${op}'`);
}

function zeroOf(cx: IrGenContext, t: TypeId): ConstValue {
  const types = cx.types;
  const s = scalarConst(types, types.elementScalar(t), 0);
  return types.isScalar(t) ? s : { type: t, parts: Array.from({ length: types.components(t) }, () => s) };
}

/** -0.0 must stay -0.0 (0 - 0 would give +0). */
function negZero(folded: ConstValue, original: ConstValue): ConstValue {
  if (typeof original.scalar === 'number' && original.scalar === 0 && typeof folded.scalar === 'number' && !Number.isInteger(1 / original.scalar)) {
    return { ...folded, scalar: Object.is(original.scalar, 0) ? -0 : 0 };
  }
  return folded;
}

function genLength(cx: IrGenContext, object: Expr, loc: Loc): Val {
  const types = cx.types;
  const r = genRef(cx, object);
  const t = r.kind === 'lv' ? lvalueType(cx, r.lv) : r.val.type;
  const tt = types.get(t);
  if (tt.kind === 'array') return cx.intConst(tt.length);
  if (tt.kind === 'vector') return cx.intConst(tt.count);
  if (tt.kind === 'matrix') return cx.intConst(tt.columns);
  if (tt.kind === 'runtimeArray') {
    if (r.kind !== 'lv' || r.lv.indices.length === 0) return cx.fail(loc, '.length() of a descriptor array is not supported');
    const lv = r.lv;
    const last = lv.indices[lv.indices.length - 1]!;
    const member = Number(last.constValue?.scalar);
    const blockPtr = pointerOf(cx, { ...lv, indices: lv.indices.slice(0, -1), type: blockTypeOf(cx, lv) }, loc);
    const n = cx.emit({ op: 'arrayLength', ptr: blockPtr, member }, types.uint, loc);
    return { id: cx.emit({ op: 'convert', value: n }, types.int, loc), type: types.int };
  }
  return cx.fail(loc, `.length() is not defined on '${types.name(t)}'`);
}

/** The struct type that contains the runtime array designated by `lv` (its chain minus the last index). */
function blockTypeOf(cx: IrGenContext, lv: LValue): TypeId {
  const types = cx.types;
  let t = lv.root;
  for (const idx of lv.indices.slice(0, -1)) {
    const tt = types.get(t);
    if (tt.kind === 'struct') t = tt.members[Number(idx.constValue?.scalar)]!.type;
    else t = types.indexedType(t)!;
  }
  return t;
}
