/**
 * The bytes of a storage buffer, from what the manifest says fills it (scene records, a JSON or
 * raw data file, an inline value, or an element count) and the element layout the application
 * reads it with: the block of the shader that binds it, else a GLSL struct of the application's
 * shaders named by `struct` (its layout as the shaders' arrays of it declare: offsets and array
 * stride), else a scalar `element`, else (scene records only) the scalar layout of
 * `SCENE_BUFFER_FIELDS`.
 * Invariant: any 64-bit value may be an AddressOf, resolved through `resolveAddress`; a mismatch
 * between value and layout is a LayoutPackError / ManifestError naming the manifest key.
 */
import type { Global, Module } from '../../ir/module.js';
import { declareStruct, intern, newTypeTable, typeName, typeOf, type Type, type TypeId, type TypeTable } from '../../ir/types.js';
import {
  ManifestError, SCENE_BUFFER_FIELDS, sceneFields, type HostStructMember, type SceneFieldSource, type JsonValue, type SceneBufferKind, type ElementType, type StorageBufferContent,
} from '../workload/manifest.js';
import { JSON_DATA_FILE, readDataFile, readJsonDataFile } from '../workload/data-file.js';
import { layoutSize, packValue, type PackOptions } from '../workload/pack-layout.js';
import { MODEL_PLACEHOLDER } from '../workload/address-references.js';
import type { SceneRecord } from './scene-records.js';

/** How one element of a buffer is laid out: an array of `elem` every `stride` bytes from `offset`. */
export interface ElementLayout {
  types: TypeTable;
  elem: TypeId;
  stride: number;
  offset: number;
  /** The whole block, when a shader binds the buffer (values may then be the block's JSON). */
  block?: TypeId;
  /** What the layout came from, for messages. */
  from: string;
}

function pointee(types: TypeTable, g: Global): TypeId {
  const t = typeOf(types, g.type);
  return t.kind === 'pointer' ? t.pointee : g.type;
}

export function alignUp(x: number, a: number): number {
  return Math.ceil(x / a) * a;
}

/** The block's trailing runtime array (the usual `buffer B { Elem e[]; }`), if any. */
export function runtimeArrayMember(types: TypeTable, block: TypeId): { name: string; offset: number; elem: TypeId; stride: number } | undefined {
  const t = typeOf(types, block);
  if (t.kind !== 'struct') return undefined;
  const last = t.members[t.members.length - 1];
  if (!last) return undefined;
  const lt = typeOf(types, last.type);
  if (lt.kind !== 'runtimeArray') return undefined;
  return { name: last.name, offset: last.offset ?? 0, elem: lt.elem, stride: lt.stride ?? layoutSize(types, lt.elem) };
}

/**
 * The layout of struct `name` as the shaders lay out arrays of it: the stride of an array whose
 * element is that struct (a `layout` one first), else its size rounded to its alignment.
 */
export function structElementLayout(types: TypeTable, name: string, layout: 'std430' | 'scalar'): { elem: TypeId; stride: number } | undefined {
  let best: { elem: TypeId; stride: number; rank: number } | undefined;
  types.types.forEach((t, id) => {
    if ((t.kind !== 'array' && t.kind !== 'runtimeArray') || t.stride === undefined) return;
    const e = typeOf(types, t.elem);
    if (e.kind !== 'struct' || e.name !== name) return;
    const rank = e.layout === layout ? 0 : 1;
    if (!best || rank < best.rank) best = { elem: t.elem, stride: t.stride, rank };
    void id;
  });
  if (best) return { elem: best.elem, stride: best.stride };
  let single: { elem: TypeId; stride: number } | undefined;
  types.types.forEach((t, id) => {
    if (single || t.kind !== 'struct' || t.name !== name || t.members.some((m) => m.offset === undefined) || t.block) return;
    const elem = id as TypeId;
    single = { elem, stride: alignUp(Math.max(1, layoutSize(types, elem)), alignment(types, elem, t.layout ?? layout)) };
  });
  return single;
}

/** Base alignment under std430 / scalar (enough to derive a struct's array stride). */
function alignment(types: TypeTable, id: TypeId, rule: string): number {
  const t = typeOf(types, id);
  switch (t.kind) {
    case 'bool': return 4;
    case 'int': case 'float': return t.width / 8;
    case 'pointer': return 8;
    case 'vector': {
      const s = alignment(types, t.elem, rule);
      return rule === 'scalar' ? s : s * (t.count === 3 ? 4 : t.count);
    }
    case 'matrix': return alignment(types, t.column, rule);
    case 'array': case 'runtimeArray': return alignment(types, t.elem, rule);
    case 'struct': return Math.max(1, ...t.members.map((m) => alignment(types, m.type, rule)));
    default: return 4;
  }
}

/** Names of the structs with explicit layout the shaders declare, for messages. */
function laidOutStructs(types: TypeTable): string[] {
  const names = new Set<string>();
  for (const t of types.types) if (t.kind === 'struct' && !t.block && t.members.every((m) => m.offset !== undefined)) names.add(t.name);
  return [...names].sort();
}

const SCALAR_TYPES: Record<string, Type> = {
  float: { kind: 'float', width: 32 }, double: { kind: 'float', width: 64 },
  int: { kind: 'int', width: 32, signed: true }, uint: { kind: 'int', width: 32, signed: false },
  int64_t: { kind: 'int', width: 64, signed: true }, uint64_t: { kind: 'int', width: 64, signed: false },
  int16_t: { kind: 'int', width: 16, signed: true }, uint16_t: { kind: 'int', width: 16, signed: false },
  uint8_t: { kind: 'int', width: 8, signed: false },
};

/** An `element` type in a table of its own: tightly packed (stride = size). */
export function elementType(name: ElementType, types: TypeTable = newTypeTable()): { types: TypeTable; elem: TypeId; stride: number } {
  const vector = /^([iu]?)vec([234])$/.exec(name);
  const elem = vector
    ? intern(types, { kind: 'vector', elem: intern(types, SCALAR_TYPES[vector[1] === 'i' ? 'int' : vector[1] === 'u' ? 'uint' : 'float']!), count: Number(vector[2]) as 2 | 3 | 4 })
    : intern(types, SCALAR_TYPES[name]!);
  return { types, elem, stride: layoutSize(types, elem) };
}

/**
 * A `hostStruct` as a struct type with offsets: "scalar" packs members tightly (a C++ struct of glm
 * types), "std430" aligns them by GLSL's rules; the stride is the size rounded to the alignment.
 */
export function hostStructType(members: readonly HostStructMember[], layout: 'std430' | 'scalar'): { types: TypeTable; elem: TypeId; stride: number } {
  const types = newTypeTable();
  let at = 0;
  let structAlign = 1;
  const laid = members.map((mem) => {
    const { elem } = elementType(mem.type, types);
    const a = alignment(types, elem, layout);
    structAlign = Math.max(structAlign, a);
    at = alignUp(at, a);
    const out = { name: mem.name, type: elem, offset: at };
    at += layoutSize(types, elem);
    return out;
  });
  const elem = declareStruct(types, 'hostStruct', laid, { layout });
  return { types, elem, stride: alignUp(Math.max(at, 1), structAlign) };
}

/** The element layout of a storage buffer (undefined: no layout known, raw or fixed scene layout). */
export function elementLayout(m: Module, global: Global | undefined, content: StorageBufferContent, path: string): ElementLayout | undefined {
  if (content.hostStruct) {
    // The host's struct is what the buffer holds, whatever view the binding shader declares.
    const ra = global ? runtimeArrayMember(m.types, pointee(m.types, global)) : undefined;
    return { ...hostStructType(content.hostStruct, content.layout), offset: ra?.offset ?? 0, from: 'hostStruct' };
  }
  if (global) {
    const block = pointee(m.types, global);
    const ra = runtimeArrayMember(m.types, block);
    return ra
      ? { types: m.types, elem: ra.elem, stride: ra.stride, offset: ra.offset, block, from: typeName(m.types, block) }
      : { types: m.types, elem: block, stride: 0, offset: 0, block, from: typeName(m.types, block) };
  }
  if (content.struct) {
    const found = structElementLayout(m.types, content.struct, content.layout);
    if (!found) {
      throw new ManifestError([`${path}.struct: no shader of the pipeline declares a struct ${content.struct} with an explicit layout (declared: ${laidOutStructs(m.types).join(', ') || 'none'})`]);
    }
    return { types: m.types, elem: found.elem, stride: found.stride, offset: 0, from: `struct ${content.struct}` };
  }
  if (content.element) return { ...elementType(content.element), offset: 0, from: content.element };
  return undefined;
}

/** A JSON value for a whole buffer: the block's JSON when a shader binds it, else an array of elements (or one element). */
export function packJson(layout: ElementLayout | undefined, value: JsonValue, path: string, opts: PackOptions, fitToBlock: (types: TypeTable, block: TypeId, v: unknown) => unknown): Uint8Array {
  if (!layout) {
    throw new ManifestError([`${path}: no shader binds this buffer, so its layout is unknown: give "struct" (a GLSL struct of the shaders) or "element" (float, uint, uint64_t, ...), or raw bytes in a .bin file`]);
  }
  if (layout.block !== undefined) {
    const ra = runtimeArrayMember(layout.types, layout.block);
    const fitted = fitToBlock(layout.types, layout.block, value);
    const n = ra && typeof fitted === 'object' && fitted && Array.isArray((fitted as Record<string, unknown>)[ra.name])
      ? ((fitted as Record<string, unknown[]>)[ra.name]!.length)
      : 0;
    const data = new Uint8Array(alignUp(layoutSize(layout.types, layout.block, n), 16));
    packValue(new DataView(data.buffer), 0, layout.block, layout.types, fitted, path, opts);
    return data;
  }
  const items = Array.isArray(value) ? value : [value];
  const data = new Uint8Array(alignUp(Math.max(16, items.length * layout.stride), 16));
  const view = new DataView(data.buffer);
  items.forEach((v, i) => packValue(view, i * layout.stride, layout.elem, layout.types, v, `${path}[${i}]`, opts));
  return data;
}

/** The bytes of a `data` file: JSON packed by the layout, raw .bin bytes as they are. */
export function packDataFile(layout: ElementLayout | undefined, file: string, path: string, opts: PackOptions, fitToBlock: (types: TypeTable, block: TypeId, v: unknown) => unknown): Uint8Array {
  if (!JSON_DATA_FILE.test(file)) return readDataFile(file, `${path}.data`);
  return packJson(layout, readJsonDataFile(file, `${path}.data`) as JsonValue, path, opts, fitToBlock);
}

/** An empty buffer of `elements` elements (plus the block's fixed part when a shader binds it). */
export function emptyBuffer(layout: ElementLayout | undefined, elements: number): Uint8Array {
  if (!layout) return new Uint8Array(Math.max(16, elements * 4));
  const fixed = layout.block !== undefined ? layoutSize(layout.types, layout.block) : 0;
  return new Uint8Array(Math.max(16, elements * (layout.stride || 4) + fixed));
}

/**
 * Packs scene records into the element layout: each struct member takes the record field of the
 * same name (or the one `fields` maps it to, or the address `fields` gives it). Without a layout
 * (a buffer reached only through addresses, with no `struct`), the records are packed in scalar
 * layout with the fields in `SCENE_BUFFER_FIELDS` order.
 */
export function packSceneRecords(
  layout: ElementLayout | undefined, kind: SceneBufferKind, records: SceneRecord[], fields: Record<string, SceneFieldSource>, path: string,
  opts: PackOptions, field?: string,
): { data: Uint8Array; stride: number } {
  if (!layout) return packScalarRecords(kind, records);
  const { types } = layout;
  const elem = typeOf(types, layout.elem);
  let values: unknown[];
  if (elem.kind === 'struct') {
    // A constant in `fields` is checked once, at its own key, not as every element's member.
    for (const mem of elem.members) {
      const c = fields[mem.name];
      if (typeof c !== 'number' && !Array.isArray(c)) continue;
      packValue(new DataView(new ArrayBuffer(Math.max(layoutSize(types, mem.type), 4))), 0, mem.type, types, c, `${path}.fields.${mem.name}`, opts);
    }
    values = records.map((r, i) =>
      Object.fromEntries(elem.members.map((mem) => {
        const field = fields[mem.name] ?? mem.name;
        if (typeof field === 'number' || Array.isArray(field)) return [mem.name, field];
        if (typeof field !== 'string') {
          const model = String(r.model ?? i);
          return [mem.name, { ...field, addressOf: field.addressOf.split(MODEL_PLACEHOLDER).join(model) }];
        }
        if (!(field in r)) {
          const known = Object.keys(sceneFields(kind)).join(', ');
          throw new ManifestError([
            `${path}: element ${i}: ${layout.from}'s member '${mem.name}' has no scene field '${field}' in ${kind} (fields: ${known}; rename with "fields")`,
          ]);
        }
        return [mem.name, widenToVec4(types, mem.type, r[field])];
      })));
  } else if (field !== undefined || !('' in sceneFields(kind))) {
    // One named field per element (a separate normal or texCoord buffer).
    if (field === undefined) {
      throw new ManifestError([
        `${path}: its elements are ${typeName(types, layout.elem)}, but the scene's ${kind} have several fields (${Object.keys(sceneFields(kind)).join(', ')}): ` +
        'give "field" (the one each element holds, e.g. "field": "normal"), or "hostStruct" / "struct" for whole records',
      ]);
    }
    values = records.map((r) => widenToVec4(types, layout.elem, r[field]));
  } else if (elem.kind === 'vector' || kind !== 'indices') {
    values = records.map((r) => r['']);
  } else {
    values = records.flatMap((r) => r[''] as number[]); // `uint indices[]`: three per triangle
  }
  const data = new Uint8Array(alignUp(layout.offset + values.length * layout.stride, 16) || 16);
  const view = new DataView(data.buffer);
  values.forEach((v, i) => packValue(view, layout.offset + i * layout.stride, layout.elem, types, v, `${path}[${i}]`, opts));
  return { data, stride: layout.stride };
}

/** A vec3 record field (colour, position) into a vec4 member gets w = 1, as hosts fill alpha and w. */
function widenToVec4(types: TypeTable, member: TypeId, value: unknown): unknown {
  const t = typeOf(types, member);
  return t.kind === 'vector' && t.count === 4 && Array.isArray(value) && value.length === 3 ? [...value, 1] : value;
}

const SCALAR_FIELD_BYTES: Record<string, number> = {
  vec3: 12, vec2: 8, float: 4, int: 4, uint: 4, uvec3: 12, uint64_t: 8,
};

function packScalarRecords(kind: SceneBufferKind, records: SceneRecord[]): { data: Uint8Array; stride: number } {
  const fields = Object.entries(SCENE_BUFFER_FIELDS[kind]);
  const stride = fields.reduce((s, [, t]) => s + SCALAR_FIELD_BYTES[t]!, 0);
  const data = new Uint8Array(Math.max(16, records.length * stride));
  const view = new DataView(data.buffer);
  records.forEach((r, i) => {
    let at = i * stride;
    for (const [name, t] of fields) {
      const v = r[name];
      const items = Array.isArray(v) ? v : [v];
      for (const x of items) {
        if (t === 'uint64_t') view.setBigUint64(at, BigInt(x as bigint), true);
        else if (t === 'int') view.setInt32(at, Number(x), true);
        else if (t === 'uint' || t === 'uvec3') view.setUint32(at, Number(x), true);
        else view.setFloat32(at, Number(x), true);
        at += t === 'uint64_t' ? 8 : 4;
      }
    }
  });
  return { data, stride };
}

/** Element stride of the fixed scene layout (what `packSceneRecords` uses without a layout). */
export function scalarRecordStride(kind: SceneBufferKind): number {
  return Object.values(SCENE_BUFFER_FIELDS[kind]).reduce((s, t) => s + SCALAR_FIELD_BYTES[t]!, 0);
}
