/**
 * Emitting value conversions: numeric conversions (implicit and constructor-style), scalar splats,
 * and logical copies between a laid-out buffer type and its declared (function/private) twin.
 *
 * Constants stay constants: converting a folded value folds again instead of emitting `convert`,
 * so array sizes, case labels and initializers keep their constant form.
 */
import type { Loc, ValueId } from '../../../ir/inst.js';
import type { TypeId } from '../../../ir/types.js';
import { conversionRank } from '../sema/conversions.js';
import { convertConst, type ConstValue } from '../sema/const-eval.js';
import { declaredType } from '../sema/layout.js';
import type { IrGenContext, Val } from './context.js';

/** Whether two types are the same GLSL type (possibly laid out differently). */
export function sameGlslType(cx: IrGenContext, a: TypeId, b: TypeId): boolean {
  if (a === b) return true;
  return declaredType(cx.types, cx.layouts, a) === declaredType(cx.types, cx.layouts, b);
}

/** Any value-preserving conversion between same-shaped numeric types, or a layout copy. */
export function convertTo(cx: IrGenContext, v: Val, to: TypeId, loc: Loc): Val {
  if (v.type === to) return v;
  const types = cx.types;
  if (types.isScalarOrVector(v.type) && types.isScalarOrVector(to) && types.components(v.type) === types.components(to)) {
    if (v.constValue) return cx.constVal(convertConst(types, v.constValue, to));
    return { id: cx.emit({ op: 'convert', value: v.id }, to, loc), type: to };
  }
  if (types.isMatrix(v.type) && types.isMatrix(to)) {
    const { columns } = types.matrixShape(to);
    const col = types.matrixColumn(to);
    const parts: ValueId[] = [];
    for (let c = 0; c < columns; c++) {
      const x = cx.emit({ op: 'extract', value: v.id, indices: [c] }, types.matrixColumn(v.type), loc);
      parts.push(cx.emit({ op: 'convert', value: x }, col, loc));
    }
    return { id: cx.emit({ op: 'construct', parts }, to, loc), type: to };
  }
  if (sameGlslType(cx, v.type, to)) return copyLogical(cx, v, to, loc);
  throw new Error(`internal: no conversion from ${types.name(v.type)} to ${types.name(to)}`);
}

/** Converts implicitly (GLSL 4.60 rules) or reports `cannot convert` with `context`. */
export function coerce(cx: IrGenContext, v: Val, to: TypeId, loc: Loc, context = ''): Val {
  if (v.type === to) return v;
  if (sameGlslType(cx, v.type, to) || conversionRank(cx.types, v.type, to) !== undefined) return convertTo(cx, v, to, loc);
  return cx.fail(loc, `cannot convert from '${cx.types.name(v.type)}' to '${cx.types.name(to)}'${context}`);
}

/** A vector with every component `scalar` (already of the vector's component type). */
export function splat(cx: IrGenContext, scalar: Val, vecType: TypeId, loc: Loc): Val {
  const n = cx.types.components(vecType);
  if (scalar.constValue) {
    const c: ConstValue = { type: vecType, parts: Array.from({ length: n }, () => scalar.constValue!) };
    return cx.constVal(c);
  }
  return { id: cx.emit({ op: 'construct', parts: Array.from({ length: n }, () => scalar.id) }, vecType, loc), type: vecType };
}

/**
 * Copies a struct/array value to a type with the same GLSL type but another layout (SPIR-V
 * OpCopyLogical, spelled out member by member as glslang does for SPIR-V < 1.4).
 */
export function copyLogical(cx: IrGenContext, v: Val, to: TypeId, loc: Loc): Val {
  if (v.type === to) return v;
  const types = cx.types;
  const src = types.get(v.type);
  const dst = types.get(to);
  if (src.kind === 'struct' && dst.kind === 'struct') {
    const parts = dst.members.map((m, i) => {
      const x = cx.emit({ op: 'extract', value: v.id, indices: [i] }, src.members[i]!.type, loc);
      return copyLogical(cx, { id: x, type: src.members[i]!.type }, m.type, loc).id;
    });
    return { id: cx.emit({ op: 'construct', parts }, to, loc), type: to };
  }
  if (src.kind === 'array' && dst.kind === 'array') {
    const parts: ValueId[] = [];
    for (let i = 0; i < dst.length; i++) {
      const x = cx.emit({ op: 'extract', value: v.id, indices: [i] }, src.elem, loc);
      parts.push(copyLogical(cx, { id: x, type: src.elem }, dst.elem, loc).id);
    }
    return { id: cx.emit({ op: 'construct', parts }, to, loc), type: to };
  }
  return v;
}
