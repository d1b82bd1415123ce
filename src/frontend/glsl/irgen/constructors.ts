/**
 * Constructors of every shape GLSL allows: scalars (conversion from the first component), vectors
 * from scalars/vectors/matrices (splat, truncate, concatenate), matrices (diagonal from a scalar,
 * resize from another matrix, from columns or scalars), structs, arrays, and the opaque/pointer
 * casts: `sampler2D(texture, sampler)`, buffer_reference `Ref(uint64_t)`, `uint64_t(ref)`,
 * `accelerationStructureEXT(uint64_t)`.
 *
 * Invariant: arguments are consumed in order, component by component; every argument must
 * contribute at least one component (GLSL: "too many arguments"), only the last may be partly used.
 */
import type { Loc, ValueId } from '../../../ir/inst.js';
import type { TypeId } from '../../../ir/types.js';
import { constructConst } from '../sema/const-eval.js';
import type { IrGenContext, Val } from './context.js';
import { coerce, convertTo, splat } from './value-conversion.js';

export function construct(cx: IrGenContext, type: TypeId, args: Val[], loc: Loc): Val {
  const types = cx.types;
  const t = types.get(type);
  const tn = types.name(type);
  if (args.length === 0) return cx.fail(loc, `constructor '${tn}' needs at least one argument`);
  for (const a of args) if (types.isVoid(a.type)) cx.fail(loc, `constructor '${tn}' argument has type void`);

  if (t.kind === 'pointer' && t.storage === 'physicalStorageBuffer') return castToReference(cx, type, args, loc);
  if (t.kind === 'accelerationStructure') {
    if (args.length !== 1 || (args[0]!.type !== types.uint64 && args[0]!.type !== types.vectorOf(types.uint, 2))) {
      cx.fail(loc, "accelerationStructureEXT(...) takes one uint64_t or uvec2 device address");
    }
    return { id: cx.emit({ op: 'convertUToAccel', value: args[0]!.id }, type, loc), type };
  }
  if (t.kind === 'sampledImage') {
    const [img, smp] = args;
    if (args.length !== 2 || types.get(img!.type).kind !== 'image' || types.get(smp!.type).kind !== 'sampler') {
      cx.fail(loc, `'${tn}' constructor takes a texture and a sampler`);
    }
    return { id: cx.emit({ op: 'sampledImage', image: img!.id, sampler: smp!.id }, type, loc), type };
  }
  if (t.kind === 'struct') {
    if (args.length !== t.members.length) cx.fail(loc, `constructor '${tn}' expects ${t.members.length} argument(s), found ${args.length}`);
    const parts = args.map((a, i) => coerce(cx, a, t.members[i]!.type, loc, ` for member '${t.members[i]!.name}' of '${tn}'`));
    return build(cx, type, parts, loc);
  }
  if (t.kind === 'array' || t.kind === 'runtimeArray') {
    const rt = t.kind === 'runtimeArray' ? types.arrayOf(t.elem, args.length) : type;
    if (t.kind === 'array' && args.length !== t.length) cx.fail(loc, `array constructor '${tn}' expects ${t.length} argument(s), found ${args.length}`);
    const parts = args.map((a) => coerce(cx, a, t.elem, loc, ' in array constructor'));
    return build(cx, rt, parts, loc);
  }
  for (const a of args) {
    if (!types.isScalarOrVector(a.type) && !types.isMatrix(a.type)) {
      if (types.isBufferReference(a.type) && args.length === 1 && type === types.uint64) {
        return { id: cx.emit({ op: 'convertPtrToU', value: a.id }, type, loc), type };
      }
      cx.fail(loc, `cannot construct '${tn}' from '${types.name(a.type)}'`);
    }
  }
  if (types.isScalar(type)) {
    if (args.length > 1) cx.fail(loc, `too many arguments to constructor '${tn}'`);
    const first = firstComponent(cx, args[0]!, loc);
    return convertTo(cx, first, type, loc);
  }
  if (t.kind === 'vector') return constructVector(cx, type, args, loc);
  if (t.kind === 'matrix') return constructMatrix(cx, type, args, loc);
  return cx.fail(loc, `'${tn}' cannot be constructed`);
}

function build(cx: IrGenContext, type: TypeId, parts: Val[], loc: Loc): Val {
  if (parts.every((p) => p.constValue)) return cx.constVal({ type, parts: parts.map((p) => p.constValue!) });
  return { id: cx.emit({ op: 'construct', parts: parts.map((p) => p.id) }, type, loc), type };
}

function firstComponent(cx: IrGenContext, v: Val, loc: Loc): Val {
  const types = cx.types;
  if (types.isScalar(v.type)) return v;
  if (types.isMatrix(v.type)) return firstComponent(cx, extract(cx, v, 0, types.matrixColumn(v.type), loc), loc);
  return extract(cx, v, 0, types.elementScalar(v.type), loc);
}

function extract(cx: IrGenContext, v: Val, i: number, type: TypeId, loc: Loc): Val {
  if (v.constValue?.parts) return cx.constVal(v.constValue.parts[i]!);
  return { id: cx.emit({ op: 'extract', value: v.id, indices: [i] }, type, loc), type };
}

/** Scalar components of `v`, converted to `scalar`. */
function componentsOf(cx: IrGenContext, v: Val, scalar: TypeId, loc: Loc, limit: number): Val[] {
  const types = cx.types;
  if (types.isScalar(v.type)) return [convertTo(cx, v, scalar, loc)];
  if (types.isMatrix(v.type)) {
    const { columns } = types.matrixShape(v.type);
    const out: Val[] = [];
    for (let c = 0; c < columns && out.length < limit; c++) out.push(...componentsOf(cx, extract(cx, v, c, types.matrixColumn(v.type), loc), scalar, loc, limit - out.length));
    return out;
  }
  const n = Math.min(types.components(v.type), limit);
  const conv = convertTo(cx, v, types.withScalar(v.type, scalar), loc);
  return Array.from({ length: n }, (_, i) => extract(cx, conv, i, scalar, loc));
}

function checkArgCount(cx: IrGenContext, type: TypeId, args: Val[], needed: number, loc: Loc): void {
  const types = cx.types;
  let have = 0;
  for (let i = 0; i < args.length; i++) {
    if (have >= needed) cx.fail(loc, `too many arguments to constructor '${types.name(type)}'`);
    have += types.scalarCount(args[i]!.type);
  }
  if (have < needed) cx.fail(loc, `not enough data provided to constructor '${types.name(type)}': needs ${needed} components, found ${have}`);
}

function constructVector(cx: IrGenContext, type: TypeId, args: Val[], loc: Loc): Val {
  const types = cx.types;
  const n = types.components(type);
  const scalar = types.elementScalar(type);
  if (args.length === 1) {
    const a = args[0]!;
    if (types.isScalar(a.type)) return splat(cx, convertTo(cx, a, scalar, loc), type, loc);
    if (types.isVector(a.type)) {
      const m = types.components(a.type);
      if (m < n) cx.fail(loc, `not enough data provided to constructor '${types.name(type)}': needs ${n} components, found ${m}`);
      if (m === n) return convertTo(cx, a, type, loc);
      const narrowed = types.vectorOf(types.elementScalar(a.type), n);
      const comps = Array.from({ length: n }, (_, i) => i);
      const sh: Val = a.constValue?.parts
        ? cx.constVal({ type: narrowed, parts: a.constValue.parts.slice(0, n) })
        : { id: cx.emit({ op: 'shuffle', a: a.id, b: a.id, components: comps }, narrowed, loc), type: narrowed };
      return convertTo(cx, sh, type, loc);
    }
  }
  checkArgCount(cx, type, args, n, loc);
  // Whole vector arguments are kept as construct parts (SPIR-V allows it); the last may be split.
  const parts: Val[] = [];
  let have = 0;
  for (const a of args) {
    const k = types.scalarCount(a.type);
    if (types.isVector(a.type) && have + k <= n) {
      parts.push(convertTo(cx, a, types.withScalar(a.type, scalar), loc));
      have += k;
    } else {
      const comps = componentsOf(cx, a, scalar, loc, n - have);
      parts.push(...comps);
      have += comps.length;
    }
  }
  if (parts.every((p) => p.constValue)) {
    const folded = constructConst(types, type, parts.map((p) => p.constValue!));
    if (folded) return cx.constVal(folded);
  }
  return { id: cx.emit({ op: 'construct', parts: parts.map((p) => p.id) }, type, loc), type };
}

function constructMatrix(cx: IrGenContext, type: TypeId, args: Val[], loc: Loc): Val {
  const types = cx.types;
  const { columns, rows } = types.matrixShape(type);
  const scalar = types.elementScalar(type);
  const colType = types.matrixColumn(type);
  const zero = cx.constVal({ type: scalar, scalar: 0 });
  const one = cx.constVal({ type: scalar, scalar: 1 });
  if (args.length === 1 && types.isScalar(args[0]!.type)) {
    const d = convertTo(cx, args[0]!, scalar, loc);
    const cols = Array.from({ length: columns }, (_, c) =>
      build(cx, colType, Array.from({ length: rows }, (_, r) => (r === c ? d : zero)), loc));
    return build(cx, type, cols, loc);
  }
  if (args.length === 1 && types.isMatrix(args[0]!.type)) {
    const src = args[0]!;
    const s = types.matrixShape(src.type);
    const srcCol = types.matrixColumn(src.type);
    const cols: Val[] = [];
    for (let c = 0; c < columns; c++) {
      if (c >= s.columns) {
        cols.push(build(cx, colType, Array.from({ length: rows }, (_, r) => (r === c ? one : zero)), loc));
        continue;
      }
      const col = convertTo(cx, extract(cx, src, c, srcCol, loc), types.vectorOf(scalar, s.rows), loc);
      if (s.rows === rows) {
        cols.push(col);
      } else {
        const comps = Array.from({ length: rows }, (_, r) => (r < s.rows ? extract(cx, col, r, scalar, loc) : r === c ? one : zero));
        cols.push(build(cx, colType, comps, loc));
      }
    }
    return build(cx, type, cols, loc);
  }
  checkArgCount(cx, type, args, columns * rows, loc);
  if (args.length === columns && args.every((a) => types.isVector(a.type) && types.components(a.type) === rows)) {
    return build(cx, type, args.map((a) => convertTo(cx, a, colType, loc)), loc);
  }
  const flat: Val[] = [];
  for (const a of args) flat.push(...componentsOf(cx, a, scalar, loc, columns * rows - flat.length));
  const cols: Val[] = [];
  for (let c = 0; c < columns; c++) cols.push(build(cx, colType, flat.slice(c * rows, c * rows + rows), loc));
  return build(cx, type, cols, loc);
}

/** `Ref(addr)`: u64 (or uvec2) address -> buffer reference; `Ref(otherRef)` reinterprets. */
function castToReference(cx: IrGenContext, type: TypeId, args: Val[], loc: Loc): Val {
  const types = cx.types;
  if (args.length !== 1) cx.fail(loc, `buffer reference constructor '${types.name(type)}' takes exactly one argument`);
  let a = args[0]!;
  if (types.isBufferReference(a.type)) {
    a = { id: cx.emit({ op: 'convertPtrToU', value: a.id }, types.uint64, loc), type: types.uint64 };
  } else if (a.type === types.vectorOf(types.uint, 2)) {
    a = { id: cx.emit({ op: 'bitcast', value: a.id }, types.uint64, loc), type: types.uint64 };
  } else if (types.isScalar(a.type) && types.isIntKind(a.type) && types.is64Bit(a.type)) {
    a = convertTo(cx, a, types.uint64, loc);
  } else {
    cx.fail(loc, `buffer reference constructor '${types.name(type)}' needs a uint64_t address, found '${types.name(a.type)}'`);
  }
  const id: ValueId = cx.emit({ op: 'convertUToPtr', value: a.id }, type, loc);
  return { id, type };
}
