/**
 * Copies everything of one module (types, constants, globals, functions, sources) into another
 * with fresh ids: the first step of linking a ray tracing pipeline's stage modules into one module.
 *
 * Invariants kept: ids stay unique in the target (all taken from `target.nextId`); struct types are
 * re-declared (nominal: the same struct in two shaders stays two types, as in two SPIR-V modules);
 * `Loc.file` is rebased onto the target's source list; functions and globals get the `prefix` in
 * their names so the linked module says which shader each came from.
 */
import type { BlockId, FunctionId, ValueId } from '../../ir/inst.js';
import { freshId, type Function, type Global, type Module } from '../../ir/module.js';
import { remapInst } from '../../ir/remap.js';
import { declareStruct, intern, typeOf, type Type, type TypeId } from '../../ir/types.js';

export interface ImportedModule {
  /** Entry function ids (new), in the source module's entry point order. */
  entries: FunctionId[];
  value(id: ValueId): ValueId;
  fn(id: FunctionId): FunctionId;
  type(id: TypeId): TypeId;
  /** Index of the source module's first source file in `target.sources`. */
  sourceBase: number;
}

export function importModule(target: Module, src: Module, prefix: string): ImportedModule {
  const typeMap = new Map<TypeId, TypeId>();
  const mapType = (id: TypeId): TypeId => {
    const known = typeMap.get(id);
    if (known !== undefined) return known;
    const t = typeOf(src.types, id);
    let out: TypeId;
    if (t.kind === 'struct') {
      out = declareStruct(
        target.types,
        t.name,
        t.members.map((m) => ({ ...m, type: mapType(m.type) })),
        { layout: t.layout, block: t.block },
      );
    } else {
      out = intern(target.types, mapTypeFields(t, mapType));
    }
    typeMap.set(id, out);
    return out;
  };

  const values = new Map<number, number>();
  const newId = (old: number): number => {
    const id = freshId<number>(target);
    values.set(old, id);
    return id;
  };
  const value = (id: ValueId): ValueId => {
    const mapped = values.get(id);
    if (mapped === undefined) throw new Error(`import: ${prefix}: value %${id} has no definition`);
    return mapped as ValueId;
  };

  // Allocate ids for every definition first: constants may refer to later constants, and
  // functions call functions defined after them.
  for (const c of src.constants) newId(c.id);
  for (const g of src.globals) newId(g.id);
  for (const f of src.functions) {
    newId(f.id);
    for (const p of f.params) newId(p.id);
    for (const b of f.blocks) {
      newId(b.id);
      for (const i of b.insts) newId(i.id);
    }
  }
  const sourceBase = target.sources.length;
  for (const s of src.sources) target.sources.push({ ...s });
  const maps = {
    value,
    block: (id: BlockId) => value(id as unknown as ValueId) as unknown as BlockId,
    fn: (id: FunctionId) => value(id as unknown as ValueId) as unknown as FunctionId,
    type: mapType,
  };

  for (const c of src.constants) {
    const copy = { ...c, id: value(c.id), type: mapType(c.type) };
    if (c.parts) copy.parts = c.parts.map(value);
    target.constants.push(copy);
  }
  for (const g of src.globals) {
    const copy: Global = { ...g, id: value(g.id), type: mapType(g.type), name: g.name, loc: rebase(g.loc, sourceBase) };
    if (g.init !== undefined) copy.init = value(g.init);
    target.globals.push(copy);
  }
  for (const f of src.functions) {
    const copy: Function = {
      id: maps.fn(f.id),
      name: `${prefix}${f.name}`,
      returnType: mapType(f.returnType),
      params: f.params.map((p) => ({ ...p, id: value(p.id), type: mapType(p.type) })),
      blocks: f.blocks.map((b) => {
        const nb = { ...b, id: maps.block(b.id), insts: b.insts.map((i) => remapInst(i, maps)) };
        for (const i of nb.insts) i.loc = rebase(i.loc, sourceBase);
        if (b.merge) {
          nb.merge = b.merge.kind === 'loop'
            ? { ...b.merge, merge: maps.block(b.merge.merge), continue: maps.block(b.merge.continue) }
            : { ...b.merge, merge: maps.block(b.merge.merge) };
        }
        return nb;
      }),
      loc: rebase(f.loc, sourceBase),
    };
    target.functions.push(copy);
  }
  for (const e of src.extensions) if (!target.extensions.includes(e)) target.extensions.push(e);
  return { entries: src.entryPoints.map((e) => maps.fn(e.function)), value, fn: maps.fn, type: mapType, sourceBase };
}

function rebase<L extends { file: number }>(loc: L, base: number): L {
  return { ...loc, file: loc.file + base };
}

function mapTypeFields(t: Type, map: (id: TypeId) => TypeId): Type {
  switch (t.kind) {
    case 'vector':
      return { ...t, elem: map(t.elem) };
    case 'matrix':
      return { ...t, column: map(t.column) };
    case 'array':
    case 'runtimeArray':
      return { ...t, elem: map(t.elem) };
    case 'pointer':
      return { ...t, pointee: map(t.pointee) };
    case 'image':
      return { ...t, sampledType: map(t.sampledType) };
    case 'sampledImage':
      return { ...t, image: map(t.image) };
    case 'function':
      return { ...t, returnType: map(t.returnType), params: t.params.map(map) };
    default:
      return { ...t };
  }
}
