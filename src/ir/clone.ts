/**
 * Deep copies of IR: a whole module with the same ids (snapshots, "before" copies in tests and
 * pass debugging), and a function copied inside its module with fresh ids (specialisation,
 * inlining, per-variant lowering).
 *
 * Invariants: copies share no objects with the original (mutating one never changes the other);
 * `cloneFunction` gives the function, its params, blocks and instructions fresh ids from
 * `m.nextId` and rewrites every reference inside the copy, while references to module-scope
 * values (constants, globals) and other functions stay as they are.
 */
import type { BlockId, FunctionId, ValueId } from './inst.js';
import type { Block, Function, Module } from './module.js';
import { freshId } from './module.js';
import { remapInst } from './remap.js';
import type { Type, TypeId } from './types.js';

function cloneType(t: Type): Type {
  switch (t.kind) {
    case 'struct':
      return { ...t, members: t.members.map((m) => ({ ...m })) };
    case 'function':
      return { ...t, params: [...t.params] };
    default:
      return { ...t };
  }
}

/** An independent copy with identical ids; prints identically to the original. */
export function cloneModule(m: Module): Module {
  const keep = <X>(x: X): X => x;
  const same = { value: keep<ValueId>, block: keep<BlockId>, fn: keep<FunctionId>, type: keep<TypeId> };
  return {
    types: { types: m.types.types.map(cloneType), nextStructUid: m.types.nextStructUid },
    constants: m.constants.map((c) => (c.parts ? { ...c, parts: [...c.parts] } : { ...c })),
    globals: m.globals.map((g) => ({ ...g, loc: { ...g.loc } })),
    functions: m.functions.map((f) => copyFunction(f, f.id, same)),
    entryPoints: m.entryPoints.map((e) => (e.localSize ? { ...e, localSize: [...e.localSize] as [number, number, number] } : { ...e })),
    sources: m.sources.map((s) => ({ ...s })),
    extensions: [...m.extensions],
    nextId: m.nextId,
  };
}

function copyFunction(
  f: Function,
  id: FunctionId,
  maps: { value(v: ValueId): ValueId; block(b: BlockId): BlockId; fn(x: FunctionId): FunctionId; type(t: TypeId): TypeId },
): Function {
  return {
    id,
    name: f.name,
    returnType: f.returnType,
    params: f.params.map((p) => ({ ...p, id: maps.value(p.id) })),
    blocks: f.blocks.map((b) => {
      const nb: Block = { id: maps.block(b.id), insts: b.insts.map((i) => remapInst(i, maps)) };
      if (b.name !== undefined) nb.name = b.name;
      if (b.merge) {
        nb.merge = b.merge.kind === 'selection'
          ? { kind: 'selection', merge: maps.block(b.merge.merge) }
          : { ...b.merge, merge: maps.block(b.merge.merge), continue: maps.block(b.merge.continue) };
      }
      return nb;
    }),
    loc: { ...f.loc },
  };
}

export interface ClonedFunction {
  fn: Function;
  /** Old id -> new id for params, blocks and instructions of the function. */
  idMap: Map<number, number>;
}

/**
 * Copies `fn` into `m` (appended to `m.functions`) under `name` with fresh ids. Recursive calls
 * to `fn` inside the copy keep calling the original.
 */
export function cloneFunction(m: Module, fn: Function, name = `${fn.name}.clone`): ClonedFunction {
  const idMap = new Map<number, number>();
  const fresh = (old: number): void => {
    idMap.set(old, freshId<number>(m));
  };
  const newFnId = freshId<FunctionId>(m);
  for (const p of fn.params) fresh(p.id);
  for (const b of fn.blocks) {
    fresh(b.id);
    for (const i of b.insts) fresh(i.id);
  }
  const through = <X extends number>(x: X): X => (idMap.get(x) ?? x) as X;
  const copy = copyFunction(fn, newFnId, { value: through, block: through, fn: (x) => x, type: (t) => t });
  copy.name = name;
  m.functions.push(copy);
  return { fn: copy, idMap };
}
