/**
 * Where Vulkan-Sim's PTX loads constants into registers. NIR has no immediate operands: spirv_to_nir
 * gives every use of a SPIR-V constant its own `load_const` before the using instruction, inlines
 * every function into the stage's entry point, and nir_opt_cse (lavapipe's `optimize` loop) keeps
 * one load_const per value where it dominates the others, so a constant is loaded where it is first
 * used on each dominator-tree path of the inlined shader. mesa-vulkan-sim's `translate_load_const`
 * (ptx_lower_instructions.py) turns each load_const into two movs (the typed value and its `_bits`
 * twin), which the using instruction then waits for.
 *
 * Here, for each shader stage (the entry point, and each stage function a lowered pipeline calls:
 * an intersection or hit shader loads its constants on each invocation, where it reaches them):
 * walking its dominator tree, an instruction is charged the constants among its operands that
 * nothing before it in its block or in a dominating block used, two movs per component; a call
 * stands for its inlined callee and is charged every constant the callee uses (through its own
 * calls) that is not loaded yet. Instructions of a callee are never charged themselves. What this
 * leaves out: a callee's constants first used inside a loop of the callee are reloaded on each
 * trip in Vulkan-Sim and charged once here, and a constant NIR's algebraic passes fold away is
 * still charged.
 */
import { walkDominatorScopes, type DomTree } from '../../ir/dominators.js';
import type { FunctionId, Inst, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';

/** PTX movs per constant component (translate_load_const: the value and its `_bits` register). */
export const MOVS_PER_CONSTANT = 2;

export class ConstantLoads {
  private readonly entries: Set<FunctionId>;
  private readonly fns: Map<FunctionId, Function>;
  private readonly used = new Map<FunctionId, ReadonlySet<ValueId>>();

  /**
   * `constantComponents(v)`: components of a constant operand (scalar 1, vector n), 0 for anything
   * else. `charged(inst)`: whether the instruction's constant operands are registers in the PTX (an
   * ALU op, a store's value, a call's argument), not an address offset.
   */
  constructor(
    m: Module,
    private readonly constantComponents: (v: ValueId) => number,
    private readonly charged: (inst: Inst) => boolean,
  ) {
    // Every shader stage is its own NIR shader: the ray generation entry point, and the stages a
    // lowered pipeline calls (Function.stage), each loading its constants on each invocation.
    this.entries = new Set([...m.entryPoints.map((e) => e.function), ...m.functions.filter((f) => f.stage !== undefined).map((f) => f.id)]);
    this.fns = new Map(m.functions.map((f) => [f.id, f]));
  }

  /** For each instruction of `fn` (dominator tree `dom`) charged constant loads, the components of the constants it loads first. */
  of(fn: Function, dom: DomTree): Map<Inst, number> {
    const out = new Map<Inst, number>();
    if (!this.entries.has(fn.id) || fn.blocks.length === 0) return out;
    const byId = new Map(fn.blocks.map((b) => [b.id, b]));
    const loaded = new Set<ValueId>();
    // A block's constants are unloaded when its subtree is done.
    walkDominatorScopes(dom, (block) => {
      const added: ValueId[] = [];
      for (const inst of byId.get(block)?.insts ?? []) {
        let components = 0;
        const load = (v: ValueId): void => {
          const n = this.constantComponents(v);
          if (n === 0 || loaded.has(v)) return;
          loaded.add(v);
          added.push(v);
          components += n;
        };
        if (this.charged(inst)) for (const v of operands(inst)) load(v);
        if (inst.op === 'call' && !this.entries.has(inst.callee)) for (const v of this.usedBy(inst.callee, new Set())) load(v);
        if (components > 0) out.set(inst, components);
      }
      return () => { for (const v of added) loaded.delete(v); };
    });
    return out;
  }

  /** The constants function `id` and its callees use in charged instructions. */
  private usedBy(id: FunctionId, visiting: Set<FunctionId>): ReadonlySet<ValueId> {
    const known = this.used.get(id);
    if (known !== undefined) return known;
    const fn = this.fns.get(id);
    const out = new Set<ValueId>();
    if (fn === undefined || visiting.has(id)) return out;
    visiting.add(id);
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (this.charged(inst)) for (const v of operands(inst)) if (this.constantComponents(v) > 0) out.add(v);
        if (inst.op === 'call' && !this.entries.has(inst.callee)) for (const v of this.usedBy(inst.callee, visiting)) out.add(v);
      }
    }
    visiting.delete(id);
    this.used.set(id, out);
    return out;
  }
}
