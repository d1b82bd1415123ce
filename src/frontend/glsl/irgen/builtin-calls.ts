/**
 * Calls of built-in functions: overload resolution against the built-in table, argument passing
 * (by pointer for `out`/`inout` and atomics), stage checks, and lowering to IR instructions.
 *
 * Lowering notes: GLSL.std.450 functions need all operands of the result's shape, so scalar
 * arguments of vector overloads (`min(v, 0.0)`, `mix(a, b, t)`) are splatted, except refract's eta.
 * `traceRayEXT` / `executeCallableEXT` resolve their location argument to the payload / callable
 * data global declared with that location.
 */
import type { Expr } from '../ast.js';
import type { Loc, ValueId } from '../../../ir/inst.js';
import type { TypeId } from '../../../ir/types.js';
import { BUILTIN_FUNCTIONS, builtinFunctionFeature, builtinSignatures, type ExpandedSignature } from '../builtins/functions.js';
import { STAGE_NAMES, stageList } from '../builtins/variables.js';
import { resolveOverload, type Candidate } from '../sema/conversions.js';
import { evalConst } from '../sema/const-eval.js';
import { constEnvOf } from '../sema/type-resolution.js';
import { checkWritable, genRef, loadRef, pointerOf, refType, storeLValue, type Ref } from './access.js';
import type { IrGenContext, Val } from './context.js';
import { declaredType } from '../sema/layout.js';
import { genExpr } from './expressions.js';
import { genTextureCall, isTextureFunction } from './texture-calls.js';
import { coerce, splat } from './value-conversion.js';

export function isBuiltinFunction(name: string): boolean {
  return name in BUILTIN_FUNCTIONS || isTextureFunction(name) || name === 'debugPrintfEXT';
}

export function voidVal(cx: IrGenContext): Val {
  return { id: 0 as ValueId, type: cx.types.void };
}

const ATOMIC_STORAGE = new Set(['storageBuffer', 'workgroup', 'physicalStorageBuffer', 'shaderRecordBuffer']);

/** `refs`: the arguments when the caller already generated them (user overloads of a built-in name). */
export function genBuiltinCall(cx: IrGenContext, name: string, argExprs: Expr[], loc: Loc, preRefs?: Ref[]): Val {
  const types = cx.types;
  const feature = builtinFunctionFeature(name);
  if (feature) cx.requireFeature(feature, loc, name);
  if (name === 'debugPrintfEXT') return genDebugPrintf(cx, argExprs, loc);
  if (isTextureFunction(name)) {
    return genTextureCall(cx, name, preRefs ? preRefs.map((r, i) => loadRef(cx, r, argExprs[i]!.loc)) : argExprs.map((a) => genExpr(cx, a)), loc);
  }
  const f = BUILTIN_FUNCTIONS[name]!;
  if (f.stages && !f.stages.includes(cx.stage)) {
    cx.fail(loc, `'${name}' is not available in ${STAGE_NAMES[cx.stage]} shaders (only in ${stageList(f.stages)})`);
  }
  const refs: Ref[] = preRefs ?? argExprs.map((a) => genRef(cx, a));
  // Laid-out buffer copies of a struct match parameters of the declared struct.
  const argTypes = refs.map((r) => declaredType(types, cx.layouts, refType(cx, r)));
  const sigs = builtinSignatures(name);
  let candidates = cx.builtinCandidates.get(name) as Candidate<ExpandedSignature>[] | undefined;
  if (!candidates) {
    candidates = sigs.map((s) => ({ params: s.params.map((p) => cx.typeByName(p)), outParams: s.byRef, item: s }));
    cx.builtinCandidates.set(name, candidates);
  }
  const res = resolveOverload(types, argTypes, candidates);
  if (res.kind !== 'ok') {
    const counts = new Set(sigs.map((s) => s.params.length));
    const shown = sigs.slice(0, 12).map((s) => `  ${s.ret} ${name}(${s.params.map((p, i) => (s.byRef[i] ? 'inout ' : '') + p).join(', ')})`);
    if (sigs.length > 12) shown.push(`  ... (${sigs.length - 12} more)`);
    if (!counts.has(argTypes.length)) {
      cx.fail(loc, `wrong number of arguments to '${name}': expected ${[...counts].sort().join(' or ')}, found ${argTypes.length}`);
    }
    const args = argTypes.map((t) => types.name(t)).join(', ');
    const what = res.kind === 'ambiguous' ? 'ambiguous call to' : 'no matching overload for';
    cx.fail(loc, `${what} '${name}(${args})'; candidates are:\n${shown.join('\n')}`);
  }
  const sig = res.item;
  const ret = cx.typeByName(sig.ret);
  const lower = f.lower;
  if (lower.kind === 'atomic' && types.is64Bit(ret)) cx.requireFeature('atomicInt64', loc, `${name} on ${types.name(ret)}`);
  if (lower.kind === 'atomic' && types.isFloatKind(ret)) cx.requireFeature('atomicFloat', loc, `${name} on ${types.name(ret)}`);
  const args: Val[] = [];
  const copyOut: { tmp: ValueId; ref: Ref; type: TypeId }[] = [];
  sig.params.forEach((p, i) => {
    const r = refs[i]!;
    const argLoc = argExprs[i]!.loc;
    const pt = res.params[i]!;
    if (!sig.byRef[i]) {
      args.push(coerce(cx, loadRef(cx, r, argLoc), pt, argLoc, ` for argument ${i + 1} of '${name}'`));
      return;
    }
    if (r.kind !== 'lv') cx.fail(argLoc, `argument ${i + 1} of '${name}' must be an l-value`);
    if (lower.kind === 'atomic') {
      if (!ATOMIC_STORAGE.has(r.lv.storage)) cx.fail(argLoc, `the first argument of '${name}' must be in a buffer or shared memory`);
      if (r.lv.swizzle) cx.fail(argLoc, `the first argument of '${name}' cannot be a swizzle`);
      checkWritable(cx, r.lv, argLoc, `atomic operation '${name}'`);
      args.push({ id: pointerOf(cx, r.lv, argLoc), type: types.pointer(r.lv.storage, pt) });
      return;
    }
    checkWritable(cx, r.lv, argLoc, `passing as out argument`);
    const tmp = cx.fnb.variable(types.pointer('function', pt), argLoc);
    args.push({ id: tmp, type: types.pointer('function', pt) });
    copyOut.push({ tmp, ref: r, type: pt });
  });
  const result = lowerBuiltin(cx, name, lower, args, ret, loc);
  for (const c of copyOut) {
    if (c.ref.kind !== 'lv') continue;
    const v = cx.emit({ op: 'load', ptr: c.tmp }, c.type, loc);
    storeLValue(cx, c.ref.lv, { id: v, type: c.type }, loc);
  }
  return result;
}

/** Splats scalar arguments to the vector shape of `ret` (GLSL.std.450 operands share a shape). */
function shapeArgs(cx: IrGenContext, args: Val[], ret: TypeId, loc: Loc, keepScalar: (i: number) => boolean = () => false): ValueId[] {
  const types = cx.types;
  const n = types.components(ret);
  return args.map((a, i) => {
    if (n > 1 && types.isScalar(a.type) && !keepScalar(i)) return splat(cx, a, types.vectorOf(a.type, n), loc).id;
    return a.id;
  });
}

function lowerBuiltin(cx: IrGenContext, name: string, lower: (typeof BUILTIN_FUNCTIONS)[string]['lower'], args: Val[], ret: TypeId, loc: Loc): Val {
  const types = cx.types;
  const out = (id: ValueId): Val => ({ id, type: ret });
  switch (lower.kind) {
    case 'ext': {
      // unpack*(uint) returns a vector from one scalar: its argument is never splatted (GLSL.std.450
      // takes a 32-bit scalar there).
      const keep = (i: number) => (lower.fn === 'refract' && i === 2) || ((lower.fn === 'modf' || lower.fn === 'frexp') && i === 1)
        || lower.fn.startsWith('unpack');
      return out(cx.emit({ op: 'ext', fn: lower.fn, args: shapeArgs(cx, args, ret, loc, keep) }, ret, loc));
    }
    case 'atan':
      return out(cx.emit({ op: 'ext', fn: args.length === 2 ? 'atan2' : 'atan', args: args.map((a) => a.id) }, ret, loc));
    case 'binary': {
      if (lower.op === 'dot' && types.isScalar(args[0]!.type)) {
        return out(cx.emit({ op: 'binary', kind: 'mul', a: args[0]!.id, b: args[1]!.id }, ret, loc));
      }
      const ids = lower.op === 'mod' ? shapeArgs(cx, args, ret, loc) : args.map((a) => a.id);
      return out(cx.emit({ op: 'binary', kind: lower.op, a: ids[0]!, b: ids[1]! }, ret, loc));
    }
    case 'compare':
      return out(cx.emit({ op: 'compare', kind: lower.op, a: args[0]!.id, b: args[1]!.id }, ret, loc));
    case 'test':
      return out(cx.emit({ op: 'test', kind: lower.op, a: args[0]!.id }, ret, loc));
    case 'not':
      return out(cx.emit({ op: 'unary', kind: 'not', a: args[0]!.id }, ret, loc));
    case 'bits':
      return out(cx.emit({ op: 'bits', fn: lower.fn, args: args.map((a) => a.id) }, ret, loc));
    case 'bitcast':
      return out(cx.emit({ op: 'bitcast', value: args[0]!.id }, ret, loc));
    case 'mix': {
      if (types.isBoolKind(args[2]!.type)) {
        const ids = shapeArgs(cx, args, ret, loc);
        return out(cx.emit({ op: 'select', cond: ids[2]!, a: ids[1]!, b: ids[0]! }, ret, loc));
      }
      return out(cx.emit({ op: 'ext', fn: 'mix', args: shapeArgs(cx, args, ret, loc) }, ret, loc));
    }
    case 'matrixCompMult': {
      const { columns } = types.matrixShape(ret);
      const col = types.matrixColumn(ret);
      const parts: ValueId[] = [];
      for (let c = 0; c < columns; c++) {
        const a = cx.emit({ op: 'extract', value: args[0]!.id, indices: [c] }, col, loc);
        const b = cx.emit({ op: 'extract', value: args[1]!.id, indices: [c] }, col, loc);
        parts.push(cx.emit({ op: 'binary', kind: 'mul', a, b }, col, loc));
      }
      return out(cx.emit({ op: 'construct', parts }, ret, loc));
    }
    case 'transpose':
      return out(cx.emit({ op: 'unary', kind: 'transpose', a: args[0]!.id }, ret, loc));
    case 'subgroup': {
      const inst = { op: 'subgroup' as const, kind: lower.op, args: args.map((a) => a.id), ...(lower.group ? { group: lower.group } : {}) };
      return out(cx.emit(inst, ret, loc));
    }
    case 'atomic': {
      const ptr = args[0]!.id;
      if (lower.op === 'compareExchange') {
        return out(cx.emit({ op: 'atomic', kind: 'compareExchange', ptr, comparator: args[1]!.id, value: args[2]!.id }, ret, loc));
      }
      return out(cx.emit({ op: 'atomic', kind: lower.op, ptr, value: args[1]!.id }, ret, loc));
    }
    case 'clock': {
      const inst = { op: 'clock' as const, scope: lower.scope, ...(lower.realtime ? { realtime: true } : {}) };
      return out(cx.emit(inst, ret, loc));
    }
    case 'traceRay': {
      const payload = globalAtLocation(cx, 'rayPayload', args[10]!, 'rayPayloadEXT', name, loc);
      const [accel, rayFlags, cullMask, sbtOffset, sbtStride, missIndex, origin, tmin, direction, tmax] = args.map((a) => a.id);
      cx.emit({
        op: 'traceRay', accel: accel!, rayFlags: rayFlags!, cullMask: cullMask!, sbtOffset: sbtOffset!, sbtStride: sbtStride!,
        missIndex: missIndex!, origin: origin!, tmin: tmin!, direction: direction!, tmax: tmax!, payload,
      }, types.void, loc);
      return voidVal(cx);
    }
    case 'reportIntersection':
      return out(cx.emit({ op: 'reportIntersection', hitT: args[0]!.id, hitKind: args[1]!.id }, ret, loc));
    case 'executeCallable': {
      const data = globalAtLocation(cx, 'callableData', args[1]!, 'callableDataEXT', name, loc);
      cx.emit({ op: 'executeCallable', sbtIndex: args[0]!.id, callableData: data }, types.void, loc);
      return voidVal(cx);
    }
    case 'nop':
      return voidVal(cx);
    case 'identity':
      return args[0]!;
  }
}

/** The payload / callable-data global declared with the constant location `locArg`. */
function globalAtLocation(cx: IrGenContext, storage: 'rayPayload' | 'callableData', locArg: Val, qualifier: string, fn: string, loc: Loc): ValueId {
  const c = locArg.constValue;
  if (c?.scalar === undefined) return cx.fail(loc, `the last argument of '${fn}' must be a constant integer location`);
  const location = Number(c.scalar);
  // GL_EXT_ray_tracing: the location names a rayPayloadEXT or rayPayloadInEXT variable (likewise
  // callableDataEXT / callableDataInEXT); recursive tracing with the incoming payload is legal.
  const incoming = storage === 'rayPayload' ? 'incomingRayPayload' : 'incomingCallableData';
  const g = cx.m.globals.find((x) => x.storage === storage && x.location === location)
    ?? cx.m.globals.find((x) => x.storage === incoming && x.location === location);
  if (!g) return cx.fail(loc, `'${fn}' uses location ${location}, but no ${qualifier} (or ${qualifier.replace('EXT', 'InEXT')}) variable is declared with layout(location = ${location})`);
  return g.id;
}

function genDebugPrintf(cx: IrGenContext, argExprs: Expr[], loc: Loc): Val {
  const fmt = argExprs[0];
  if (!fmt || fmt.kind !== 'stringLit') return cx.fail(fmt?.loc ?? loc, 'the first argument of debugPrintfEXT must be a string literal');
  const args = argExprs.slice(1).map((a) => {
    const v = genExpr(cx, a);
    if (!cx.types.isScalarOrVector(v.type)) cx.fail(a.loc, `debugPrintfEXT cannot print a value of type '${cx.types.name(v.type)}'`);
    return v.id;
  });
  cx.emit({ op: 'debugPrintf', format: fmt.value, args }, cx.types.void, loc);
  return voidVal(cx);
}

/** Folds a layout/location-like argument expression. */
export function constArg(cx: IrGenContext, e: Expr): number | undefined {
  const v = evalConst(constEnvOf(cx), e);
  return v?.scalar !== undefined && typeof v.scalar !== 'boolean' ? Number(v.scalar) : undefined;
}
