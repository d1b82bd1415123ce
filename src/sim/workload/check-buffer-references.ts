/**
 * Warnings for buffers whose element layout disagrees with the `buffer_reference` type that
 * reads them, where that can be known statically: a shader converts a 64-bit member `M` of struct
 * `S` to a buffer_reference block (`Vertices(objDesc.vertexAddress)`, directly or through a local
 * copy of the struct), and the manifest stores in member `M` of a buffer of `S` elements the
 * address of another buffer (`{"addressOf": ...}` values and `fields`, or the scene's own
 * instance / model descriptions, whose address fields point at the scene buffers). When the
 * reader block ends in a runtime array, its stride must equal the target buffer's element size,
 * and members both structs name must sit at the same offsets.
 * Invariant: pure; returns messages naming the manifest key and the shader's file:line; a case
 * that cannot be decided statically (raw .bin data, pointer arithmetic) gives no message.
 */
import type { Module } from '../../ir/module.js';
import type { Inst, ValueId } from '../../ir/inst.js';
import { typeName, typeOf, type TypeId, type TypeTable } from '../../ir/types.js';
import {
  SCENE_BUFFER_FIELDS, sceneFields, type AddressOf, type JsonValue, type SceneBufferKind, type StorageBufferContent, type WorkloadManifest,
} from './manifest.js';
import { MODEL_PLACEHOLDER } from './address-references.js';
import { elementType, hostStructType, runtimeArrayMember, structElementLayout } from '../host/buffer-contents.js';
import { readJsonDataFile, JSON_DATA_FILE } from './data-file.js';

/** A shader site that turns member `member` of struct `struct` into a pointer to `reader`. */
export interface AddressUse {
  struct: string;
  member: string;
  module: Module;
  reader: TypeId;
  where: string;
}

/** Every `convertUToPtr` whose operand is a struct member loaded from memory or extracted from a value. */
export function addressUses(m: Module): AddressUse[] {
  const defs = new Map<ValueId, Inst>();
  for (const f of m.functions) for (const b of f.blocks) for (const i of b.insts) defs.set(i.id, i);
  const constants = new Map(m.constants.map((c) => [c.id, c.value]));
  const valueType = (v: ValueId): TypeId | undefined => defs.get(v)?.type ?? m.globals.find((g) => g.id === v)?.type;
  /** Walks `indices` (constant struct members, any array index) from `type`; the last struct member reached. */
  const memberOf = (type: TypeId | undefined, indices: (number | undefined)[]): { struct: string; member: string } | undefined => {
    let t = type;
    let last: { struct: string; member: string } | undefined;
    for (const idx of indices) {
      if (t === undefined) return undefined;
      const tt = typeOf(m.types, t);
      if (tt.kind === 'struct') {
        if (idx === undefined) return undefined;
        const mem = tt.members[idx];
        if (!mem) return undefined;
        last = { struct: tt.name, member: mem.name };
        t = mem.type;
      } else if (tt.kind === 'array' || tt.kind === 'runtimeArray') {
        last = undefined;
        t = tt.elem;
      } else {
        return undefined;
      }
    }
    return last;
  };
  const pointee = (t: TypeId | undefined): TypeId | undefined => {
    if (t === undefined) return undefined;
    const tt = typeOf(m.types, t);
    return tt.kind === 'pointer' ? tt.pointee : undefined;
  };
  /** Flattens nested access chains to (root pointer, indices). */
  const chain = (ptr: ValueId): { root: ValueId; indices: (number | undefined)[] } => {
    const d = defs.get(ptr);
    if (d?.op !== 'accessChain') return { root: ptr, indices: [] };
    const inner = chain(d.base);
    return { root: inner.root, indices: [...inner.indices, ...d.indices.map((v) => { const c = constants.get(v); return typeof c === 'number' ? c : typeof c === 'bigint' ? Number(c) : undefined; })] };
  };
  const out: AddressUse[] = [];
  for (const f of m.functions) {
    for (const b of f.blocks) {
      for (const i of b.insts) {
        if (i.op !== 'convertUToPtr') continue;
        const reader = pointee(i.type);
        const src = defs.get(i.value);
        let found: { struct: string; member: string } | undefined;
        if (src?.op === 'load') {
          const c = chain(src.ptr);
          if (c.indices.length > 0) found = memberOf(pointee(valueType(c.root)), c.indices);
        } else if (src?.op === 'extract') {
          found = memberOf(valueType(src.value), src.indices);
        }
        if (!found || reader === undefined) continue;
        const file = m.sources[i.loc.file]?.path ?? '?';
        out.push({ ...found, module: m, reader, where: `${file}:${i.loc.line}` });
      }
    }
  }
  // Members declared with a buffer_reference type (`struct ObjDesc { Vertices vertices; }`): the
  // reader is the member's own type; the site is the member's declaration.
  const seen = new Set<string>();
  for (const t of m.types.types) {
    if (t.kind !== 'struct') continue;
    for (const mem of t.members) {
      const mt = typeOf(m.types, mem.type);
      if (mt.kind !== 'pointer' || mt.storage !== 'physicalStorageBuffer') continue;
      const id = `${t.name}.${mem.name}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ struct: t.name, member: mem.name, module: m, reader: mt.pointee, where: declarationSite(m, mt.pointee, mem.name) });
    }
  }
  return out;
}

/** file:line of a member declaration `Type name;` in the module's sources (the IR keeps no location for types). */
function declarationSite(m: Module, type: TypeId, member: string): string {
  const t = typeOf(m.types, type);
  const typeName = t.kind === 'struct' ? t.name : '';
  const re = new RegExp(`\\b${typeName}\\s+${member}\\s*(\\[[^\\]]*\\])?\\s*;`);
  for (const src of m.sources) {
    const lines = src.text.split('\n');
    const at = lines.findIndex((l) => re.test(l));
    if (at >= 0) return `${src.path}:${at + 1}`;
  }
  return m.sources[0]?.path ?? '?';
}

/** A buffer's element layout as the checker needs it: stride and, for structs, member offsets by name. */
interface KnownLayout {
  stride: number;
  members?: Map<string, number>;
  what: string;
  /**
   * For tightly packed scalars and vectors: the component type (`u32`). Arrays of `uint` and of
   * `uvec3` with the same components hold identical bytes (index buffers are read both ways).
   */
  component?: string;
}

/** The component type of a tightly packed scalar or vector element, else undefined. */
function tightComponent(types: TypeTable, elem: TypeId, stride: number): string | undefined {
  const t = typeOf(types, elem);
  const scalar = t.kind === 'vector' ? typeOf(types, t.elem) : t;
  if (scalar.kind !== 'int' && scalar.kind !== 'float') return undefined;
  const count = t.kind === 'vector' ? t.count : 1;
  if (stride !== count * (scalar.width / 8)) return undefined;
  return scalar.kind === 'float' ? `f${scalar.width}` : `${scalar.signed ? 'i' : 'u'}${scalar.width}`;
}

/** A struct by its GLSL name, other types as the IR prints them. */
function elemName(types: TypeTable, id: TypeId): string {
  const t = typeOf(types, id);
  return t.kind === 'struct' ? t.name : typeName(types, id);
}

function structLayout(types: TypeTable, elem: TypeId, stride: number, what: string): KnownLayout {
  const t = typeOf(types, elem);
  if (t.kind === 'struct') return { stride, members: new Map(t.members.map((m) => [m.name, m.offset ?? 0])), what };
  const component = tightComponent(types, elem, stride);
  return component ? { stride, what, component } : { stride, what };
}

const FIXED_BYTES: Record<string, number> = { vec3: 12, vec2: 8, float: 4, int: 4, uint: 4, uvec3: 12, uint64_t: 8 };

/** The address fields of scene descriptions and the scene buffer each points into. */
const SCENE_ADDRESS_FIELDS: Record<string, SceneBufferKind> = {
  vertexAddress: 'vertices', indexAddress: 'indices', materialAddress: 'materials', materialIndexAddress: 'materialIndices',
};

interface Entry {
  key: string;
  name?: string;
  content: StorageBufferContent;
  module?: Module;
  block?: TypeId;
}

export function checkBufferReferenceLayouts(manifest: WorkloadManifest, modules: Module[]): string[] {
  const uses = modules.flatMap(addressUses);
  if (uses.length === 0) return [];
  const entries: Entry[] = [];
  manifest.descriptors.forEach((d, i) => {
    if (d.kind !== 'storageBuffer') return;
    const bound = modules.map((m) => ({ m, g: m.globals.find((g) => g.set === d.set && g.binding === d.binding && g.storage === 'storageBuffer') })).find((x) => x.g);
    const pt = bound ? typeOf(bound.m.types, bound.g!.type) : undefined;
    entries.push({
      key: `descriptors[${i}]`, content: d, ...(d.id !== undefined ? { name: d.id } : {}),
      ...(bound && pt?.kind === 'pointer' ? { module: bound.m, block: pt.pointee } : {}),
    });
  });
  for (const b of manifest.buffers ?? []) entries.push({ key: b.key, name: b.name, content: b.content });

  const layoutOf = (e: Entry): KnownLayout | undefined => {
    if (e.content.hostStruct) {
      const h = hostStructType(e.content.hostStruct, e.content.layout);
      return structLayout(h.types, h.elem, h.stride, 'hostStruct');
    }
    if (e.module && e.block !== undefined) {
      const ra = runtimeArrayMember(e.module.types, e.block);
      return ra ? structLayout(e.module.types, ra.elem, ra.stride, elemName(e.module.types, ra.elem)) : undefined;
    }
    if (e.content.struct) {
      for (const m of modules) {
        const s = structElementLayout(m.types, e.content.struct, e.content.layout);
        if (s) return structLayout(m.types, s.elem, s.stride, `struct ${e.content.struct}`);
      }
      return undefined;
    }
    if (e.content.element) {
      const { types, elem, stride } = elementType(e.content.element);
      return structLayout(types, elem, stride, e.content.element);
    }
    if (e.content.from === 'scene' && e.content.what) {
      // The fixed layout: the fields in SCENE_BUFFER_FIELDS order, tightly packed.
      const members = new Map<string, number>();
      let stride = 0;
      for (const [name, t] of Object.entries(SCENE_BUFFER_FIELDS[e.content.what])) {
        if (name !== '') members.set(name, stride);
        stride += FIXED_BYTES[t]!;
      }
      const only = SCENE_BUFFER_FIELDS[e.content.what][''];
      const component = only === 'uvec3' ? 'u32' : only === 'int' ? 'i32' : undefined;
      return {
        stride, ...(members.size > 0 ? { members } : {}), ...(component ? { component } : {}),
        what: `vvision's fixed ${e.content.what} layout (${Object.keys(SCENE_BUFFER_FIELDS[e.content.what]).join(', ')}; give "struct")`,
      };
    }
    return undefined;
  };
  const elementStruct = (e: Entry): string | undefined => {
    if (e.module && e.block !== undefined) {
      const ra = runtimeArrayMember(e.module.types, e.block);
      const t = ra ? typeOf(e.module.types, ra.elem) : undefined;
      return t?.kind === 'struct' ? t.name : undefined;
    }
    return e.content.struct;
  };
  const byName = (name: string) => entries.find((e) => e.name === name);
  const sceneBuffer = (kind: SceneBufferKind) => entries.find((e) => e.content.from === 'scene' && e.content.what === kind && e.content.model === undefined);

  const problems: string[] = [];
  const seen = new Set<string>();
  // Push constants hold addresses too (`uint64_t objects` of a push_constant block).
  const pushBlocks = new Set(modules.flatMap((m) => m.globals.filter((g) => g.storage === 'pushConstant').map((g) => {
    const t = typeOf(m.types, g.type);
    const b = t.kind === 'pointer' ? typeOf(m.types, t.pointee) : t;
    return b.kind === 'struct' ? b.name : '';
  })));
  const holders: { entry: Entry; structs: Set<string> }[] = entries
    .map((e) => ({ entry: e, structs: new Set([elementStruct(e)].filter((x): x is string => x !== undefined)) }))
    .filter((h) => h.structs.size > 0);
  if (manifest.pushConstants) {
    holders.push({
      entry: { key: 'pushConstants', content: { kind: 'storageBuffer', layout: 'std430', value: manifest.pushConstants } },
      // A member of the block itself, or of a struct inside it (`pcRay.sceneAddress`).
      structs: new Set([...pushBlocks, ...uses.map((u) => u.struct)]),
    });
  }
  for (const { entry: holder, structs } of holders) {
    for (const [member, target] of addressTargets(holder, manifest, sceneBuffer, byName)) {
      const targetLayout = layoutOf(target);
      if (!targetLayout) continue;
      for (const use of uses) {
        if (!structs.has(use.struct) || use.member !== member) continue;
        const reader = typeOf(use.module.types, use.reader);
        const ra = runtimeArrayMember(use.module.types, use.reader);
        if (reader.kind !== 'struct' || !ra) continue;
        const readerLayout = structLayout(use.module.types, ra.elem, ra.stride, elemName(use.module.types, ra.elem));
        const msg = compare(targetLayout, readerLayout);
        if (!msg) continue;
        const text = `${manifest.path}: ${target.key}${target.name ? ` ("${target.name}")` : ''}: ${msg}, but ${use.where} reads it through ${use.struct}.${member} as ${reader.name} (${holder.key} holds the address)`;
        if (!seen.has(text)) {
          seen.add(text);
          problems.push(text);
        }
      }
    }
  }
  return problems;
}

/** Member name -> the entry whose address that member holds, for one holder buffer. */
function addressTargets(
  holder: Entry, manifest: WorkloadManifest, sceneBuffer: (k: SceneBufferKind) => Entry | undefined, byName: (n: string) => Entry | undefined,
): [string, Entry][] {
  const out: [string, Entry][] = [];
  const add = (member: string, target: Entry | undefined) => {
    if (target && !out.some(([m, t]) => m === member && t === target)) out.push([member, target]);
  };
  const c = holder.content;
  const models = Math.max(1, manifest.scene?.models?.length ?? 1);
  if (c.from === 'scene' && (c.what === 'instanceDescriptions' || c.what === 'models')) {
    const known = sceneFields(c.what);
    const members = new Set([...Object.keys(known), ...Object.keys(c.fields ?? {})]);
    for (const member of members) {
      const field = c.fields?.[member] ?? member;
      if (typeof field === 'string') {
        const kind = SCENE_ADDRESS_FIELDS[field];
        if (kind) add(member, sceneBuffer(kind));
      } else if (typeof field === 'object' && !Array.isArray(field)) {
        for (let i = 0; i < models; i++) add(member, byName(field.addressOf.split(MODEL_PLACEHOLDER).join(String(i))));
      }
    }
    return out;
  }
  let value: unknown = c.value;
  if (c.data && JSON_DATA_FILE.test(c.data)) {
    try {
      value = readJsonDataFile(c.data, holder.key) as JsonValue;
    } catch {
      return out; // reported when the host reads it
    }
  }
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (x && typeof x === 'object' && !Array.isArray(x) && typeof (x as AddressOf).addressOf === 'string') add(k, byName((x as AddressOf).addressOf));
        else visit(x);
      }
    }
  };
  visit(value);
  return out;
}

function compare(written: KnownLayout, read: KnownLayout): string | undefined {
  // Tightly packed components of one width and kind hold the same bytes however they are grouped
  // (uint indices read as uvec3 or ivec3); int and uint of one width are the same bits.
  const bits = (c: string | undefined) => c?.replace(/^[iu]/, 'int');
  if (written.component !== undefined && bits(written.component) === bits(read.component)) return undefined;
  if (written.stride !== read.stride) {
    return `its elements are ${written.stride} bytes (${written.what}) and the shader's ${read.what} elements ${read.stride} bytes`;
  }
  if (!written.members || !read.members) return undefined;
  const moved = [...read.members].filter(([n, off]) => written.members!.has(n) && written.members!.get(n) !== off);
  if (moved.length === 0) return undefined;
  return `member offsets differ from the shader's ${read.what}: ${moved.map(([n, off]) => `${n} at ${written.members!.get(n)} vs ${off}`).join(', ')}`;
}

/**
 * Declared triangle geometry read from a named buffer (`"vertexData": {"buffer": name}`) whose
 * elements the host declares (`hostStruct`, or `struct`): a `vertexStride` other than that element
 * size reads positions out of step with the vertices the shaders see (a hostStruct member added or
 * resized without the stride). A buffer the manifest gives only as the shader's view (`vec4 v[]`)
 * is not compared: vertex pulling reads it at the host's stride by design.
 * Invariant: pure; one message per geometry, naming its key and the buffer's key.
 */
export function checkBlasVertexStrides(manifest: WorkloadManifest, modules: Module[]): string[] {
  const spec = manifest.accelerationStructures;
  if (!spec) return [];
  const named = new Map<string, { key: string; content: StorageBufferContent }>();
  manifest.descriptors.forEach((d, i) => {
    if (d.kind === 'storageBuffer' && d.id !== undefined) named.set(d.id, { key: `descriptors[${i}]`, content: d });
  });
  for (const b of manifest.buffers ?? []) named.set(b.name, { key: b.key, content: b.content });
  const elementSize = (c: StorageBufferContent): { bytes: number; what: string } | undefined => {
    if (c.hostStruct) return { bytes: hostStructType(c.hostStruct, c.layout).stride, what: 'its hostStruct' };
    if (c.struct) {
      for (const m of modules) {
        const s = structElementLayout(m.types, c.struct, c.layout);
        if (s) return { bytes: s.stride, what: `struct ${c.struct}` };
      }
    }
    return undefined;
  };
  const out: string[] = [];
  spec.blas.forEach((b, i) => b.geometries.forEach((g, j) => {
    if (g.type !== 'triangles' || !('buffer' in g.vertexData)) return;
    const target = named.get(g.vertexData.buffer);
    const size = target && elementSize(target.content);
    if (!size || size.bytes === g.vertexStride) return;
    out.push(
      `${manifest.path}: accelerationStructures.blas[${i}].geometries[${j}].vertexStride: ${g.vertexStride}, but buffer "${g.vertexData.buffer}" ` +
      `(${target.key}) holds ${size.bytes}-byte elements (${size.what}): the BLAS reads positions out of step with the vertices the shaders read`,
    );
  }));
  return out;
}
