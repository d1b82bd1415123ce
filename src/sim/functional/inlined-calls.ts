/**
 * What NIR's function inlining removes from Vulkan-Sim's PTX. mesa's `vk_spirv_to_nir` (vk_nir.c)
 * runs nir_lower_returns and nir_inline_functions on every shader before lavapipe's passes, and
 * nir_lower_vars_to_ssa then turns the callee's parameters and the caller's argument temporaries
 * (glslang passes every `in` / `inout` / `out` argument through a function-storage variable) into
 * SSA values. So a call to a GLSL function issues no call, no ret and no load or store of its
 * arguments in Vulkan-Sim; only the shader stages the lowered pipeline calls
 * (call_intersection_shader, call_closest_hit_shader, call_miss_shader ... ret) remain calls.
 *
 * Here the functional core still runs a GLSL function as a call (its steps are the callee's
 * pieces), so the timing model charges such a call, its returns and the traffic through its pointer
 * arguments nothing, and carries values across the boundary through register-table keys instead:
 * - `inlinedRoot`: every function-storage variable whose pointer escapes only as an argument of
 *   inlined calls, and every pointer parameter of an inlined function, belongs to a class (the
 *   variables and parameters one argument position connects, merged); loads and stores through
 *   any member are register moves of that class, as through a register-promoted variable.
 * - by-value arguments are read by the callee under their parameter's id;
 * - a returned value is read by the caller under `returnKey(callee)`.
 */
import type { FunctionId, Inst, ValueId } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';
import { typeOf } from '../../ir/types.js';
import { escapingOperands, rootsThroughAccessChains } from './promoted-vars.js';

/** Register-table key of the value an inlined function returns (above SSA ids and promoted-variable keys). */
export function returnKey(fn: FunctionId): number {
  return RETURN_KEY_BASE + fn;
}

/** Roots of inlined classes, as `promotedRoot` reports them: above every register slot. */
export const INLINED_ROOT_BASE = 2 ** 28;
const RETURN_KEY_BASE = 2 ** 30 + 2 ** 29;

export class InlinedCalls {
  private readonly stageFns = new Set<FunctionId>();
  private readonly fns = new Map<FunctionId, Function>();
  /** Pointer value (variable, parameter, or access chain on one) -> its class's root. */
  private readonly rootOf = new Map<ValueId, number>();
  /** The same pointer -> the variable or parameter of its own function it derives from. */
  private readonly baseOf = new Map<ValueId, ValueId>();

  /** `promoted(fn)`: the variables of fn that are register-promoted already (promoted-vars.ts). */
  constructor(m: Module, promoted: (fn: Function) => ReadonlySet<ValueId>) {
    for (const e of m.entryPoints) this.stageFns.add(e.function);
    for (const f of m.functions) {
      this.fns.set(f.id, f);
      if (f.stage !== undefined) this.stageFns.add(f.id);
    }
    this.classify(m, promoted);
  }

  /** Whether NIR inlines function `fn` (it is no shader stage's entry). */
  inlines(fn: FunctionId): boolean {
    return !this.stageFns.has(fn) && this.fns.has(fn);
  }

  /** Whether `inst` is a call NIR inlines. */
  isInlinedCall(inst: Inst): boolean {
    return inst.op === 'call' && this.inlines(inst.callee);
  }

  /** The class root (INLINED_ROOT_BASE + class) of a pointer whose traffic becomes SSA values, or -1. */
  inlinedRoot(ptr: ValueId): number {
    return this.rootOf.get(ptr) ?? -1;
  }

  /** For a pointer with an inlined root, the variable or parameter of its function it derives from. */
  basePointer(ptr: ValueId): ValueId | undefined {
    return this.baseOf.get(ptr);
  }

  /** The callee's parameters a call passes by value, with the argument each receives. */
  byValueArgs(call: Extract<Inst, { op: 'call' }>): { param: ValueId; arg: ValueId }[] {
    const callee = this.fns.get(call.callee);
    if (callee === undefined) return [];
    const out: { param: ValueId; arg: ValueId }[] = [];
    call.args.forEach((arg, j) => {
      const p = callee.params[j];
      if (p !== undefined && !this.rootOf.has(p.id)) out.push({ param: p.id, arg });
    });
    return out;
  }

  private classify(m: Module, promoted: (fn: Function) => ReadonlySet<ValueId>): void {
    const parent = new Map<ValueId, ValueId>();
    const find = (v: ValueId): ValueId => {
      let r = v;
      while (parent.get(r) !== r) r = parent.get(r)!;
      parent.set(v, r);
      return r;
    };
    const union = (a: ValueId, b: ValueId): void => {
      parent.set(find(a), find(b));
    };
    const constants = new Set<ValueId>(m.constants.map((c) => c.id));
    /** Candidate root -> the pointer values derived from it (itself and its access chains). */
    const derived = new Map<ValueId, ValueId[]>();
    /** Candidate roots that stay in memory: after inlining, their whole class does. */
    const escaped = new Set<ValueId>();
    /** Argument position links: the caller's pointer (its root, if a candidate) and the callee's parameter. */
    const links: [ValueId | undefined, ValueId][] = [];
    for (const f of m.functions) {
      const own = promoted(f);
      const rootIn = new Map<ValueId, ValueId>();
      if (this.inlines(f.id)) {
        for (const p of f.params) {
          const t = typeOf(m.types, p.type);
          if (t.kind === 'pointer' && t.storage === 'function') rootIn.set(p.id, p.id);
        }
      }
      for (const b of f.blocks) {
        for (const inst of b.insts) {
          if (inst.op === 'variable' && !own.has(inst.id) && inst.init === undefined) {
            const t = typeOf(m.types, inst.type);
            if (t.kind === 'pointer' && t.storage === 'function') rootIn.set(inst.id, inst.id);
          }
        }
      }
      rootsThroughAccessChains(f, rootIn);
      const escape = (v: ValueId): void => {
        const r = rootIn.get(v);
        if (r !== undefined) escaped.add(r);
      };
      for (const b of f.blocks) {
        for (const inst of b.insts) {
          if (inst.op === 'call' && this.inlines(inst.callee)) {
            const callee = this.fns.get(inst.callee)!;
            inst.args.forEach((a, j) => {
              const p = callee.params[j];
              if (p !== undefined) links.push([rootIn.get(a), p.id]);
            });
            continue;
          }
          for (const v of escapingOperands(inst)) escape(v);
          // A dynamic index keeps the variable in memory (or NIR's bcsel chains): not an SSA value.
          if (inst.op === 'accessChain' && inst.indices.some((i) => !constants.has(i))) escape(inst.base);
        }
      }
      for (const [v, r] of rootIn) {
        parent.set(r, r);
        if (!derived.has(r)) derived.set(r, []);
        derived.get(r)!.push(v);
      }
    }
    // After inlining, an argument's pointer and the callee's parameter are the same variable.
    for (const [a, p] of links) {
      if (!parent.has(p)) continue;
      if (a === undefined) escaped.add(p);
      else union(a, p);
    }
    const escapedClasses = new Set([...escaped].map(find));
    const classOf = new Map<ValueId, number>();
    for (const [r, vs] of derived) {
      const c = find(r);
      if (escapedClasses.has(c)) continue;
      if (!classOf.has(c)) classOf.set(c, INLINED_ROOT_BASE + classOf.size);
      for (const v of vs) {
        this.rootOf.set(v, classOf.get(c)!);
        this.baseOf.set(v, r);
      }
    }
  }
}
