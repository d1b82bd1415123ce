/**
 * Buffer memory layout: std140, std430 and scalar (GL_EXT_scalar_block_layout), computed exactly as
 * glslang lays blocks out (member offsets, array strides, matrix strides).
 *
 * Laying out a type produces a *laid-out copy* (arrays with `stride`, structs with member
 * `offset`s and a `layout`); the declared type stays untouched, because one GLSL struct can live
 * in a std140 uniform block, a std430 storage block and a function-local variable at once (glslang
 * emits one SPIR-V struct per layout, too). `LayoutCache.origin` maps every laid-out struct back to
 * its declared struct so value copies between the two can be recognised.
 */
import { declareStruct, intern, type LayoutRule, type StructMember, type TypeId } from '../../../ir/types.js';
import type { GlslTypes } from './glsl-types.js';

export interface LayoutCache {
  /** `${declaredType}:${rule}:${rowMajor}` -> laid-out type. */
  laidOut: Map<string, TypeId>;
  /** Laid-out struct -> declared struct. */
  origin: Map<TypeId, TypeId>;
}

export function newLayoutCache(): LayoutCache {
  return { laidOut: new Map(), origin: new Map() };
}

/** Member description for `layoutBlock`: declared type and the per-member qualifiers that matter. */
export interface BlockMemberSpec {
  name: string;
  type: TypeId;
  /** `layout(offset = N)` */
  offset?: number;
  /** `layout(align = N)` */
  align?: number;
  rowMajor?: boolean;
  nonWritable?: boolean;
  nonReadable?: boolean;
}

const roundUp = (x: number, a: number): number => Math.ceil(x / a) * a;

function scalarSize(types: GlslTypes, id: TypeId): number {
  const t = types.get(id);
  if (t.kind === 'bool') return 4;
  if (t.kind === 'int' || t.kind === 'float') return t.width / 8;
  if (t.kind === 'pointer') return 8; // buffer_reference: a 64-bit device address
  throw new Error(`no scalar size for ${types.name(id)}`);
}

/** Base alignment and size of `id` under `rule` (declared or laid-out types both work). */
export function alignAndSize(types: GlslTypes, id: TypeId, rule: LayoutRule, rowMajor = false): { align: number; size: number } {
  const t = types.get(id);
  switch (t.kind) {
    case 'bool':
    case 'int':
    case 'float':
    case 'pointer': {
      const s = scalarSize(types, id);
      return { align: s, size: s };
    }
    case 'vector': {
      const s = scalarSize(types, t.elem);
      const align = rule === 'scalar' ? s : (t.count === 2 ? 2 : 4) * s;
      return { align, size: s * t.count };
    }
    case 'matrix': {
      const { columns, rows } = types.matrixShape(id);
      const scalar = types.elementScalar(id);
      // A matrix is laid out as an array of its columns (column-major) or rows (row-major).
      const vec = types.vectorOf(scalar, rowMajor ? columns : rows);
      return arrayAlignAndSize(types, vec, rowMajor ? rows : columns, rule);
    }
    case 'array':
      return arrayAlignAndSize(types, t.elem, t.length, rule, rowMajor);
    case 'runtimeArray': {
      const a = arrayAlignAndSize(types, t.elem, 1, rule, rowMajor);
      return { align: a.align, size: 0 };
    }
    case 'struct': {
      let align = 1;
      let end = 0;
      for (const m of t.members) {
        const ms = alignAndSize(types, m.type, rule, m.rowMajor ?? rowMajor);
        align = Math.max(align, ms.align);
        const off = m.offset ?? roundUp(end, ms.align);
        end = off + ms.size;
      }
      if (rule === 'std140') align = roundUp(align, 16);
      // glslang does not pad a scalar-layout struct to its alignment; std140/std430 structs are padded.
      return { align, size: rule === 'scalar' ? end : roundUp(end, align) };
    }
    default:
      throw new Error(`type ${types.name(id)} cannot be placed in a buffer`);
  }
}

/** Array stride for elements of type `elem` under `rule`. */
export function arrayStride(types: GlslTypes, elem: TypeId, rule: LayoutRule, rowMajor = false): number {
  const e = alignAndSize(types, elem, rule, rowMajor);
  const align = rule === 'std140' ? roundUp(e.align, 16) : e.align;
  return roundUp(e.size, align);
}

function arrayAlignAndSize(types: GlslTypes, elem: TypeId, length: number, rule: LayoutRule, rowMajor = false): { align: number; size: number } {
  const e = alignAndSize(types, elem, rule, rowMajor);
  const align = rule === 'std140' ? roundUp(e.align, 16) : e.align;
  const stride = roundUp(e.size, align);
  // Scalar layout: the last element is not padded (glslang places the next member right after it).
  const size = rule === 'scalar' ? (length > 0 ? stride * (length - 1) + e.size : 0) : stride * length;
  return { align, size };
}

/** The laid-out copy of `id` for use inside a block with `rule`. Scalars and vectors are returned as-is. */
export function layoutType(types: GlslTypes, cache: LayoutCache, id: TypeId, rule: LayoutRule, rowMajor = false): TypeId {
  const t = types.get(id);
  if (t.kind !== 'array' && t.kind !== 'runtimeArray' && t.kind !== 'struct') return id;
  const key = `${id}:${rule}:${rowMajor ? 1 : 0}`;
  const hit = cache.laidOut.get(key);
  if (hit !== undefined) return hit;
  let out: TypeId;
  if (t.kind === 'array' || t.kind === 'runtimeArray') {
    const elem = layoutType(types, cache, t.elem, rule, rowMajor);
    const stride = arrayStride(types, t.elem, rule, rowMajor);
    out = t.kind === 'array'
      ? intern(types.tt, { kind: 'array', elem, length: t.length, stride })
      : intern(types.tt, { kind: 'runtimeArray', elem, stride });
  } else {
    const specs: BlockMemberSpec[] = t.members.map((m) => ({
      name: m.name, type: cache.origin.get(m.type) ?? m.type, rowMajor: m.rowMajor ?? rowMajor,
      nonWritable: m.nonWritable, nonReadable: m.nonReadable,
    }));
    out = buildLaidOutStruct(types, cache, t.name, specs, rule, false);
    cache.origin.set(out, id);
  }
  cache.laidOut.set(key, out);
  return out;
}

/** Lays out the members of an interface block and declares its (block) struct type. */
export function layoutBlock(types: GlslTypes, cache: LayoutCache, name: string, members: BlockMemberSpec[], rule: LayoutRule): TypeId {
  return buildLaidOutStruct(types, cache, name, members, rule, true);
}

function buildLaidOutStruct(types: GlslTypes, cache: LayoutCache, name: string, specs: BlockMemberSpec[], rule: LayoutRule, block: boolean): TypeId {
  const members: StructMember[] = [];
  let end = 0;
  for (const s of specs) {
    const rowMajor = s.rowMajor ?? false;
    const as = alignAndSize(types, s.type, rule, rowMajor);
    const align = s.align !== undefined ? Math.max(as.align, s.align) : as.align;
    const offset = s.offset !== undefined ? s.offset : roundUp(end, align);
    end = offset + as.size;
    const m: StructMember = { name: s.name, type: layoutType(types, cache, s.type, rule, rowMajor), offset };
    const matrix = matrixOfMember(types, s.type);
    if (matrix !== undefined) {
      const { columns, rows } = types.matrixShape(matrix);
      m.matrixStride = arrayStride(types, types.vectorOf(types.elementScalar(matrix), rowMajor ? columns : rows), rule);
      if (rowMajor) m.rowMajor = true;
    }
    if (s.nonWritable) m.nonWritable = true;
    if (s.nonReadable) m.nonReadable = true;
    members.push(m);
  }
  return declareStruct(types.tt, name, members, { layout: rule, block });
}

/** The matrix type of a matrix or (nested) array-of-matrix member. */
function matrixOfMember(types: GlslTypes, id: TypeId): TypeId | undefined {
  const t = types.get(id);
  if (t.kind === 'matrix') return id;
  if (t.kind === 'array' || t.kind === 'runtimeArray') return matrixOfMember(types, t.elem);
  return undefined;
}

/** The declared type a laid-out type was made from (identity for declared types). */
export function declaredType(types: GlslTypes, cache: LayoutCache, id: TypeId): TypeId {
  const t = types.get(id);
  if (t.kind === 'struct') return cache.origin.get(id) ?? id;
  if (t.kind === 'array') return intern(types.tt, { kind: 'array', elem: declaredType(types, cache, t.elem), length: t.length });
  if (t.kind === 'runtimeArray') return intern(types.tt, { kind: 'runtimeArray', elem: declaredType(types, cache, t.elem) });
  return id;
}
