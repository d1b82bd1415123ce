/**
 * The instructions of a function that NIR's common-subexpression elimination removes from the PTX
 * Vulkan-Sim runs (nir_opt_cse in lavapipe's `optimize` loop, after nir_lower_vars_to_ssa): an
 * instruction computing what a dominating instruction already computed from the same values. Our
 * IR is the GLSL as written, so `sqrt(d)` written twice, or a division by `a` in two places (NIR's
 * frcp of `a` then one reciprocal), are two instructions here and one there.
 *
 * Values are numbered over the dominator tree. An operand is taken at its number: a register-
 * promoted variable stored exactly once (a GLSL `const` local, most locals) reads, wherever that
 * store dominates the load, the value stored. Pure operations (ALU, comparison, selection,
 * conversion, GLSL.std450 functions, access chains) with the same opcode, type and operand numbers
 * as one in a dominating position are redundant.
 *
 * What this leaves out: NIR also numbers across inlined callees, through phis and variables
 * stored more than once, and loads it may reorder (uniform buffers, system values), so it removes
 * some instructions this keeps.
 */
import { walkDominatorScopes, type DomTree } from '../../ir/dominators.js';
import type { BlockId, Inst, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import type { Function } from '../../ir/module.js';

export interface Redundancy {
  /** Each redundant instruction, to the value (of a dominating instruction) it duplicates. */
  duplicates: Map<Inst, ValueId>;
  /**
   * Divisions whose divisor a dominating division already took the reciprocal of: NIR lowers
   * a / b to a * frcp(b), and CSE keeps one frcp(b), so these are the mul alone.
   */
  sharedReciprocal: Set<Inst>;
  /** The number of a value: the dominating value it equals (itself where none). */
  numberOf(v: ValueId): ValueId;
}

/**
 * What NIR's CSE removes from `fn`, whose dominator tree is `dom`; `promoted`: the function's
 * register-promoted variables; `isFloat`: whether a divisor is a float (its reciprocal is an frcp).
 */
export function redundantInstructions(fn: Function, dom: DomTree, promoted: ReadonlySet<ValueId>, isFloat: (v: ValueId) => boolean = () => true): Redundancy {
  const out = new Map<Inst, ValueId>();
  const sharedReciprocal = new Set<Inst>();
  if (fn.blocks.length === 0) return { duplicates: out, sharedReciprocal, numberOf: (v) => v };
  const blockOf = new Map<Inst, BlockId>();
  const position = new Map<Inst, number>();
  for (const b of fn.blocks) b.insts.forEach((inst, i) => { blockOf.set(inst, b.id); position.set(inst, i); });
  const single = singleStores(fn, promoted);
  /** Value -> its number (a value numbered by itself is absent). */
  const number = new Map<ValueId, ValueId>();
  const num = (v: ValueId): ValueId => number.get(v) ?? v;
  const byId = new Map(fn.blocks.map((b) => [b.id, b]));
  const table = new Map<string, ValueId>();
  // A block's keys leave the table when its subtree is done.
  walkDominatorScopes(dom, (block) => {
    const added: string[] = [];
    for (const inst of byId.get(block)?.insts ?? []) {
      if (inst.op === 'load') {
        const store = single.get(inst.ptr);
        if (store !== undefined && precedes(store, inst, blockOf, position, dom)) number.set(inst.id, num((store as Extract<Inst, { op: 'store' }>).value));
        continue;
      }
      if (inst.op === 'binary' && inst.kind === 'div' && isFloat(inst.b)) {
        const rcp = `rcp:${inst.type}:${num(inst.b)}`;
        if (table.has(rcp)) sharedReciprocal.add(inst);
        else {
          table.set(rcp, inst.id);
          added.push(rcp);
        }
      }
      const key = keyOf(inst, num);
      if (key === undefined || !('id' in inst)) continue;
      const seen = table.get(key);
      if (seen !== undefined) {
        out.set(inst, seen);
        number.set(inst.id, seen);
      } else {
        table.set(key, inst.id);
        added.push(key);
      }
    }
    return () => { for (const k of added) table.delete(k); };
  });
  return { duplicates: out, sharedReciprocal, numberOf: num };
}

/** The numbering key of a pure instruction, undefined for any other. */
function keyOf(inst: Inst, num: (v: ValueId) => ValueId): string | undefined {
  const args = (): string => operands(inst).map(num).join(',');
  switch (inst.op) {
    case 'binary':
    case 'unary':
    case 'compare':
    case 'test':
      return `${inst.op}:${inst.kind}:${inst.type}:${args()}`;
    case 'ext':
    case 'bits':
      return `${inst.op}:${inst.fn}:${inst.type}:${args()}`;
    case 'convert':
    case 'select':
    case 'accessChain':
      return `${inst.op}:${inst.type}:${args()}`;
    default:
      return undefined;
  }
}

/** Whether `store` comes before `load` on every path: in a dominating block, or earlier in the same one. */
function precedes(store: Inst, load: Inst, blockOf: Map<Inst, BlockId>, position: Map<Inst, number>, dom: DomTree): boolean {
  const sb = blockOf.get(store)!;
  const lb = blockOf.get(load)!;
  if (sb === lb) return position.get(store)! < position.get(load)!;
  return dom.dominates(sb, lb);
}

/** Promoted variables written by exactly one whole-variable store (and nothing else), to that store. */
function singleStores(fn: Function, promoted: ReadonlySet<ValueId>): Map<ValueId, Inst> {
  const root = new Map<ValueId, ValueId>();
  for (const v of promoted) root.set(v, v);
  let changed = true;
  while (changed) {
    changed = false;
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op === 'accessChain' && !root.has(inst.id) && root.has(inst.base)) {
          root.set(inst.id, root.get(inst.base)!);
          changed = true;
        }
      }
    }
  }
  const store = new Map<ValueId, Inst>();
  const partial = new Set<ValueId>();
  for (const b of fn.blocks) {
    for (const inst of b.insts) {
      if (inst.op === 'variable' && promoted.has(inst.id) && inst.init !== undefined) partial.add(inst.id);
      if (inst.op !== 'store') continue;
      const r = root.get(inst.ptr);
      if (r === undefined) continue;
      // A second whole store disqualifies the variable as a partial one does.
      if (r !== inst.ptr || store.has(r)) partial.add(r);
      else store.set(r, inst);
    }
  }
  for (const v of partial) store.delete(v);
  return store;
}
