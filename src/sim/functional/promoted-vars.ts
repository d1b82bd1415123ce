/**
 * Register promotion of function-storage variables (scalar replacement): a `variable` whose
 * pointer never escapes (it and every access chain derived from it are only used as the pointer
 * of loads, stores and further access chains) lives in register-file slots, one per leaf,
 * instead of private memory. The front end emits a load/store per local access, so this is where
 * most of the simulator's speed comes from.
 *
 * Invariants:
 * - A promoted pointer value is a *leaf offset* relative to the variable's first slot; access
 *   chains with constant indices are folded at compile time (`constLeaf`), dynamic ones compute
 *   the offset at run time after checking the index against the array / vector length.
 * - Inside one lane segment, loads and stores of statically addressed leaves are forwarded
 *   through JS locals (`SegmentCache`); dirty leaves are written back to the register file at
 *   the end of the segment, and before any dynamically indexed access of the same variable.
 * - Accesses are register traffic (OpClass.Register); they are never memory sites.
 */
import type { Function } from '../../ir/module.js';
import type { Inst, InstOf, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import { typeOf, type TypeId, type TypeTable } from '../../ir/types.js';
import { OpClass } from '../warp-step.js';
import type { EmitContext } from './emit-context.js';
import type { LayoutTable } from './layout.js';
import { SimError } from './errors.js';

/**
 * Extends `rootOf` (pointer -> the variable or parameter it derives from) to every access chain
 * on a pointer it holds. Access chains come after their base in dominance order, but layout order
 * may differ: iterates to a fixpoint.
 */
export function rootsThroughAccessChains(fn: Function, rootOf: Map<ValueId, ValueId>): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op !== 'accessChain' || rootOf.has(inst.id)) continue;
        const r = rootOf.get(inst.base);
        if (r !== undefined) {
          rootOf.set(inst.id, r);
          changed = true;
        }
      }
    }
  }
}

/**
 * The operands of `inst` whose pointer escapes (is kept past an SSA use): a store's value, an
 * access chain's indices, every operand of anything else but a load (a variable's initializer,
 * a call's arguments). A load's or store's pointer and an access chain's base do not escape.
 */
export function escapingOperands(inst: Inst): readonly ValueId[] {
  switch (inst.op) {
    case 'load':
      return [];
    case 'store':
      return [inst.value];
    case 'accessChain':
      return inst.indices;
    default:
      return operands(inst);
  }
}

/** Variables whose pointers never escape. */
export function promotableVariables(fn: Function): Set<ValueId> {
  const rootOf = new Map<ValueId, ValueId>();
  const candidates = new Set<ValueId>();
  for (const b of fn.blocks) {
    for (const inst of b.insts) {
      if (inst.op === 'variable') {
        candidates.add(inst.id);
        rootOf.set(inst.id, inst.id);
      }
    }
  }
  rootsThroughAccessChains(fn, rootOf);
  const escape = (v: ValueId): void => {
    const r = rootOf.get(v);
    if (r !== undefined) candidates.delete(r);
  };
  for (const b of fn.blocks) for (const inst of b.insts) for (const v of escapingOperands(inst)) escape(v);
  return candidates;
}

/** Store-to-load forwarding state of one lane segment. */
export class SegmentCache {
  /** Absolute slot -> JS local holding its current value. */
  private readonly values = new Map<number, string>();
  private readonly dirty = new Set<number>();

  constructor(private readonly lines: string[]) {}

  get(slot: number): string | undefined {
    return this.values.get(slot);
  }

  set(slot: number, local: string, isDirty: boolean): void {
    this.values.set(slot, local);
    if (isDirty) this.dirty.add(slot);
  }

  /** Writes back dirty slots in [from, to) (all when omitted); `forget` also drops them from the cache. */
  flush(from = 0, to = Infinity, forget = false): void {
    for (const s of [...this.dirty]) {
      if (s < from || s >= to) continue;
      this.lines.push(`R[${s * 32} + l] = ${this.values.get(s)};`);
      this.dirty.delete(s);
    }
    if (forget) for (const s of [...this.values.keys()]) if (s >= from && s < to) this.values.delete(s);
  }
}

export interface PromotedPtr {
  /** First register slot of the variable. */
  slot: number;
  /** Slots of the variable (its leaf count). */
  size: number;
  /** Leaf offset when static; undefined when the pointer value holds it. */
  constLeaf: number | undefined;
  pointee: TypeId;
}

/** Leaf count of one element / member step, for leaf-offset arithmetic. */
function stepInto(types: TypeTable, layout: LayoutTable, cur: TypeId, idx: number | undefined): { elem: TypeId; before: number; stride: number; length: number } {
  const t = typeOf(types, cur);
  switch (t.kind) {
    case 'struct': {
      if (idx === undefined) throw new SimError('internal', 'struct member index must be a constant');
      let before = 0;
      for (let i = 0; i < idx; i++) before += layout.leavesOf(t.members[i]!.type).length;
      return { elem: t.members[idx]!.type, before, stride: 0, length: t.members.length };
    }
    case 'array':
      return { elem: t.elem, before: 0, stride: layout.leavesOf(t.elem).length, length: t.length };
    case 'vector':
      return { elem: t.elem, before: 0, stride: 1, length: t.count };
    case 'matrix':
      return { elem: t.column, before: 0, stride: layout.leavesOf(t.column).length, length: t.columns };
    default:
      throw new SimError('internal', `access chain into ${t.kind}`);
  }
}

/** Emits an access chain on a promoted pointer; returns the result's pointer info. */
export function promotedAccessChain(ctx: EmitContext, inst: InstOf<'accessChain'>, base: PromotedPtr): PromotedPtr {
  ctx.setClass(OpClass.Alu);
  let cur = base.pointee;
  let constPart = base.constLeaf ?? 0;
  const terms: string[] = base.constLeaf === undefined ? [ctx.read(inst.base, 0)] : [];
  for (const v of inst.indices) {
    const c = ctx.constantValue(v);
    const ci = typeof c === 'number' ? c : undefined;
    const s = stepInto(ctx.module.types, ctx.layout, cur, ci);
    if (typeOf(ctx.module.types, cur).kind === 'struct') {
      constPart += s.before;
    } else if (ci !== undefined && ci >= 0 && ci < s.length) {
      constPart += ci * s.stride;
    } else {
      const t = ctx.tmp('i');
      ctx.line(`const ${t} = ${ctx.read(v, 0)};`);
      ctx.line(`if (!(${t} >= 0 && ${t} < ${s.length})) W.indexOob(${ctx.site(inst)}, l, ${t}, ${s.length});`);
      terms.push(`${t} * ${s.stride}`);
    }
    cur = s.elem;
  }
  const pointee = cur;
  if (terms.length === 0) {
    ctx.def(inst.id, [String(constPart)]);
    return { slot: base.slot, size: base.size, constLeaf: constPart, pointee };
  }
  ctx.def(inst.id, [`(${[...terms, String(constPart)].join(' + ')})`]);
  return { slot: base.slot, size: base.size, constLeaf: undefined, pointee };
}

export function promotedLoad(ctx: EmitContext, cache: SegmentCache, p: PromotedPtr, ptr: ValueId, n: number): string[] {
  ctx.setClass(OpClass.Register);
  if (p.constLeaf !== undefined) {
    const out: string[] = [];
    for (let k = 0; k < n; k++) {
      const s = p.slot + p.constLeaf + k;
      let local = cache.get(s);
      if (!local) {
        local = ctx.tmp('r');
        ctx.line(`const ${local} = R[${s * 32} + l];`);
        cache.set(s, local, false);
      }
      out.push(local);
    }
    return out;
  }
  cache.flush(p.slot, p.slot + p.size);
  const d = ctx.tmp('d');
  ctx.line(`const ${d} = (${p.slot} + ${ctx.read(ptr, 0)}) * 32 + l;`);
  return Array.from({ length: n }, (_, k) => {
    const t = ctx.tmp('r');
    ctx.line(`const ${t} = R[${d} + ${k * 32}];`);
    return t;
  });
}

export function promotedStore(ctx: EmitContext, cache: SegmentCache, p: PromotedPtr, ptr: ValueId, exprs: string[]): void {
  ctx.setClass(OpClass.Register);
  const vals = exprs.map((e) => {
    const t = ctx.tmp('s');
    ctx.line(`const ${t} = ${e};`);
    return t;
  });
  if (p.constLeaf !== undefined) {
    vals.forEach((v, k) => cache.set(p.slot + p.constLeaf! + k, v, true));
    return;
  }
  cache.flush(p.slot, p.slot + p.size, true);
  const d = ctx.tmp('d');
  ctx.line(`const ${d} = (${p.slot} + ${ctx.read(ptr, 0)}) * 32 + l;`);
  vals.forEach((v, k) => ctx.line(`R[${d} + ${k * 32}] = ${v};`));
}
