/**
 * Names, member selection, indexing and swizzles: turns such expressions into either an l-value
 * (a pointer plus a pending access chain and swizzle) or an r-value, and loads/stores l-values.
 *
 * Why pending chains: `a.b[i].c.xy` becomes one `accessChain` + `load` (+ `shuffle`), as glslang
 * emits it, instead of loading the whole aggregate. Swizzle writes load the vector, `shuffle` the
 * new components in and store it back; a single-component swizzle becomes a chain index instead.
 * A buffer_reference value is a physical-storage pointer: selecting through it starts a new chain.
 */
import type { Expr } from '../ast.js';
import type { Loc, ValueId } from '../../../ir/inst.js';
import type { StorageClass, TypeId } from '../../../ir/types.js';
import type { ReadonlyReason } from '../sema/scope.js';
import { BUILTIN_CONSTANTS, BUILTIN_VARIABLES, STAGE_NAMES, stageList } from '../builtins/variables.js';
import { SemanticError, type IrGenContext, type Val } from './context.js';
import { genExpr } from './expressions.js';

export interface LValue {
  /** Pointer value the chain starts from (global, local variable, out-parameter or buffer reference). */
  base: ValueId;
  storage: StorageClass;
  indices: Val[];
  /** Type the chain points at. */
  type: TypeId;
  /** Type `base` points at (where the chain starts). */
  root: TypeId;
  /** Components of the vector `type` selected by a swizzle of two or more components. */
  swizzle?: number[];
  readonly?: ReadonlyReason;
  /** Written name, for diagnostics. */
  name: string;
}

export type Ref = { kind: 'lv'; lv: LValue } | { kind: 'rv'; val: Val };

export function lvalueType(cx: IrGenContext, lv: LValue): TypeId {
  return lv.swizzle ? cx.types.vectorOf(cx.types.elementScalar(lv.type), lv.swizzle.length) : lv.type;
}

export function refType(cx: IrGenContext, r: Ref): TypeId {
  return r.kind === 'lv' ? lvalueType(cx, r.lv) : r.val.type;
}

/** The pointer the chain designates (without the swizzle). */
export function pointerOf(cx: IrGenContext, lv: LValue, loc: Loc): ValueId {
  if (lv.indices.length === 0) return lv.base;
  const ptrType = cx.types.pointer(lv.storage, lv.type);
  return cx.emit({ op: 'accessChain', base: lv.base, indices: lv.indices.map((i) => i.id) }, ptrType, loc);
}

export function loadLValue(cx: IrGenContext, lv: LValue, loc: Loc): Val {
  const ptr = pointerOf(cx, lv, loc);
  const v = cx.emit({ op: 'load', ptr }, lv.type, loc);
  if (!lv.swizzle) return { id: v, type: lv.type };
  const t = lvalueType(cx, lv);
  return { id: cx.emit({ op: 'shuffle', a: v, b: v, components: lv.swizzle }, t, loc), type: t };
}

export function loadRef(cx: IrGenContext, r: Ref, loc: Loc): Val {
  return r.kind === 'lv' ? loadLValue(cx, r.lv, loc) : r.val;
}

/** Checks an l-value may be written; reports `what` (e.g. "assignment") otherwise. */
export function checkWritable(cx: IrGenContext, lv: LValue, loc: Loc, what: string): void {
  if (lv.readonly) cx.fail(loc, `${what} to ${describeReadonly(lv.readonly)} '${lv.name}'`);
  if (lv.swizzle && new Set(lv.swizzle).size !== lv.swizzle.length) cx.fail(loc, `${what} to swizzle '${lv.name}' with repeated components`);
}

function describeReadonly(r: ReadonlyReason): string {
  switch (r) {
    case 'const': return 'const variable';
    case 'readonly': return 'readonly variable';
    case 'built-in': return 'read-only built-in variable';
    case 'uniform': return 'uniform (read-only) variable';
    case 'input': return 'read-only input';
  }
}

/** Stores `value` (already of the l-value's type) through the l-value, merging swizzled components. */
export function storeLValue(cx: IrGenContext, lv: LValue, value: Val, loc: Loc): void {
  const ptr = pointerOf(cx, lv, loc);
  if (!lv.swizzle) {
    cx.emit({ op: 'store', ptr, value: value.id }, cx.types.void, loc);
    return;
  }
  const old = cx.emit({ op: 'load', ptr }, lv.type, loc);
  const n = cx.types.components(lv.type);
  const components = Array.from({ length: n }, (_, i) => {
    const k = lv.swizzle!.indexOf(i);
    return k >= 0 ? n + k : i;
  });
  const merged = cx.emit({ op: 'shuffle', a: old, b: value.id, components }, lv.type, loc);
  cx.emit({ op: 'store', ptr, value: merged }, cx.types.void, loc);
}

const SWIZZLE_SETS = ['xyzw', 'rgba', 'stpq'];

/** Parses a swizzle like `xzy`; undefined if `name` is not a valid swizzle of an n-vector. */
export function parseSwizzle(name: string, n: number): number[] | undefined {
  if (name.length < 1 || name.length > 4) return undefined;
  for (const set of SWIZZLE_SETS) {
    const idx = [...name].map((c) => set.indexOf(c));
    if (idx.every((i) => i >= 0)) return idx.every((i) => i < n) ? idx : undefined;
  }
  return undefined;
}

/** Resolves a name to an l-value or value: variables, block members, constants, built-ins. */
export function genIdentRef(cx: IrGenContext, name: string, loc: Loc): Ref {
  const sym = cx.scope.lookup(name);
  if (sym) {
    if (sym.kind === 'constant') {
      // Specialization constants stay symbolic in code (their value is chosen at pipeline creation).
      return { kind: 'rv', val: { id: sym.id, type: sym.type, ...(sym.value && !sym.spec ? { constValue: sym.value } : {}) } };
    }
    if (sym.kind === 'variable') {
      const lv: LValue = { base: sym.ptr, storage: sym.storage, indices: [], type: sym.type, root: sym.type, name };
      if (sym.readonly) lv.readonly = sym.readonly;
      return { kind: 'lv', lv };
    }
    const lv: LValue = { base: sym.ptr, storage: sym.storage, indices: [cx.intConst(sym.index)], type: sym.type, root: sym.blockType, name };
    if (sym.readonly) lv.readonly = sym.readonly;
    return { kind: 'lv', lv };
  }
  const bv = BUILTIN_VARIABLES[name];
  if (bv) {
    if (bv.builtin.startsWith('Subgroup') && bv.builtin !== 'SubgroupId') cx.requireFeature('subgroupBasic', loc, name);
    else if (!bv.stages.includes('compute')) {
      cx.requireFeature(name === 'gl_CullMaskEXT' ? 'rayCullMask' : name === 'gl_HitTriangleVertexPositionsEXT' ? 'rayTracingPositionFetch' : 'rayTracing', loc, name);
    }
    if (!bv.stages.includes(cx.stage)) {
      cx.fail(loc, `'${name}' is not available in ${STAGE_NAMES[cx.stage]} shaders (only in ${stageList(bv.stages)})`);
    }
    let g = cx.builtinGlobals.get(name);
    const array = /^(\w+)\[(\d+)\]$/.exec(bv.type);
    const type = array ? cx.types.arrayOf(cx.types.resolveName(array[1]!)!, Number(array[2])) : cx.types.resolveName(bv.type)!;
    if (!g) {
      g = cx.addGlobal({ name, type: cx.types.pointer('input', type), storage: 'input', builtin: bv.builtin, loc });
      cx.builtinGlobals.set(name, g);
    }
    return { kind: 'lv', lv: { base: g.id, storage: 'input', indices: [], type, root: type, readonly: 'built-in', name } };
  }
  if (name === 'gl_WorkGroupSize' && cx.stage === 'compute') {
    const uvec3 = cx.types.vectorOf(cx.types.uint, 3);
    const [x, y, z] = cx.localSize ?? [1, 1, 1];
    return { kind: 'rv', val: cx.constVal({ type: uvec3, parts: [x, y, z].map((v) => ({ type: cx.types.uint, scalar: v })) }) };
  }
  const bc = BUILTIN_CONSTANTS[name];
  if (bc !== undefined) cx.requireFeature(/Skip(Triangles|AABB)EXT$/.test(name) ? 'rayFlagsPrimitiveCulling' : 'rayTracing', loc, name);
  if (bc !== undefined) return { kind: 'rv', val: cx.uintConst(bc) };
  if (cx.poisoned.has(name)) throw new SemanticError();
  return cx.fail(loc, `undeclared identifier '${name}'`);
}

/** An expression as l-value when it designates memory, as value otherwise. */
export function genRef(cx: IrGenContext, e: Expr): Ref {
  switch (e.kind) {
    case 'ident':
      return genIdentRef(cx, e.name, e.loc);
    case 'member':
      return selectMember(cx, derefBufferReference(cx, genRef(cx, e.object), e.loc), e.member, e.loc);
    case 'index': {
      const base = derefBufferReference(cx, genRef(cx, e.object), e.loc);
      const idx = genExpr(cx, e.index);
      return selectIndex(cx, base, idx, e.index.loc, e.loc);
    }
    default:
      return { kind: 'rv', val: genExpr(cx, e) };
  }
}

/** A buffer_reference value used as an aggregate: its pointee becomes the l-value. */
export function derefBufferReference(cx: IrGenContext, r: Ref, loc: Loc): Ref {
  const t = refType(cx, r);
  const pt = cx.types.get(t);
  if (pt.kind !== 'pointer' || pt.storage !== 'physicalStorageBuffer') return r;
  const ptr = loadRef(cx, r, loc);
  return { kind: 'lv', lv: { base: ptr.id, storage: 'physicalStorageBuffer', indices: [], type: pt.pointee, root: pt.pointee, name: cx.types.name(t) } };
}

function selectMember(cx: IrGenContext, r: Ref, member: string, loc: Loc): Ref {
  const types = cx.types;
  const t = refType(cx, r);
  const tt = types.get(t);
  if (tt.kind === 'struct') {
    const i = tt.members.findIndex((m) => m.name === member);
    if (i < 0) cx.fail(loc, `'${member}' is not a member of '${types.name(t)}'`);
    const mt = tt.members[i]!.type;
    if (r.kind === 'lv') {
      const lv: LValue = { ...r.lv, indices: [...r.lv.indices, cx.intConst(i)], type: mt, name: `${r.lv.name}.${member}` };
      if (tt.members[i]!.nonWritable && !lv.readonly) lv.readonly = 'readonly';
      return { kind: 'lv', lv };
    }
    if (r.val.constValue?.parts) return { kind: 'rv', val: cx.constVal(r.val.constValue.parts[i]!) };
    return { kind: 'rv', val: { id: cx.emit({ op: 'extract', value: r.val.id, indices: [i] }, mt, loc), type: mt } };
  }
  if (types.isScalarOrVector(t)) {
    const n = types.components(t);
    const sw = parseSwizzle(member, Math.max(n, 1));
    if (!sw) cx.fail(loc, `invalid swizzle or member '${member}' on '${types.name(t)}'`);
    const elem = types.elementScalar(t);
    if (r.kind === 'lv') {
      const base = r.lv;
      // Compose with an existing swizzle: v.zyx.x selects v.z.
      const comps = base.swizzle ? sw.map((c) => base.swizzle![c]!) : sw;
      if (n === 1) {
        if (comps.some((c) => c !== 0)) cx.fail(loc, `invalid swizzle '${member}' on a scalar`);
        if (comps.length === 1) return r;
        return { kind: 'rv', val: splatRef(cx, loadLValue(cx, base, loc), comps.length, loc) };
      }
      const name = `${base.name}.${member}`;
      if (comps.length === 1) return { kind: 'lv', lv: { ...base, swizzle: undefined, indices: [...base.indices, cx.intConst(comps[0]!)], type: elem, name } };
      return { kind: 'lv', lv: { ...base, swizzle: comps, name } };
    }
    const v = r.val;
    if (n === 1) return { kind: 'rv', val: sw.length === 1 ? v : splatRef(cx, v, sw.length, loc) };
    if (v.constValue?.parts) {
      const parts = sw.map((c) => v.constValue!.parts![c]!);
      return { kind: 'rv', val: cx.constVal(parts.length === 1 ? parts[0]! : { type: types.vectorOf(elem, parts.length), parts }) };
    }
    if (sw.length === 1) return { kind: 'rv', val: { id: cx.emit({ op: 'extract', value: v.id, indices: [sw[0]!] }, elem, loc), type: elem } };
    const rt = types.vectorOf(elem, sw.length);
    return { kind: 'rv', val: { id: cx.emit({ op: 'shuffle', a: v.id, b: v.id, components: sw }, rt, loc), type: rt } };
  }
  return cx.fail(loc, `cannot select '${member}' from a value of type '${types.name(t)}'`);
}

function splatRef(cx: IrGenContext, v: Val, n: number, loc: Loc): Val {
  const t = cx.types.vectorOf(v.type, n);
  return { id: cx.emit({ op: 'construct', parts: Array.from({ length: n }, () => v.id) }, t, loc), type: t };
}

function selectIndex(cx: IrGenContext, r: Ref, idxIn: Val, idxLoc: Loc, loc: Loc): Ref {
  const types = cx.types;
  const t = refType(cx, r);
  const elem = types.indexedType(t);
  if (elem === undefined || (types.isScalar(t))) cx.fail(loc, `cannot index a value of type '${types.name(t)}'`);
  if (!types.isIntKind(idxIn.type) || !types.isScalar(idxIn.type)) cx.fail(idxLoc, `array index must be an integer scalar, found '${types.name(idxIn.type)}'`);
  const idx = idxIn;
  const tt = types.get(t);
  const bound = tt.kind === 'array' ? tt.length : tt.kind === 'vector' ? tt.count : tt.kind === 'matrix' ? tt.columns : undefined;
  const constIndex = idx.constValue?.scalar !== undefined ? Number(idx.constValue.scalar) : undefined;
  if (constIndex !== undefined && (constIndex < 0 || (bound !== undefined && constIndex >= bound))) {
    cx.fail(idxLoc, `index ${constIndex} is out of range for '${types.name(t)}'`);
  }
  if (r.kind === 'lv') {
    let lv = r.lv;
    if (lv.swizzle) {
      // Indexing a swizzle: only constant indices can be resolved statically.
      if (constIndex === undefined) return { kind: 'rv', val: dynamicExtract(cx, loadLValue(cx, lv, loc), idx, loc) };
      return { kind: 'lv', lv: { ...lv, swizzle: undefined, indices: [...lv.indices, cx.intConst(lv.swizzle[constIndex]!)], type: elem, name: `${lv.name}[${constIndex}]` } };
    }
    lv = { ...lv, indices: [...lv.indices, idx], type: elem, name: `${lv.name}[]` };
    return { kind: 'lv', lv };
  }
  const v = r.val;
  if (constIndex !== undefined) {
    if (v.constValue?.parts) return { kind: 'rv', val: cx.constVal(v.constValue.parts[constIndex]!) };
    return { kind: 'rv', val: { id: cx.emit({ op: 'extract', value: v.id, indices: [constIndex] }, elem, loc), type: elem } };
  }
  return { kind: 'rv', val: dynamicExtract(cx, v, idx, loc) };
}

/** value[idx] with a run-time index: vectors use extractDynamic; aggregates are spilled to a local. */
function dynamicExtract(cx: IrGenContext, v: Val, idx: Val, loc: Loc): Val {
  const types = cx.types;
  const elem = types.indexedType(v.type)!;
  if (types.isVector(v.type)) return { id: cx.emit({ op: 'extractDynamic', value: v.id, index: idx.id }, elem, loc), type: elem };
  const tmp = cx.fnb.variable(types.pointer('function', v.type), loc);
  cx.emit({ op: 'store', ptr: tmp, value: v.id }, types.void, loc);
  const p = cx.emit({ op: 'accessChain', base: tmp, indices: [idx.id] }, types.pointer('function', elem), loc);
  return { id: cx.emit({ op: 'load', ptr: p }, elem, loc), type: elem };
}
