/**
 * Function-call expressions: constructors (by type name or array type), user functions with GLSL
 * overload resolution and in/out/inout parameter passing, and built-ins (delegated by name).
 *
 * Parameter passing follows glslang: `in` arguments by value; `out`/`inout` through a temporary
 * function-storage variable (copy-in for inout, copy-out after the call), so the callee always
 * receives a `ptr<function, T>` whatever memory the argument lives in.
 */
import type { Expr } from '../ast.js';
import type { Loc, ValueId } from '../../../ir/inst.js';
import type { TypeId } from '../../../ir/types.js';
import { resolveOverload, type Candidate } from '../sema/conversions.js';
import type { FunctionSymbol } from '../sema/scope.js';
import { typeNameFeature } from '../sema/extensions.js';
import { applyArrayDims, resolveBaseType } from '../sema/type-resolution.js';
import { checkWritable, genRef, loadRef, lvalueType, refType, storeLValue, type Ref } from './access.js';
import { genBuiltinCall, isBuiltinFunction } from './builtin-calls.js';
import { construct } from './constructors.js';
import type { IrGenContext, Val } from './context.js';
import { declaredType } from '../sema/layout.js';
import { coerce, convertTo } from './value-conversion.js';
import { genExpr } from './expressions.js';

export function genCall(cx: IrGenContext, e: Extract<Expr, { kind: 'call' }>): Val {
  const types = cx.types;
  if (e.calleeType && e.calleeType.arrayDims.length > 0) {
    const base = resolveBaseType(cx, e.calleeType);
    const t = base !== undefined ? applyArrayDims(cx, base, e.calleeType.arrayDims) : undefined;
    if (t === undefined) return cx.fail(e.loc, `unknown type '${e.calleeType.name}'`);
    return construct(cx, t, e.args.map((a) => genExpr(cx, a)), e.loc);
  }
  const userFns = cx.scope.functions.get(e.callee);
  const ctorType = userFns ? undefined : cx.scope.lookupType(e.callee) ?? types.resolveName(e.callee);
  if (ctorType !== undefined) {
    if (types.isVoid(ctorType)) return cx.fail(e.loc, "'void' cannot be constructed");
    const feature = typeNameFeature(e.callee);
    if (feature) cx.requireFeature(feature, e.loc, e.callee);
    return construct(cx, ctorType, e.args.map((a) => genExpr(cx, a)), e.loc);
  }
  if (userFns) return genUserCall(cx, e.callee, userFns, e.args, e.loc);
  if (isBuiltinFunction(e.callee)) return genBuiltinCall(cx, e.callee, e.args, e.loc);
  if (/^imageAtomic/.test(e.callee)) {
    return cx.fail(e.loc, `'${e.callee}' is not supported yet: the IR has no image texel pointer; use a storage buffer atomic`);
  }
  const sym = cx.scope.lookup(e.callee);
  if (sym) return cx.fail(e.loc, `'${e.callee}' is a variable, not a function`);
  return cx.fail(e.loc, `undeclared function '${e.callee}'`);
}

export function signatureText(cx: IrGenContext, f: FunctionSymbol): string {
  const ps = f.params.map((p) => `${p.qualifier === 'in' ? '' : p.qualifier + ' '}${cx.types.name(p.type)}`);
  return `${cx.types.name(f.returnType)} ${f.name}(${ps.join(', ')})`;
}

function argList(cx: IrGenContext, name: string, types: TypeId[]): string {
  return `${name}(${types.map((t) => cx.types.name(t)).join(', ')})`;
}

function genUserCall(cx: IrGenContext, name: string, fns: FunctionSymbol[], argExprs: Expr[], loc: Loc): Val {
  const types = cx.types;
  const refs: Ref[] = argExprs.map((a) => genRef(cx, a));
  // Laid-out buffer copies of a struct match parameters of the declared struct.
  const argTypes = refs.map((r) => declaredType(types, cx.layouts, refType(cx, r)));
  const candidates: Candidate<FunctionSymbol>[] = fns.map((f) => ({
    params: f.params.map((p) => p.type),
    outParams: f.params.map((p) => p.qualifier !== 'in'),
    item: f,
  }));
  const res = resolveOverload(types, argTypes, candidates);
  // A user function may overload a built-in name; the built-in overloads stay callable.
  if (res.kind === 'none' && isBuiltinFunction(name)) return genBuiltinCall(cx, name, argExprs, loc, refs);
  if (res.kind !== 'ok') {
    const counts = new Set(fns.map((f) => f.params.length));
    if (!counts.has(argTypes.length)) {
      const expected = [...counts].sort().join(' or ');
      cx.fail(loc, `wrong number of arguments to '${name}': expected ${expected}, found ${argTypes.length}`);
    }
    const cands = fns.map((f) => '  ' + signatureText(cx, f)).join('\n');
    const what = res.kind === 'none' ? 'no matching overload for' : 'ambiguous call to';
    cx.fail(loc, `${what} '${argList(cx, name, argTypes)}'; candidates are:\n${cands}`);
  }
  const f = res.item;
  const args: ValueId[] = [];
  const writeBacks: { tmp: ValueId; ref: Ref; type: TypeId }[] = [];
  f.params.forEach((p, i) => {
    const r = refs[i]!;
    const argLoc = argExprs[i]!.loc;
    if (p.qualifier === 'in') {
      args.push(coerce(cx, loadRef(cx, r, argLoc), p.type, argLoc, ` for argument ${i + 1} of '${name}'`).id);
      return;
    }
    if (r.kind !== 'lv') cx.fail(argLoc, `argument ${i + 1} of '${name}' is an ${p.qualifier} parameter and needs an l-value`);
    checkWritable(cx, r.lv, argLoc, `passing as ${p.qualifier} argument`);
    const tmp = cx.fnb.variable(types.pointer('function', p.type), argLoc);
    if (p.qualifier === 'inout') {
      const cur = coerce(cx, loadRef(cx, r, argLoc), p.type, argLoc);
      cx.emit({ op: 'store', ptr: tmp, value: cur.id }, types.void, argLoc);
    }
    args.push(tmp);
    writeBacks.push({ tmp, ref: r, type: p.type });
  });
  const id = cx.emit({ op: 'call', callee: f.id, args }, f.returnType, loc);
  for (const w of writeBacks) {
    if (w.ref.kind !== 'lv') continue;
    const v = cx.emit({ op: 'load', ptr: w.tmp }, w.type, loc);
    const target = lvalueType(cx, w.ref.lv);
    storeLValue(cx, w.ref.lv, convertTo(cx, { id: v, type: w.type }, target, loc), loc);
  }
  return { id, type: f.returnType };
}

