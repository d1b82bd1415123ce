/**
 * GLSL's view of the IR type table: resolving GLSL type names (`vec3`, `uint64_t`, `mat4x3`,
 * `sampler2D`, `image2D`, `accelerationStructureEXT`) to interned IR types, GLSL spelling of IR
 * types for diagnostics, and the shape predicates semantic analysis asks all the time.
 *
 * Invariant: every TypeId handed out belongs to `tt` (types are interned per module), and a
 * GLSL vector/matrix of one component is always its scalar (`vectorOf(s, 1) === s`).
 */
import { intern, typeOf, type ImageDim, type StorageClass, type Type, type TypeId, type TypeTable } from '../../../ir/types.js';

export type ScalarKind = 'bool' | 'int' | 'uint' | 'float' | 'double' | 'int64' | 'uint64' | 'float16' | 'int16' | 'uint16' | 'int8' | 'uint8';

const SCALAR_TYPES: Record<ScalarKind, Type> = {
  bool: { kind: 'bool' },
  int: { kind: 'int', width: 32, signed: true },
  uint: { kind: 'int', width: 32, signed: false },
  float: { kind: 'float', width: 32 },
  double: { kind: 'float', width: 64 },
  int64: { kind: 'int', width: 64, signed: true },
  uint64: { kind: 'int', width: 64, signed: false },
  float16: { kind: 'float', width: 16 },
  int16: { kind: 'int', width: 16, signed: true },
  uint16: { kind: 'int', width: 16, signed: false },
  int8: { kind: 'int', width: 8, signed: true },
  uint8: { kind: 'int', width: 8, signed: false },
};

const SCALAR_NAMES: Record<string, ScalarKind> = {
  bool: 'bool', int: 'int', uint: 'uint', float: 'float', double: 'double',
  int32_t: 'int', uint32_t: 'uint', float32_t: 'float', float64_t: 'double',
  int64_t: 'int64', uint64_t: 'uint64', float16_t: 'float16', int16_t: 'int16', uint16_t: 'uint16',
  int8_t: 'int8', uint8_t: 'uint8',
};

/** Vector name prefix -> component kind (`vec` float, `ivec` int, `u64vec` uint64, ...). */
const VECTOR_PREFIXES: Record<string, ScalarKind> = {
  vec: 'float', ivec: 'int', uvec: 'uint', bvec: 'bool', dvec: 'double',
  i64vec: 'int64', u64vec: 'uint64', f16vec: 'float16', i16vec: 'int16', u16vec: 'uint16', i8vec: 'int8', u8vec: 'uint8',
  f32vec: 'float', f64vec: 'double', i32vec: 'int', u32vec: 'uint',
};

const MATRIX_PREFIXES: Record<string, ScalarKind> = { mat: 'float', dmat: 'double', f32mat: 'float', f64mat: 'double', f16mat: 'float16' };

const IMAGE_DIMS: Record<string, ImageDim> = {
  '1D': '1D', '2D': '2D', '3D': '3D', Cube: 'Cube', '2DRect': 'Rect', Buffer: 'Buffer', '2DMS': '2D',
};

const IMAGE_RE = /^([iu]?)(sampler|texture|image)(1D|2D|3D|Cube|2DRect|Buffer|2DMS)(Array)?(Shadow)?$/;

/** Typed view over one module's type table with the handful of ids asked for everywhere cached. */
export class GlslTypes {
  readonly void: TypeId;
  readonly bool: TypeId;
  readonly int: TypeId;
  readonly uint: TypeId;
  readonly float: TypeId;
  readonly double: TypeId;
  readonly int64: TypeId;
  readonly uint64: TypeId;

  constructor(readonly tt: TypeTable) {
    this.void = intern(tt, { kind: 'void' });
    this.bool = this.scalar('bool');
    this.int = this.scalar('int');
    this.uint = this.scalar('uint');
    this.float = this.scalar('float');
    this.double = this.scalar('double');
    this.int64 = this.scalar('int64');
    this.uint64 = this.scalar('uint64');
  }

  get(id: TypeId): Type {
    return typeOf(this.tt, id);
  }

  scalar(k: ScalarKind): TypeId {
    return intern(this.tt, SCALAR_TYPES[k]);
  }

  vectorOf(elem: TypeId, n: number): TypeId {
    if (n === 1) return elem;
    return intern(this.tt, { kind: 'vector', elem, count: n as 2 | 3 | 4 });
  }

  matrixOf(elem: TypeId, columns: number, rows: number): TypeId {
    const column = this.vectorOf(elem, rows);
    return intern(this.tt, { kind: 'matrix', column, columns: columns as 2 | 3 | 4 });
  }

  arrayOf(elem: TypeId, length: number | undefined): TypeId {
    if (length === undefined) return intern(this.tt, { kind: 'runtimeArray', elem });
    return intern(this.tt, { kind: 'array', elem, length });
  }

  pointer(storage: StorageClass, pointee: TypeId): TypeId {
    return intern(this.tt, { kind: 'pointer', storage, pointee });
  }

  /** Resolves a built-in (non-struct) GLSL type name; undefined if `name` is not one. */
  resolveName(name: string): TypeId | undefined {
    if (name === 'void') return this.void;
    const s = SCALAR_NAMES[name];
    if (s) return this.scalar(s);
    const vm = /^([a-z0-9]*?vec)([234])$/.exec(name);
    if (vm) {
      const k = VECTOR_PREFIXES[vm[1]!];
      if (k) return this.vectorOf(this.scalar(k), Number(vm[2]));
    }
    const mm = /^([a-z0-9]*?mat)([234])(?:x([234]))?$/.exec(name);
    if (mm) {
      const k = MATRIX_PREFIXES[mm[1]!];
      if (k) {
        const cols = Number(mm[2]);
        const rows = mm[3] ? Number(mm[3]) : cols;
        return this.matrixOf(this.scalar(k), cols, rows);
      }
    }
    if (name === 'accelerationStructureEXT') return intern(this.tt, { kind: 'accelerationStructure' });
    if (name === 'sampler' || name === 'samplerShadow') return intern(this.tt, { kind: 'sampler' });
    const im = IMAGE_RE.exec(name);
    if (im) {
      const sampledType = im[1] === 'i' ? this.int : im[1] === 'u' ? this.uint : this.float;
      const kind = im[2]!;
      const image = intern(this.tt, {
        kind: 'image', sampledType, dim: IMAGE_DIMS[im[3]!]!, arrayed: im[4] === 'Array',
        multisampled: im[3] === '2DMS', sampled: kind !== 'image', format: 'unknown', depth: im[5] === 'Shadow',
      });
      if (kind === 'sampler') return intern(this.tt, { kind: 'sampledImage', image });
      return image;
    }
    return undefined;
  }

  // ------------------------------------------------------------------ shape predicates

  isScalar(id: TypeId): boolean {
    const k = this.get(id).kind;
    return k === 'bool' || k === 'int' || k === 'float';
  }
  isVector(id: TypeId): boolean {
    return this.get(id).kind === 'vector';
  }
  isMatrix(id: TypeId): boolean {
    return this.get(id).kind === 'matrix';
  }
  isScalarOrVector(id: TypeId): boolean {
    return this.isScalar(id) || this.isVector(id);
  }
  isArray(id: TypeId): boolean {
    const k = this.get(id).kind;
    return k === 'array' || k === 'runtimeArray';
  }
  isStruct(id: TypeId): boolean {
    return this.get(id).kind === 'struct';
  }
  isVoid(id: TypeId): boolean {
    return this.get(id).kind === 'void';
  }
  /** A buffer_reference type: a physical storage buffer pointer used as a value. */
  isBufferReference(id: TypeId): boolean {
    const t = this.get(id);
    return t.kind === 'pointer' && t.storage === 'physicalStorageBuffer';
  }
  isOpaque(id: TypeId): boolean {
    const k = this.get(id).kind;
    return k === 'image' || k === 'sampler' || k === 'sampledImage' || k === 'accelerationStructure';
  }

  /** Component scalar of a scalar, vector or matrix; the type itself otherwise. */
  elementScalar(id: TypeId): TypeId {
    const t = this.get(id);
    if (t.kind === 'vector') return t.elem;
    if (t.kind === 'matrix') return this.elementScalar(t.column);
    return id;
  }
  /** 1 for scalars, n for vectors, 0 for anything else. */
  components(id: TypeId): number {
    const t = this.get(id);
    if (t.kind === 'vector') return t.count;
    if (t.kind === 'bool' || t.kind === 'int' || t.kind === 'float') return 1;
    return 0;
  }
  /** Columns x rows of a matrix. */
  matrixShape(id: TypeId): { columns: number; rows: number } {
    const t = this.get(id);
    if (t.kind !== 'matrix') throw new Error('not a matrix');
    return { columns: t.columns, rows: this.components(t.column) };
  }
  matrixColumn(id: TypeId): TypeId {
    const t = this.get(id);
    if (t.kind !== 'matrix') throw new Error('not a matrix');
    return t.column;
  }
  /** Total scalar count of a scalar, vector or matrix (constructor argument consumption). */
  scalarCount(id: TypeId): number {
    const t = this.get(id);
    if (t.kind === 'matrix') return t.columns * this.components(t.column);
    return this.components(id);
  }
  isFloatKind(id: TypeId): boolean {
    return this.get(this.elementScalar(id)).kind === 'float';
  }
  isIntKind(id: TypeId): boolean {
    return this.get(this.elementScalar(id)).kind === 'int';
  }
  isBoolKind(id: TypeId): boolean {
    return this.get(this.elementScalar(id)).kind === 'bool';
  }
  isSignedInt(id: TypeId): boolean {
    const t = this.get(this.elementScalar(id));
    return t.kind === 'int' && t.signed;
  }
  isUnsignedInt(id: TypeId): boolean {
    const t = this.get(this.elementScalar(id));
    return t.kind === 'int' && !t.signed;
  }
  is64Bit(id: TypeId): boolean {
    const t = this.get(this.elementScalar(id));
    return (t.kind === 'int' || t.kind === 'float') && t.width === 64;
  }
  /** Same shape (scalar / vecN / matCxR) with a different component type. */
  withScalar(id: TypeId, scalar: TypeId): TypeId {
    const t = this.get(id);
    if (t.kind === 'vector') return this.vectorOf(scalar, t.count);
    if (t.kind === 'matrix') return this.matrixOf(scalar, t.columns, this.components(t.column));
    return scalar;
  }
  /** Element type of an array / runtime array, column of a matrix, component of a vector. */
  indexedType(id: TypeId): TypeId | undefined {
    const t = this.get(id);
    if (t.kind === 'array' || t.kind === 'runtimeArray') return t.elem;
    if (t.kind === 'matrix') return t.column;
    if (t.kind === 'vector') return t.elem;
    return undefined;
  }

  /** GLSL spelling for diagnostics: `vec3`, `uvec2`, `mat4x3`, `uint64_t`, `float[4]`, `Material`. */
  name(id: TypeId): string {
    const t = this.get(id);
    switch (t.kind) {
      case 'void':
        return 'void';
      case 'bool':
        return 'bool';
      case 'int':
        if (t.width === 32) return t.signed ? 'int' : 'uint';
        return `${t.signed ? 'int' : 'uint'}${t.width}_t`;
      case 'float':
        return t.width === 32 ? 'float' : t.width === 64 ? 'double' : 'float16_t';
      case 'vector': {
        const prefix = VECTOR_NAME_BY_SCALAR[this.name(t.elem)] ?? 'vec';
        return `${prefix}${t.count}`;
      }
      case 'matrix': {
        const rows = this.components(t.column);
        const p = this.get(this.elementScalar(id)).kind === 'float' && this.is64Bit(id) ? 'dmat' : 'mat';
        return rows === t.columns ? `${p}${t.columns}` : `${p}${t.columns}x${rows}`;
      }
      case 'array':
        return `${this.name(t.elem)}[${t.length}]`;
      case 'runtimeArray':
        return `${this.name(t.elem)}[]`;
      case 'struct':
        return t.name;
      case 'pointer':
        return t.storage === 'physicalStorageBuffer' ? this.name(t.pointee) : `ptr<${this.name(t.pointee)}>`;
      case 'image': {
        const pre = this.name(t.sampledType) === 'int' ? 'i' : this.name(t.sampledType) === 'uint' ? 'u' : '';
        const dim = t.dim === 'Rect' ? '2DRect' : t.multisampled ? '2DMS' : t.dim;
        return `${pre}${t.sampled ? 'texture' : 'image'}${dim}${t.arrayed ? 'Array' : ''}${t.depth ? 'Shadow' : ''}`;
      }
      case 'sampledImage':
        return this.name(t.image).replace('texture', 'sampler');
      case 'sampler':
        return 'sampler';
      case 'accelerationStructure':
        return 'accelerationStructureEXT';
      case 'function':
        return `${this.name(t.returnType)}(${t.params.map((p) => this.name(p)).join(', ')})`;
    }
  }
}

const VECTOR_NAME_BY_SCALAR: Record<string, string> = {
  float: 'vec', int: 'ivec', uint: 'uvec', bool: 'bvec', double: 'dvec', int64_t: 'i64vec', uint64_t: 'u64vec',
  float16_t: 'f16vec', int16_t: 'i16vec', uint16_t: 'u16vec', int8_t: 'i8vec', uint8_t: 'u8vec',
};
