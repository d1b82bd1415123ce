/**
 * The words of the ray tracing pipeline's per-thread state (payloads, hit attributes, callable
 * data: `rtState` stores) that lavapipe's NIR pipeline does not store for Vulkan-Sim, because the
 * variable already holds the value: `nir_opt_copy_prop_vars` (in lavapipe's `optimize` loop, after
 * every GLSL function is inlined) drops a store whose value equals the one it knows the variable
 * holds (`value_equals_store_src`). Our IR keeps the GLSL's functions, so the values are followed
 * through calls here by callee summaries.
 *
 * The LumiBench closest hits end `Ray = Scatter(..., Ray.RandomSeed); Ray.SurfaceNormal = normal;`:
 * the struct store writes the normal Scatter returned, which is the argument it was given, so the
 * second store is dropped. The struct's seed is not the copied-out seed as NIR sees it: Scatter's
 * `switch` without a default returns an undefined struct on one path where the seed keeps its
 * value, so the two phis differ (an undefined source merges away only where every other source is
 * one and the same value: `nir_opt_remove_phis`), and that store stays.
 *
 * The model, all of it symbolic and at leaf (32-bit component) granularity:
 * - A leaf value is a symbol: a value's leaf (`v<number>#<leaf>`, the number from
 *   redundant-instructions.ts, so a load of a `const` local is the value stored to it), or the
 *   content a call leaves in a pointer argument (`o<call>.<arg>#<leaf>`).
 * - Within a block, what each variable leaf holds is tracked in order: stores set it, loads of an
 *   unknown leaf name it, a call forgets everything it can reach (its pointer arguments, then set to
 *   their out symbols, and every module-scope variable).
 * - A function's summary says, per leaf of its return value, whether every return gives a value
 *   parameter's leaf (`param`) or the final content of a pointer parameter's leaf (`final`). Paths
 *   that return `undef` agree with a `param` leaf only (above). A return through a phi reads each
 *   source at the end of its predecessor, with nothing stored in the return block before it.
 * - A store to rtState through constant indices drops each leaf whose symbol equals the leaf's
 *   known content.
 *
 * What this leaves out: NIR follows contents across blocks and through copies of whole
 * variables, and also drops redundant loads; this keeps every load and looks within one block.
 */
import type { FunctionId, Inst, InstOf, ValueId } from '../../ir/inst.js';
import type { Block, Function, Module } from '../../ir/module.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { leafPath, moduleConstants, type ModuleConstants } from './leaf-paths.js';
import { isRtStateStorage } from './rt-state-storage.js';

/** Per leaf of a function's return value: where every return takes it from, or undefined. */
type LeafOrigin = { kind: 'param' | 'final'; param: number; leaf: number } | undefined;

/** What the analysis needs of the compiler: the module, and leaf counts as the layout gives them. */
export interface StoreAnalysisInput {
  module: Module;
  leafCount(type: TypeId): number;
}

/**
 * Per store instruction of `fn` to rtState with at least one redundant leaf, a flag per leaf of the
 * stored value: true where the store is kept. `numberOf`: the value numbering of `fn`
 * (redundant-instructions.ts); `summaries`: shared across the module's functions.
 */
export function redundantStateStores(input: StoreAnalysisInput, fn: Function, numberOf: (v: ValueId) => ValueId, summaries: ReturnSummaries): Map<Inst, boolean[]> {
  const walker = new BlockWalker(input, fn, numberOf, summaries);
  const out = new Map<Inst, boolean[]>();
  for (const b of fn.blocks) {
    walker.walk(b, (inst, state) => {
      // A payload copy of the pipeline lowering is no store of Vulkan-Sim's (ptx-ops-of.ts isPayloadCopy).
      if (inst.op !== 'store' || inst.payloadCopy === true) return;
      const loc = walker.location(inst.ptr);
      if (loc === undefined || !loc.rtState || loc.leaves === undefined) return;
      const syms = walker.leafSymbols(inst.value, state);
      const kept = syms.map((s, k) => state.get(`${loc.root}:${loc.leaves! + k}`) !== s);
      if (kept.some((x) => !x)) out.set(inst, kept);
    });
  }
  return out;
}

/** Function summaries of one module, computed on demand. */
export class ReturnSummaries {
  private readonly done = new Map<FunctionId, LeafOrigin[]>();
  private readonly busy = new Set<FunctionId>();
  constructor(readonly input: StoreAnalysisInput, private readonly numbering: (fn: Function) => (v: ValueId) => ValueId) {}

  /** The summary of function `id`; all-undefined while it is being computed (recursion). */
  of(id: FunctionId): LeafOrigin[] {
    const known = this.done.get(id);
    if (known !== undefined) return known;
    const fn = this.input.module.functions.find((f) => f.id === id);
    if (fn === undefined || this.busy.has(id)) return [];
    this.busy.add(id);
    const s = summarize(this.input, fn, this.numbering(fn), this);
    this.busy.delete(id);
    this.done.set(id, s);
    return s;
  }
}

function summarize(input: StoreAnalysisInput, fn: Function, numberOf: (v: ValueId) => ValueId, summaries: ReturnSummaries): LeafOrigin[] {
  const n = input.leafCount(fn.returnType);
  if (n === 0) return [];
  const walker = new BlockWalker(input, fn, numberOf, summaries);
  const byId = new Map(fn.blocks.map((b) => [b.id, b]));
  const paramIndex = new Map(fn.params.map((p, i) => [p.id, i]));
  const pointerParams = fn.params.flatMap((p, i) => (typeOf(input.module.types, p.type).kind === 'pointer' ? [{ id: p.id, index: i, leaves: walker.pointeeLeaves(p.id) }] : []));
  /** The origin of each leaf of `value`, read at the end of `block`'s walk. */
  const originsAt = (block: Block, value: ValueId): LeafOrigin[] => {
    let end = new Map<string, string>();
    walker.walk(block, (_inst, state) => void (end = state));
    const syms = walker.leafSymbols(value, end);
    return syms.map((s) => {
      const m = /^v(\d+)#(\d+)$/.exec(s);
      if (m !== null && paramIndex.has(Number(m[1]) as ValueId)) return { kind: 'param', param: paramIndex.get(Number(m[1]) as ValueId)!, leaf: Number(m[2]) };
      for (const p of pointerParams) {
        for (let k = 0; k < p.leaves; k++) if (end.get(`${p.id}:${k}`) === s) return { kind: 'final', param: p.index, leaf: k };
      }
      return undefined;
    });
  };
  const paths: LeafOrigin[][] = [];
  let undefPath = false;
  for (const b of fn.blocks) {
    const term = b.insts[b.insts.length - 1];
    if (term?.op !== 'return' || term.value === undefined) continue;
    const def = walker.def(term.value);
    if (def?.op === 'undef') {
      undefPath = true;
      continue;
    }
    if (def?.op === 'phi') {
      // Nothing between the phi and the return may write what the sources were read against.
      if (b.insts.some((x) => x.op === 'store' || x.op === 'call' || x.op === 'atomic')) return new Array<LeafOrigin>(n).fill(undefined);
      for (const e of def.incoming) {
        const src = byId.get(e.block);
        if (walker.def(e.value)?.op === 'undef') undefPath = true;
        else paths.push(src === undefined ? new Array<LeafOrigin>(n).fill(undefined) : originsAt(src, e.value));
      }
      continue;
    }
    paths.push(originsAt(b, term.value));
  }
  if (paths.length === 0) return new Array<LeafOrigin>(n).fill(undefined);
  return Array.from({ length: n }, (_, k) => {
    const first = paths[0]![k];
    if (first === undefined) return undefined;
    if (undefPath && first.kind !== 'param') return undefined;
    return paths.every((p) => p[k] !== undefined && p[k]!.kind === first.kind && p[k]!.param === first.param && p[k]!.leaf === first.leaf) ? first : undefined;
  });
}

/** A pointer resolved to its root variable and, where every index is constant, its first leaf. */
interface Location {
  root: ValueId;
  leaves: number | undefined;
  rtState: boolean;
}

/** The symbolic walk of one function's blocks. */
class BlockWalker {
  private readonly defs = new Map<ValueId, Inst>();
  private readonly typeOfValue = new Map<ValueId, TypeId>();
  private readonly globals: Map<ValueId, TypeId>;
  private readonly params: Set<ValueId>;
  private readonly constants: ModuleConstants;

  constructor(private readonly input: StoreAnalysisInput, fn: Function, private readonly numberOf: (v: ValueId) => ValueId, private readonly summaries: ReturnSummaries) {
    for (const p of fn.params) this.typeOfValue.set(p.id, p.type);
    this.params = new Set(fn.params.map((p) => p.id));
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (!('id' in inst)) continue;
        this.defs.set(inst.id, inst);
        if ('type' in inst && inst.type !== undefined) this.typeOfValue.set(inst.id, inst.type as TypeId);
      }
    }
    this.globals = new Map(input.module.globals.map((g) => [g.id, g.type]));
    this.constants = moduleConstants(input.module);
  }

  def(v: ValueId): Inst | undefined {
    return this.defs.get(v);
  }

  /** The number of leaves of what pointer `ptr` points to. */
  pointeeLeaves(ptr: ValueId): number {
    const t = typeOf(this.input.module.types, this.typeOf(ptr));
    return t.kind === 'pointer' ? this.input.leafCount(t.pointee) : 0;
  }

  private typeOf(v: ValueId): TypeId {
    return this.typeOfValue.get(v) ?? this.globals.get(v) ?? (this.constants.types.get(v) as TypeId);
  }

  location(ptr: ValueId): Location | undefined {
    const def = this.defs.get(ptr);
    if (def?.op === 'accessChain') {
      const base = this.location(def.base);
      if (base === undefined) return undefined;
      const t = typeOf(this.input.module.types, this.typeOf(def.base));
      const path = t.kind === 'pointer' && base.leaves !== undefined
        ? leafPath(this.input.module.types, this.input.leafCount, t.pointee, def.indices.map((i) => this.constants.numbers.get(i)))
        : undefined;
      return { root: base.root, leaves: path === undefined ? undefined : base.leaves! + path.first, rtState: base.rtState };
    }
    // Roots are variables, pointer parameters and module-scope variables; a pointer chosen at run
    // time (a phi or select of pointers) may be any of them, so it has no location.
    if (!(def?.op === 'variable' || this.params.has(ptr) || this.globals.has(ptr))) return undefined;
    const t = typeOf(this.input.module.types, this.typeOf(ptr));
    if (t.kind !== 'pointer') return undefined;
    return { root: ptr, leaves: 0, rtState: isRtStateStorage(t.storage) };
  }

  /** The symbol of each leaf of `v`, reading loads against `state`. */
  leafSymbols(v: ValueId, state: ReadonlyMap<string, string>, memo = new Map<ValueId, string[]>()): string[] {
    const known = memo.get(v);
    if (known !== undefined) return known;
    const own = (): string[] => Array.from({ length: this.input.leafCount(this.typeOf(v)) }, (_, k) => `v${this.numberOf(v)}#${k}`);
    const def = this.defs.get(this.numberOf(v)) ?? this.defs.get(v);
    let syms: string[];
    if (this.numberOf(v) !== v) syms = this.leafSymbols(this.numberOf(v), state, memo);
    else if (def?.op === 'construct') syms = def.parts.flatMap((p) => this.leafSymbols(p, state, memo));
    else if (def?.op === 'copyObject') syms = this.leafSymbols(def.value, state, memo);
    else if (def?.op === 'load') syms = this.loadSymbols(def, state) ?? own();
    else if (def?.op === 'call') syms = this.callSymbols(def) ?? own();
    else syms = own();
    memo.set(v, syms);
    return syms;
  }

  /** The loaded leaves' contents where `state` knows them all. */
  private loadSymbols(load: InstOf<'load'>, state: ReadonlyMap<string, string>): string[] | undefined {
    const loc = this.location(load.ptr);
    if (loc?.leaves === undefined) return undefined;
    const n = this.input.leafCount(load.type as TypeId);
    const syms: string[] = [];
    for (let k = 0; k < n; k++) {
      const s = state.get(`${loc.root}:${loc.leaves + k}`);
      if (s === undefined) return undefined;
      syms.push(s);
    }
    return syms;
  }

  /** A call result's leaves through the callee's summary (the arguments read as the call saw them). */
  private callSymbols(call: InstOf<'call'>): string[] | undefined {
    const summary = this.summaries.of(call.callee);
    // The arguments as the call saw them: known once the walk has passed the call.
    const at = this.callStates.get(call);
    if (summary.length === 0 || at === undefined) return undefined;
    return summary.map((o, k) => {
      if (o === undefined) return `v${call.id}#${k}`;
      if (o.kind === 'final') return `o${call.id}.${o.param}#${o.leaf}`;
      return this.leafSymbols(call.args[o.param]!, at)[o.leaf] ?? `v${call.id}#${k}`;
    });
  }

  /** The state just before each call, for its value arguments. */
  private readonly callStates = new Map<Inst, ReadonlyMap<string, string>>();

  /** Walks `block` in order, calling `visit` with each instruction and the state before it. */
  walk(block: Block, visit: (inst: Inst, state: Map<string, string>) => void): void {
    let state = new Map<string, string>();
    for (const inst of block.insts) {
      visit(inst, state);
      switch (inst.op) {
        case 'store': {
          const loc = this.location(inst.ptr);
          if (loc === undefined) {
            state = new Map();
            break;
          }
          if (loc.leaves === undefined) {
            forgetRoot(state, loc.root);
            break;
          }
          const syms = this.leafSymbols(inst.value, state);
          syms.forEach((s, k) => state.set(`${loc.root}:${loc.leaves! + k}`, s));
          break;
        }
        case 'load': {
          const loc = this.location(inst.ptr);
          if (loc?.leaves === undefined) break;
          // An unknown leaf now holds what was read: a later store of the same value stores nothing new.
          this.leafSymbols(inst.id, state).forEach((s, k) => {
            const key = `${loc.root}:${loc.leaves! + k}`;
            if (!state.has(key)) state.set(key, s);
          });
          break;
        }
        case 'call': {
          this.callStates.set(inst, new Map(state));
          const next = new Map<string, string>();
          // A callee reaches its pointer arguments and module-scope variables; function locals not passed keep their contents.
          const passed = new Set(inst.args.map((a) => this.location(a)?.root).filter((r): r is ValueId => r !== undefined));
          for (const [key, s] of state) {
            const root = Number(key.slice(0, key.indexOf(':'))) as ValueId;
            if (!passed.has(root) && !this.globals.has(root)) next.set(key, s);
          }
          inst.args.forEach((a, j) => {
            const loc = this.location(a);
            if (loc?.leaves === undefined || loc.leaves !== 0 || this.defs.get(a)?.op === 'accessChain') return;
            const n = this.pointeeLeaves(a);
            for (let k = 0; k < n; k++) next.set(`${loc.root}:${k}`, `o${inst.id}.${j}#${k}`);
          });
          state = next;
          break;
        }
        default:
          // Anything else that writes memory through a pointer forgets what it may reach.
          if (inst.op === 'atomic' || inst.op === 'traceRay' || inst.op === 'executeCallable' || inst.op === 'rtCall' || inst.op === 'reportIntersection') state = new Map();
      }
    }
  }
}

function forgetRoot(state: Map<string, string>, root: ValueId): void {
  const prefix = `${root}:`;
  for (const key of [...state.keys()]) if (key.startsWith(prefix)) state.delete(key);
}
