/**
 * The IR type system: one interned table per module. Types are referred to by `TypeId`, an index
 * into `TypeTable.types`. Two structurally equal types always have the same id (interning), except
 * structs, which are nominal (a struct's identity is its declaration; see `StructType.name`).
 *
 * The granularity follows SPIR-V: explicit pointer types with a storage class, explicit layout
 * decorations (offsets, array strides, matrix strides) on types that live in buffers.
 */

export type TypeId = number & { readonly __brand: 'TypeId' };

/** Where a pointer points; SPIR-V storage classes plus the ones ray tracing adds. */
export type StorageClass =
  | 'function'
  | 'private'
  | 'uniform'
  | 'uniformConstant' // images, samplers, acceleration structures (opaque handles)
  | 'storageBuffer'
  | 'pushConstant'
  | 'physicalStorageBuffer' // buffer_reference
  | 'rayPayload'
  | 'incomingRayPayload'
  | 'hitAttribute'
  | 'callableData'
  | 'incomingCallableData'
  | 'shaderRecordBuffer'
  | 'input' // builtins such as gl_LaunchIDEXT
  | 'output'
  | 'workgroup'
  | 'image'; // texel pointers (atomics on images)

export const STORAGE_CLASSES: readonly StorageClass[] = [
  'function', 'private', 'uniform', 'uniformConstant', 'storageBuffer', 'pushConstant',
  'physicalStorageBuffer', 'rayPayload', 'incomingRayPayload', 'hitAttribute', 'callableData',
  'incomingCallableData', 'shaderRecordBuffer', 'input', 'output', 'workgroup', 'image',
];

/** Memory layout rule a block was declared with; decides member offsets and strides. */
export type LayoutRule = 'std140' | 'std430' | 'scalar';

export type ImageDim = '1D' | '2D' | '3D' | 'Cube' | 'Rect' | 'Buffer' | 'SubpassData';

export interface StructMember {
  name: string;
  type: TypeId;
  /** Byte offset inside the struct; present iff the struct has explicit layout. */
  offset?: number;
  /** Byte stride between matrix columns (or rows when rowMajor); only on matrix(-array) members with layout. */
  matrixStride?: number;
  rowMajor?: boolean;
  /** Memory qualifiers from GLSL: readonly -> nonWritable, writeonly -> nonReadable, coherent, volatile, restrict. */
  nonWritable?: boolean;
  nonReadable?: boolean;
}

export type Type =
  | { kind: 'void' }
  | { kind: 'bool' }
  | { kind: 'int'; width: 8 | 16 | 32 | 64; signed: boolean }
  | { kind: 'float'; width: 16 | 32 | 64 }
  /** `elem` is a scalar type; count 2..4. */
  | { kind: 'vector'; elem: TypeId; count: 2 | 3 | 4 }
  /** Column-major: `column` is a float vector type (its count = rows), `columns` = number of columns. mat4x3 = 4 columns of vec3. */
  | { kind: 'matrix'; column: TypeId; columns: 2 | 3 | 4 }
  /** Fixed-size array. `stride` in bytes is present iff the array lives in an explicitly laid-out block. */
  | { kind: 'array'; elem: TypeId; length: number; stride?: number }
  /** Runtime-sized array; only as the last member of a storage/shader-record block or as a descriptor array. */
  | { kind: 'runtimeArray'; elem: TypeId; stride?: number }
  /**
   * Structs are nominal: two declarations with the same members are different types. `block`
   * marks an interface block (SPIR-V Block decoration); `layout` is the rule its offsets came from.
   */
  | { kind: 'struct'; name: string; members: StructMember[]; layout?: LayoutRule; block?: boolean; uid: number }
  /** `align` is buffer_reference_align for physical storage buffer pointers. */
  | { kind: 'pointer'; storage: StorageClass; pointee: TypeId; align?: number }
  /** `sampledType` is the scalar component type; `format` the GLSL layout format ('rgba8', 'rgba32f', ... or 'unknown'). */
  | {
      kind: 'image';
      sampledType: TypeId;
      dim: ImageDim;
      arrayed: boolean;
      multisampled: boolean;
      /** true for textures used with a sampler, false for storage images. */
      sampled: boolean;
      format: string;
      depth: boolean;
    }
  | { kind: 'sampler' }
  | { kind: 'sampledImage'; image: TypeId }
  | { kind: 'accelerationStructure' }
  | { kind: 'function'; returnType: TypeId; params: TypeId[] };

export type TypeKind = Type['kind'];

/**
 * The interned table. `types[id]` is the type with that id. `index` maps a structural key to its
 * id and is rebuilt from `types` on demand (it is derived data, never serialised).
 */
export interface TypeTable {
  types: Type[];
  /** Derived: structural key -> id. Not part of the JSON form. */
  index?: Map<string, TypeId>;
  /** Next uid for nominal struct types. */
  nextStructUid: number;
}

export function newTypeTable(): TypeTable {
  return { types: [], index: new Map(), nextStructUid: 1 };
}

export function typeKey(t: Type): string {
  switch (t.kind) {
    case 'void':
    case 'bool':
    case 'sampler':
    case 'accelerationStructure':
      return t.kind;
    case 'int':
      return `${t.signed ? 'i' : 'u'}${t.width}`;
    case 'float':
      return `f${t.width}`;
    case 'vector':
      return `v${t.count}<${t.elem}>`;
    case 'matrix':
      return `m${t.columns}<${t.column}>`;
    case 'array':
      return `a${t.length}<${t.elem}>${t.stride !== undefined ? 's' + t.stride : ''}`;
    case 'runtimeArray':
      return `ra<${t.elem}>${t.stride !== undefined ? 's' + t.stride : ''}`;
    case 'struct':
      return `struct#${t.uid}`;
    case 'pointer':
      return `p.${t.storage}<${t.pointee}>${t.align !== undefined ? 'al' + t.align : ''}`;
    case 'image':
      return `img<${t.sampledType},${t.dim},${t.arrayed ? 1 : 0},${t.multisampled ? 1 : 0},${t.sampled ? 1 : 0},${t.format},${t.depth ? 1 : 0}>`;
    case 'sampledImage':
      return `si<${t.image}>`;
    case 'function':
      return `fn(${t.params.join(',')})->${t.returnType}`;
  }
}

function ensureIndex(table: TypeTable): Map<string, TypeId> {
  if (!table.index || table.index.size !== table.types.length) {
    table.index = new Map();
    table.types.forEach((t, i) => table.index!.set(typeKey(t), i as TypeId));
  }
  return table.index;
}

/** Returns the id of `t`, adding it to the table if new. Structs must come from `declareStruct`. */
export function intern(table: TypeTable, t: Type): TypeId {
  const index = ensureIndex(table);
  const key = typeKey(t);
  const found = index.get(key);
  if (found !== undefined) return found;
  const id = table.types.length as TypeId;
  table.types.push(t);
  index.set(key, id);
  return id;
}

/** Adds a new nominal struct type. */
export function declareStruct(
  table: TypeTable,
  name: string,
  members: StructMember[],
  opts: { layout?: LayoutRule; block?: boolean } = {},
): TypeId {
  const uid = table.nextStructUid++;
  const t: Type = { kind: 'struct', name, members, uid };
  if (opts.layout) t.layout = opts.layout;
  if (opts.block) t.block = true;
  return intern(table, t);
}

export function typeOf(table: TypeTable, id: TypeId): Type {
  const t = table.types[id];
  if (!t) throw new Error(`unknown type id ${id}`);
  return t;
}

/** Shorthands for the common scalar/vector types. */
export const T = {
  void: (tt: TypeTable) => intern(tt, { kind: 'void' }),
  bool: (tt: TypeTable) => intern(tt, { kind: 'bool' }),
  i32: (tt: TypeTable) => intern(tt, { kind: 'int', width: 32, signed: true }),
  u32: (tt: TypeTable) => intern(tt, { kind: 'int', width: 32, signed: false }),
  i64: (tt: TypeTable) => intern(tt, { kind: 'int', width: 64, signed: true }),
  u64: (tt: TypeTable) => intern(tt, { kind: 'int', width: 64, signed: false }),
  f32: (tt: TypeTable) => intern(tt, { kind: 'float', width: 32 }),
  vec: (tt: TypeTable, elem: TypeId, count: 2 | 3 | 4) => intern(tt, { kind: 'vector', elem, count }),
  ptr: (tt: TypeTable, storage: StorageClass, pointee: TypeId) => intern(tt, { kind: 'pointer', storage, pointee }),
};

/** Scalar type of a scalar or vector (or matrix: its column's scalar). */
export function scalarOf(table: TypeTable, id: TypeId): TypeId {
  const t = typeOf(table, id);
  if (t.kind === 'vector') return t.elem;
  if (t.kind === 'matrix') return scalarOf(table, t.column);
  return id;
}

/** Component count of scalars (1) and vectors. */
export function componentCount(table: TypeTable, id: TypeId): number {
  const t = typeOf(table, id);
  return t.kind === 'vector' ? t.count : 1;
}

/** GLSL-ish readable name, used by the printer and in diagnostics. */
export function typeName(table: TypeTable, id: TypeId): string {
  const t = typeOf(table, id);
  switch (t.kind) {
    case 'void':
    case 'bool':
    case 'sampler':
      return t.kind;
    case 'accelerationStructure':
      return 'accel';
    case 'int':
      return `${t.signed ? 'i' : 'u'}${t.width}`;
    case 'float':
      return `f${t.width}`;
    case 'vector':
      return `vec${t.count}<${typeName(table, t.elem)}>`;
    case 'matrix': {
      const col = typeOf(table, t.column);
      const rows = col.kind === 'vector' ? col.count : 1;
      return `mat${t.columns}x${rows}<${typeName(table, scalarOf(table, t.column))}>`;
    }
    case 'array':
      return `[${typeName(table, t.elem)}; ${t.length}]`;
    case 'runtimeArray':
      return `[${typeName(table, t.elem)}]`;
    case 'struct':
      return `%${t.name}`;
    case 'pointer':
      return `ptr<${t.storage}, ${typeName(table, t.pointee)}>`;
    case 'image':
      return `image<${t.dim}${t.arrayed ? 'Array' : ''}, ${typeName(table, t.sampledType)}${t.sampled ? '' : ', ' + t.format}>`;
    case 'sampledImage':
      return `sampled<${typeName(table, t.image)}>`;
    case 'function':
      return `fn(${t.params.map((p) => typeName(table, p)).join(', ')}) -> ${typeName(table, t.returnType)}`;
  }
}
