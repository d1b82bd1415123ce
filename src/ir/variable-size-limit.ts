/**
 * vvision's limit on the size of one per-invocation variable (function or private storage): at
 * most MAX_VARIABLE_SCALARS scalar components. The simulator holds such a variable per lane and
 * flattens whole values of it into scalars (src/sim/functional/layout.ts), so a larger one cannot
 * run; both front ends refuse it where it is declared, before anything is simulated, rather than
 * the run failing later with no location. glslang accepts any size (Vulkan sets no limit on
 * function memory); real drivers spill such arrays to scratch memory.
 */
import type { Inst, Loc } from './inst.js';
import type { Module } from './module.js';
import { typeName, typeOf, type TypeId, type TypeTable } from './types.js';

/** Scalar components of one function or private variable (bool, int and float each count 1). */
export const MAX_VARIABLE_SCALARS = 4096;

/** Scalar components of a value of type `id`, by arithmetic (a `uint[100000000]` costs nothing to size). */
export function scalarComponents(table: TypeTable, id: TypeId): number {
  const t = typeOf(table, id);
  switch (t.kind) {
    case 'vector': return t.count;
    case 'matrix': return t.columns * scalarComponents(table, t.column);
    case 'array': return t.length * scalarComponents(table, t.elem);
    case 'struct': return t.members.reduce((n, m) => n + scalarComponents(table, m.type), 0);
    case 'runtimeArray': return 0;
    case 'void': return 0;
    default: return 1;
  }
}

export interface OversizedVariable {
  /** The variable instruction's or private global's id. */
  id: number;
  /** The name the source gives it, if any. */
  name?: string;
  loc: Loc;
  type: TypeId;
  scalars: number;
}

/** Function-storage `variable` instructions and private globals holding more than MAX_VARIABLE_SCALARS scalars. */
export function oversizedVariables(m: Module): OversizedVariable[] {
  const out: OversizedVariable[] = [];
  const check = (id: number, ptrType: TypeId, loc: Loc, name: string | undefined): void => {
    const p = typeOf(m.types, ptrType);
    if (p.kind !== 'pointer') return;
    const scalars = scalarComponents(m.types, p.pointee);
    if (scalars > MAX_VARIABLE_SCALARS) out.push({ id, ...(name !== undefined ? { name } : {}), loc, type: p.pointee, scalars });
  };
  for (const g of m.globals) if (g.storage === 'private') check(g.id, g.type, g.loc, g.name);
  for (const f of m.functions) {
    for (const b of f.blocks) {
      for (const i of b.insts) if (i.op === 'variable') check(i.id, i.type, i.loc, (i as Extract<Inst, { op: 'variable' }>).name);
    }
  }
  return out;
}

/** `variable 'a' of type uint[100000000] holds 100000000 scalar components; ...` */
export function describeOversizedVariable(m: Module, v: OversizedVariable): string {
  const what = v.name !== undefined && v.name !== '' ? `variable '${v.name}'` : 'a temporary';
  return `${what} of type ${typeName(m.types, v.type)} holds ${v.scalars} scalar components; vvision's limit is ${MAX_VARIABLE_SCALARS} per function or private variable (the simulator keeps each one per lane; use a storage buffer for large tables)`;
}
