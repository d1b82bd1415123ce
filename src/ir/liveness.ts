/**
 * SSA liveness: which values of a function are live across chosen instructions (backward
 * dataflow over the CFG; a phi's operand is live at the end of its predecessor), and the register
 * words they occupy. Used for ray virtualization (paper 001 Sec. 4.1, 5): the registers a CTA must
 * save when it is terminated at a traceRay are the values live across it.
 *
 * Invariants: side table keyed by instruction id, computed on demand (never cached in the IR); a
 * value is live across an instruction iff it is defined before it on some path and used after it
 * on some path, and is not the instruction's own result.
 */
import { buildCfg } from './cfg.js';
import { type BlockId, type Inst, operands, type ValueId } from './inst.js';
import type { Function, Module } from './module.js';
import { type TypeId, typeOf, type TypeTable } from './types.js';

/** For each instruction `at` selects: the function's values live across it. */
export function liveAcross(fn: Function, at: (inst: Inst) => boolean): Map<ValueId, Set<ValueId>> {
  const local = new Set<ValueId>();
  for (const p of fn.params) local.add(p.id);
  for (const b of fn.blocks) for (const i of b.insts) local.add(i.id);
  const cfg = buildCfg(fn);
  const byId = new Map(fn.blocks.map((b) => [b.id, b]));
  const uses = (i: Inst): ValueId[] => (i.op === 'phi' ? [] : operands(i).filter((v) => local.has(v)));
  /** Values a block's phis take from predecessor `from`. */
  const phiUses = (succ: BlockId, from: BlockId): ValueId[] => {
    const out: ValueId[] = [];
    for (const i of byId.get(succ)!.insts) {
      if (i.op !== 'phi') break;
      for (const inc of i.incoming) if (inc.block === from && local.has(inc.value)) out.push(inc.value);
    }
    return out;
  };
  const liveIn = new Map<BlockId, Set<ValueId>>();
  const liveOut = new Map<BlockId, Set<ValueId>>();
  for (const b of cfg.blocks) {
    liveIn.set(b, new Set());
    liveOut.set(b, new Set());
  }
  const transfer = (b: BlockId, out: Set<ValueId>): Set<ValueId> => {
    const live = new Set(out);
    const insts = byId.get(b)!.insts;
    for (let k = insts.length - 1; k >= 0; k--) {
      const i = insts[k]!;
      live.delete(i.id);
      for (const v of uses(i)) live.add(v);
    }
    return live;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let k = cfg.rpo.length - 1; k >= 0; k--) {
      const b = cfg.rpo[k]!;
      const out = new Set<ValueId>();
      for (const s of cfg.succs.get(b)!) {
        for (const v of liveIn.get(s)!) out.add(v);
        for (const v of phiUses(s, b)) out.add(v);
      }
      const inn = transfer(b, out);
      if (inn.size !== liveIn.get(b)!.size || out.size !== liveOut.get(b)!.size) changed = true;
      liveIn.set(b, inn);
      liveOut.set(b, out);
    }
  }
  const result = new Map<ValueId, Set<ValueId>>();
  for (const b of cfg.blocks) {
    const insts = byId.get(b)!.insts;
    const live = new Set(liveOut.get(b)!);
    for (let k = insts.length - 1; k >= 0; k--) {
      const i = insts[k]!;
      live.delete(i.id);
      if (at(i)) result.set(i.id, new Set(live));
      for (const v of uses(i)) live.add(v);
    }
  }
  return result;
}

/** 32-bit register words of a value of type `t`; a function variable counts its pointee. */
export function registerWords(types: TypeTable, t: TypeId, variable = false): number {
  const ty = typeOf(types, t);
  switch (ty.kind) {
    case 'void':
      return 0;
    case 'bool':
      return 1;
    case 'int':
    case 'float':
      return ty.width === 64 ? 2 : 1;
    case 'vector':
      return ty.count * registerWords(types, ty.elem);
    case 'matrix':
      return ty.columns * registerWords(types, ty.column);
    case 'array':
      return ty.length * registerWords(types, ty.elem);
    case 'struct':
      return ty.members.reduce((s, m) => s + registerWords(types, m.type), 0);
    case 'pointer':
      // A local variable lives in registers; a pointer derived from one is re-derived; others are 64-bit addresses.
      if (variable) return registerWords(types, ty.pointee);
      return ty.storage === 'function' ? 0 : 2;
    default:
      return 2;
  }
}

/**
 * The most register words live across any traceRay of the module's functions (per thread): the
 * state ray virtualization saves when a CTA is terminated at its traceRay. 0 when the module
 * traces no ray.
 */
export function registersLiveAtTraceRay(m: Module): number {
  let most = 0;
  for (const fn of m.functions) {
    if (!fn.blocks.some((b) => b.insts.some((i) => i.op === 'traceRay'))) continue;
    const defs = new Map<ValueId, Inst>();
    for (const b of fn.blocks) for (const i of b.insts) defs.set(i.id, i);
    const paramTypes = new Map(fn.params.map((p) => [p.id, p.type]));
    for (const live of liveAcross(fn, (i) => i.op === 'traceRay').values()) {
      let words = 0;
      for (const v of live) {
        const d = defs.get(v);
        words += d ? registerWords(m.types, d.type, d.op === 'variable') : registerWords(m.types, paramTypes.get(v)!);
      }
      most = Math.max(most, words);
    }
  }
  return most;
}
