/**
 * Where Vulkan-Sim's PTX materializes a value that NIR loads once per dominator path: a constant,
 * or a buffer's descriptor. NIR has no immediate operands: spirv_to_nir gives every use of a
 * SPIR-V constant its own `load_const` before the using instruction (and each access to a buffer
 * its own `vulkan_resource_index` and `load_vulkan_descriptor`), vk_nir.c inlines every function
 * into the stage's entry point, and nir_opt_cse (lavapipe's `optimize` loop) keeps one of each
 * where it dominates the others. So a value is loaded where it is first used on each dominator-
 * tree path of the inlined shader, and again on every trip of a loop whose body has that first
 * use (NIR's CSE does not hoist). mesa-vulkan-sim's `translate_load_const`
 * (ptx_lower_instructions.py) turns each load_const into two movs (the typed value and its `_bits`
 * twin); a descriptor is three PTX instructions (ptx-ops-of.ts, DESCRIPTOR_PTX).
 *
 * Here, for each shader stage (the entry point, and each stage function a lowered pipeline calls:
 * an intersection or hit shader loads its own on each invocation): walking its dominator tree, an
 * instruction is charged the values among its operands that nothing before it in its block or in
 * a dominating block used. A function NIR inlines is compiled once for all its call sites, so its
 * instructions are charged from the values loaded at every one of its call sites (the
 * intersection of the sets the callers' walks reach them with): exact where the call sites agree,
 * and where they do not, the charge of the call site that loaded least. After a call, what the
 * callee loads on every path to its return is loaded in the caller. A call is charged only its
 * own operands (a constant argument's load_const sits before the call).
 */
import { buildCfg } from '../../ir/cfg.js';
import { dominatorTree, walkDominatorScopes, type DomTree } from '../../ir/dominators.js';
import type { FunctionId, Inst, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';

/** PTX movs per constant component (translate_load_const: the value and its `_bits` register). */
export const MOVS_PER_CONSTANT = 2;

/** One function's walk: its instructions' charges, what is loaded at each call it makes and on its return. */
interface Walk {
  charges: Map<Inst, number>;
  atCall: Map<Inst, ReadonlySet<ValueId>>;
  /** Loaded on every path to a return (the walk's sets at the return blocks, intersected). */
  atReturn: ReadonlySet<ValueId>;
}

export class FirstUseLoads {
  private readonly entries: Set<FunctionId>;
  private readonly fns: Map<FunctionId, Function>;
  /** For each function, the calls that reach it (the caller and the call instruction). */
  private readonly callSites = new Map<FunctionId, { caller: FunctionId; call: Inst }[]>();
  private readonly walks = new Map<FunctionId, Walk>();
  /** Each inlined function walked from nothing loaded: what any inlined call of it leaves loaded. */
  private readonly bare = new Map<FunctionId, Walk>();

  /**
   * `size(inst, v)`: what loading operand v of `inst` costs here (a constant's components, 1 for
   * a descriptor), 0 when v is not such a value or `inst` does not read it as a register.
   * `domOf`: a function's dominator tree (walkers over one module share one memo: dominatorTrees).
   */
  constructor(
    m: Module,
    private readonly size: (inst: Inst, v: ValueId) => number,
    private readonly domOf: (fn: Function) => DomTree = dominatorTrees(),
  ) {
    // Every shader stage is its own NIR shader: the ray generation entry point, and the stages a
    // lowered pipeline calls (Function.stage), each loading its values on each invocation.
    this.entries = new Set([...m.entryPoints.map((e) => e.function), ...m.functions.filter((f) => f.stage !== undefined).map((f) => f.id)]);
    this.fns = new Map(m.functions.map((f) => [f.id, f]));
    for (const f of m.functions) {
      for (const b of f.blocks) {
        for (const inst of b.insts) {
          if (inst.op !== 'call' || this.entries.has(inst.callee)) continue;
          const list = this.callSites.get(inst.callee) ?? [];
          list.push({ caller: f.id, call: inst });
          this.callSites.set(inst.callee, list);
        }
      }
    }
  }

  /** For each instruction of `fn` charged loads, the size of the values it loads first. */
  of(fn: Function): ReadonlyMap<Inst, number> {
    return this.walk(fn.id).charges;
  }

  /** Function `id` walked from what is loaded at its every call site (nothing for a stage). */
  private walk(id: FunctionId): Walk {
    let w = this.walks.get(id);
    if (w === undefined) {
      // Set before the walk: GLSL has no recursion, but a malformed module must not loop.
      this.walks.set(id, EMPTY_WALK);
      w = this.scan(this.fns.get(id)!, this.entries.has(id) ? new Set() : this.context(id));
      this.walks.set(id, w);
    }
    return w;
  }

  private bareWalk(id: FunctionId): Walk {
    let w = this.bare.get(id);
    if (w === undefined) {
      this.bare.set(id, EMPTY_WALK);
      const fn = this.fns.get(id);
      w = fn === undefined ? EMPTY_WALK : this.scan(fn, new Set());
      this.bare.set(id, w);
    }
    return w;
  }

  /**
   * The dominator-tree walk of `fn` from `initial` loaded. After an inlined call, what the callee
   * loads on every path to its return is loaded for the rest of the caller's scope.
   */
  private scan(fn: Function, initial: ReadonlySet<ValueId>): Walk {
    const charges = new Map<Inst, number>();
    const atCall = new Map<Inst, ReadonlySet<ValueId>>();
    let atReturn: Set<ValueId> | undefined;
    if (fn.blocks.length === 0) return { charges, atCall, atReturn: new Set() };
    const loaded = new Set<ValueId>(initial);
    const byId = new Map(fn.blocks.map((b) => [b.id, b]));
    // A block's values are unloaded when its subtree is done.
    walkDominatorScopes(this.domOf(fn), (block) => {
      const added: ValueId[] = [];
      const add = (v: ValueId): void => {
        if (loaded.has(v)) return;
        loaded.add(v);
        added.push(v);
      };
      for (const inst of byId.get(block)?.insts ?? []) {
        let size = 0;
        for (const v of operands(inst)) {
          const n = this.size(inst, v);
          if (n === 0 || loaded.has(v)) continue;
          add(v);
          size += n;
        }
        if (size > 0) charges.set(inst, size);
        if (inst.op === 'call' && !this.entries.has(inst.callee)) {
          atCall.set(inst, new Set(loaded));
          for (const v of this.bareWalk(inst.callee).atReturn) add(v);
        }
        if (inst.op === 'return') atReturn = atReturn === undefined ? new Set(loaded) : new Set([...atReturn].filter((v) => loaded.has(v)));
      }
      return () => { for (const v of added) loaded.delete(v); };
    });
    return { charges, atCall, atReturn: atReturn ?? new Set() };
  }

  /** The values loaded at every call site of inlined function `id`. */
  private context(id: FunctionId): ReadonlySet<ValueId> {
    let common: Set<ValueId> | undefined;
    for (const { caller, call } of this.callSites.get(id) ?? []) {
      const at = this.walk(caller).atCall.get(call);
      // A call in an unreachable block, or one the caller's walk is still on (recursion): nothing loaded.
      if (at === undefined) return new Set();
      common = common === undefined ? new Set(at) : new Set([...common].filter((v) => at.has(v)));
    }
    return common ?? new Set();
  }
}

/** A memo of functions' dominator trees, built on first use. */
export function dominatorTrees(): (fn: Function) => DomTree {
  const trees = new Map<Function, DomTree>();
  return (fn) => {
    let t = trees.get(fn);
    if (t === undefined) trees.set(fn, (t = dominatorTree(buildCfg(fn))));
    return t;
  };
}

const EMPTY_WALK: Walk = { charges: new Map(), atCall: new Map(), atReturn: new Set() };
