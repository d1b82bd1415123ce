/**
 * Leaves (32/64-bit components, as the layout counts them) of a composite type and the range a
 * chain of constant indices selects: what the NIR-modelling analyses (redundant-stores.ts,
 * dead-results.ts) track values and variables by.
 */
import type { ValueId } from '../../ir/inst.js';
import type { Module } from '../../ir/module.js';
import { typeOf, type TypeId, type TypeTable } from '../../ir/types.js';

/** A module's scalar numeric constants (the indices access chains take) and every constant's type, built once per module. */
export interface ModuleConstants {
  numbers: ReadonlyMap<ValueId, number>;
  types: ReadonlyMap<ValueId, TypeId>;
}

const constantsOf = new WeakMap<Module, ModuleConstants>();

export function moduleConstants(m: Module): ModuleConstants {
  let c = constantsOf.get(m);
  if (c === undefined) {
    c = {
      numbers: new Map(m.constants.flatMap((k) => (typeof k.value === 'number' ? [[k.id, k.value] as const] : []))),
      types: new Map(m.constants.map((k) => [k.id, k.type])),
    };
    constantsOf.set(m, c);
  }
  return c;
}

/** The leaves of the member `indices` select in `type`: its first leaf and its type; undefined where an index is unknown. */
export function leafPath(types: TypeTable, leafCount: (t: TypeId) => number, type: TypeId, indices: readonly (number | undefined)[]): { first: number; type: TypeId } | undefined {
  let first = 0;
  let cur = type;
  for (const c of indices) {
    if (c === undefined) return undefined;
    const t = typeOf(types, cur);
    if (t.kind === 'struct') {
      const member = t.members[c];
      if (member === undefined) return undefined;
      for (let j = 0; j < c; j++) first += leafCount(t.members[j]!.type);
      cur = member.type;
    } else if (t.kind === 'vector' || t.kind === 'array' || t.kind === 'matrix') {
      const elem = t.kind === 'matrix' ? t.column : t.elem;
      first += c * leafCount(elem);
      cur = elem;
    } else {
      return undefined;
    }
  }
  return { first, type: cur };
}
