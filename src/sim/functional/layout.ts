/**
 * How IR values are scalarised and laid out in memory by the functional core.
 *
 * - Every SSA value is a flat list of scalar leaves (vectors by component, matrices column-major,
 *   structs and arrays in member order). The compiled JS keeps one local or register slot per leaf.
 * - In memory, each leaf sits at a byte offset computed from the explicit layout decorations on the
 *   types (struct member offsets, array strides, matrix strides / row-major) when present, and from
 *   the packed "scalar" rule (4-byte scalars, 8-byte 64-bit scalars, no padding) otherwise; private
 *   memory uses the same rule, so every leaf is 4-byte aligned and read through 32-bit views.
 *
 * Representation of leaves in JS (documented once here, relied on by every emitter):
 * - f32: a double holding an exactly representable f32 (results pass through Math.fround).
 * - i32: a signed int32 (`|0`); u32: an uint32 in [0, 2^32) (`>>>0`); bool: any truthy/falsy value
 *   (0/1 once stored in a register file).
 * - i64/u64: a double; exact below 2^53, which covers buffer-reference addresses and clocks (the only
 *   64-bit values RT shaders use in practice).
 * - ptr: a number: a byte address in the shared simulated address space (>= 0), or a private-memory
 *   byte offset biased by PRIVATE_BASE (< 0). Images, samplers and acceleration structures are
 *   'handle' leaves: indices into the launch's handle table, or accel handle values.
 */
import type { TypeId, TypeTable } from '../../ir/types.js';
import { typeOf } from '../../ir/types.js';
import { SimError } from './errors.js';
import { MAX_VARIABLE_SCALARS } from '../../ir/variable-size-limit.js';

export type LeafKind = 'f32' | 'f64' | 'i32' | 'u32' | 'bool' | 'i64' | 'u64' | 'ptr' | 'handle';

/** Private (per-lane) pointers are PRIVATE_BASE + byte offset: negative, so `p < 0` tells them apart. */
export const PRIVATE_BASE = -(2 ** 30);

/** Flattening larger values than this is almost surely a whole runtime-sized or huge array load; the front ends refuse larger variables. */
const MAX_LEAVES = MAX_VARIABLE_SCALARS;

export interface MatrixDecoration {
  stride: number;
  rowMajor: boolean;
}

export interface MemoryLayout {
  /** Byte offset of each leaf, same order as `leavesOf`. */
  offsets: number[];
  kinds: LeafKind[];
  /** Bytes spanned (last leaf end). */
  size: number;
}

export class LayoutTable {
  private readonly leafCache = new Map<number, LeafKind[]>();
  private readonly layoutCache = new Map<string, MemoryLayout>();

  constructor(readonly types: TypeTable) {}

  leavesOf(ty: TypeId): LeafKind[] {
    let r = this.leafCache.get(ty);
    if (!r) {
      r = [];
      this.collectLeaves(ty, r);
      this.leafCache.set(ty, r);
    }
    return r;
  }

  private collectLeaves(ty: TypeId, out: LeafKind[]): void {
    const t = typeOf(this.types, ty);
    if (out.length > MAX_LEAVES) throw new SimError('unsupported', `value of type #${ty} has more than ${MAX_LEAVES} scalar components`);
    switch (t.kind) {
      case 'void':
        return;
      case 'bool':
        out.push('bool');
        return;
      case 'int':
        out.push(t.width === 64 ? (t.signed ? 'i64' : 'u64') : t.signed ? 'i32' : 'u32');
        return;
      case 'float':
        out.push(t.width === 64 ? 'f64' : 'f32');
        return;
      case 'vector':
        for (let i = 0; i < t.count; i++) this.collectLeaves(t.elem, out);
        return;
      case 'matrix':
        for (let i = 0; i < t.columns; i++) this.collectLeaves(t.column, out);
        return;
      case 'array':
        for (let i = 0; i < t.length; i++) this.collectLeaves(t.elem, out);
        return;
      case 'struct':
        for (const m of t.members) this.collectLeaves(m.type, out);
        return;
      case 'pointer':
        out.push('ptr');
        return;
      case 'image':
      case 'sampler':
      case 'sampledImage':
      case 'accelerationStructure':
        out.push('handle');
        return;
      case 'runtimeArray':
        throw new SimError('unsupported', 'a runtime-sized array cannot be used as a whole value');
      case 'function':
        throw new SimError('internal', 'function type has no value representation');
    }
  }

  /** Bytes one leaf of this kind occupies in memory. */
  static leafBytes(k: LeafKind): number {
    return k === 'i64' || k === 'u64' || k === 'f64' || k === 'ptr' ? 8 : 4;
  }

  /** Byte layout of a value of type `ty` in memory; `mat` is the decoration of the member holding a matrix. */
  layoutOf(ty: TypeId, mat?: MatrixDecoration): MemoryLayout {
    const key = mat ? `${ty}/${mat.stride}/${mat.rowMajor ? 1 : 0}` : `${ty}`;
    let r = this.layoutCache.get(key);
    if (!r) {
      const offsets: number[] = [];
      const kinds: LeafKind[] = [];
      this.collectLayout(ty, 0, mat, offsets, kinds);
      let size = 0;
      for (let i = 0; i < offsets.length; i++) size = Math.max(size, offsets[i]! + LayoutTable.leafBytes(kinds[i]!));
      r = { offsets, kinds, size };
      this.layoutCache.set(key, r);
    }
    return r;
  }

  /** Size used as the default array stride / struct packing when no explicit layout is declared. */
  sizeOf(ty: TypeId, mat?: MatrixDecoration): number {
    const t = typeOf(this.types, ty);
    if (t.kind === 'array') return t.length * this.strideOf(ty);
    if (t.kind === 'struct') {
      let end = 0;
      let off = 0;
      for (const m of t.members) {
        const md = m.matrixStride !== undefined ? { stride: m.matrixStride, rowMajor: !!m.rowMajor } : undefined;
        const o = m.offset ?? alignUp(off, this.alignOf(m.type));
        off = o + this.sizeOf(m.type, md);
        end = Math.max(end, off);
      }
      return alignUp(end, this.alignOf(ty));
    }
    if (t.kind === 'matrix') {
      const rows = this.leavesOf(t.column).length;
      if (mat) return mat.rowMajor ? rows * mat.stride : t.columns * mat.stride;
      return t.columns * rows * 4;
    }
    if (t.kind === 'runtimeArray') return 0;
    return this.layoutOf(ty, mat).size;
  }

  /** Scalar-layout alignment: the largest scalar inside. */
  alignOf(ty: TypeId): number {
    const t = typeOf(this.types, ty);
    if (t.kind === 'runtimeArray') return this.alignOf(t.elem);
    if (t.kind === 'struct') return t.members.reduce((a, m) => Math.max(a, this.alignOf(m.type)), 4);
    if (t.kind === 'array') return this.alignOf(t.elem);
    if (t.kind === 'void') return 4;
    return this.leavesOf(ty).reduce((a, k) => Math.max(a, LayoutTable.leafBytes(k)), 4);
  }

  /** Element stride of an array or runtime array. */
  strideOf(arrayTy: TypeId): number {
    const t = typeOf(this.types, arrayTy);
    if (t.kind !== 'array' && t.kind !== 'runtimeArray') throw new SimError('internal', 'stride of a non-array type');
    if (t.stride !== undefined) return t.stride;
    return alignUp(this.sizeOf(t.elem), this.alignOf(t.elem));
  }

  /** Byte offset of struct member `i` (explicit or packed). */
  memberOffset(structTy: TypeId, i: number): number {
    const t = typeOf(this.types, structTy);
    if (t.kind !== 'struct') throw new SimError('internal', 'member offset of a non-struct type');
    const m = t.members[i];
    if (!m) throw new SimError('internal', `struct ${t.name} has no member ${i}`);
    if (m.offset !== undefined) return m.offset;
    let off = 0;
    for (let k = 0; k <= i; k++) {
      const mk = t.members[k]!;
      const md = mk.matrixStride !== undefined ? { stride: mk.matrixStride, rowMajor: !!mk.rowMajor } : undefined;
      off = mk.offset ?? alignUp(off, this.alignOf(mk.type));
      if (k === i) return off;
      off += this.sizeOf(mk.type, md);
    }
    return off;
  }

  private collectLayout(ty: TypeId, base: number, mat: MatrixDecoration | undefined, offsets: number[], kinds: LeafKind[]): void {
    const t = typeOf(this.types, ty);
    switch (t.kind) {
      case 'vector': {
        const k = this.leavesOf(t.elem)[0]!;
        const b = LayoutTable.leafBytes(k);
        for (let i = 0; i < t.count; i++) {
          offsets.push(base + i * b);
          kinds.push(k);
        }
        return;
      }
      case 'matrix': {
        const colKinds = this.leavesOf(t.column);
        const rows = colKinds.length;
        const stride = mat?.stride ?? rows * 4;
        for (let c = 0; c < t.columns; c++) {
          for (let r = 0; r < rows; r++) {
            offsets.push(base + (mat?.rowMajor ? r * stride + c * 4 : c * stride + r * 4));
            kinds.push(colKinds[r]!);
          }
        }
        return;
      }
      case 'array': {
        const stride = this.strideOf(ty);
        for (let i = 0; i < t.length; i++) this.collectLayout(t.elem, base + i * stride, mat, offsets, kinds);
        return;
      }
      case 'struct': {
        t.members.forEach((m, i) => {
          const md = m.matrixStride !== undefined ? { stride: m.matrixStride, rowMajor: !!m.rowMajor } : undefined;
          this.collectLayout(m.type, base + this.memberOffset(ty, i), md, offsets, kinds);
        });
        return;
      }
      default: {
        for (const k of this.leavesOf(ty)) {
          offsets.push(base);
          kinds.push(k);
        }
      }
    }
  }
}

export function alignUp(x: number, a: number): number {
  return Math.ceil(x / a) * a;
}
