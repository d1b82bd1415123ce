/**
 * The instructions NIR's dead-code elimination leaves out of the PTX Vulkan-Sim runs: after
 * `nir_inline_functions`, `nir_opt_dce` (in lavapipe's `optimize` loop) deletes what no live
 * instruction reads, and an inlined function's result is then only as live as the caller's reads
 * of it. Every LumiBench closest hit calls `UnpackVertex`, which loads nine floats into a
 * `Vertex`, and the sphere's reads only `v0.MaterialIndex`: Vulkan-Sim loads one of the nine.
 * Our functional core still runs the call; the instructions found here issue nothing and send no
 * memory request (the functional result is the same: nothing live reads them).
 *
 * The model:
 * - A function's result is live, per leaf, where some call site in the module reads it: through
 *   an `extract`, or the caller's local variable it is stored to and loaded from by constant
 *   member paths; returned by the caller as its own result, as live as that one; read any other
 *   way, whole. A function is compiled once for all its call sites, so the union of its sites'
 *   reads counts (as inlined-calls.ts charges an inlined function at one set of constants).
 * - Within a function, liveness runs backwards from every instruction with an effect (stores to
 *   memory other than a non-escaping local variable, calls, image and ray operations, control
 *   flow) and from the live leaves of each returned value, leaf by leaf through `construct`,
 *   `extract` and non-escaping local variables (stores and loads by constant member paths).
 * - A pure instruction (arithmetic, conversion, access chain, composite, load) none of whose
 *   leaves is live, and a store to a non-escaping local variable none of whose stored leaves is
 *   read, is dead.
 */
import { operands, type FunctionId, type Inst, type ValueId } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { leafPath, moduleConstants } from './leaf-paths.js';
import { escapingOperands } from './promoted-vars.js';

/** Ops that compute a value from their operands alone: dead when nothing live reads the value. */
const PURE = new Set<Inst['op']>([
  'load', 'accessChain', 'binary', 'unary', 'compare', 'test', 'convert', 'bitcast', 'select', 'ext', 'bits',
  'construct', 'extract', 'insert', 'shuffle', 'extractDynamic', 'insertDynamic', 'copyObject', 'undef', 'phi',
]);

/** What NIR's dead-code elimination leaves of one function. */
export interface DeadCode {
  /** Instructions it deletes. */
  dead: Set<Inst>;
  /**
   * Memory loads some of whose leaves nothing live reads, to a flag per leaf (true: read): NIR
   * shrinks the load to the components used (`nir_opt_shrink_vectors`) and its PTX loads those.
   */
  loadedLeaves: Map<Inst, boolean[]>;
}

/** Per function of `m`, what NIR's dead-code elimination deletes (functions where it deletes nothing are absent). */
export function deadInstructions(m: Module, leafCount: (t: TypeId) => number): Map<FunctionId, DeadCode> {
  const views = new Map(m.functions.map((f) => [f.id, new FunctionView(m, f, leafCount)]));
  // The callers' reads of each function's result, to a fixpoint (a returned call result is as live as its caller's).
  const live = new Map<FunctionId, boolean[]>();
  for (const f of m.functions) live.set(f.id, new Array<boolean>(leafCount(f.returnType)).fill(false));
  for (let changed = true; changed;) {
    changed = false;
    for (const view of views.values()) {
      for (const call of view.calls) {
        const target = live.get(call.callee);
        if (target === undefined || target.every((x) => x)) continue;
        const reads = view.readsOf(call.id, target.length, live.get(view.fn.id)!);
        reads.forEach((r, k) => {
          if (r && !target[k]) {
            target[k] = true;
            changed = true;
          }
        });
      }
    }
  }
  const out = new Map<FunctionId, DeadCode>();
  for (const [id, view] of views) {
    const code = view.dead(live.get(id)!);
    if (code.dead.size > 0 || code.loadedLeaves.size > 0) out.set(id, code);
  }
  return out;
}

/** One function's instructions indexed for the analysis. */
class FunctionView {
  readonly calls: Extract<Inst, { op: 'call' }>[] = [];
  private readonly defs = new Map<ValueId, Inst>();
  private readonly uses = new Map<ValueId, Inst[]>();
  private readonly typeOf = new Map<ValueId, TypeId>();
  private readonly constants: ReadonlyMap<ValueId, number>;
  /** Local variables whose pointer reaches nothing but loads, stores and access chains. */
  private readonly local = new Set<ValueId>();

  constructor(private readonly m: Module, readonly fn: Function, private readonly leafCount: (t: TypeId) => number) {
    this.constants = moduleConstants(m).numbers;
    for (const p of fn.params) this.typeOf.set(p.id, p.type);
    const rootOf = new Map<ValueId, ValueId>();
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op === 'call') this.calls.push(inst);
        if (inst.op === 'variable') {
          this.local.add(inst.id);
          rootOf.set(inst.id, inst.id);
        }
        this.defs.set(inst.id, inst);
        if ('type' in inst && inst.type !== undefined) this.typeOf.set(inst.id, inst.type as TypeId);
        for (const v of operands(inst)) {
          const list = this.uses.get(v);
          if (list === undefined) this.uses.set(v, [inst]);
          else list.push(inst);
        }
      }
    }
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op === 'accessChain' && rootOf.has(inst.base)) rootOf.set(inst.id, rootOf.get(inst.base)!);
      }
    }
    for (const b of fn.blocks) for (const inst of b.insts) for (const v of escapingOperands(inst)) {
      const r = rootOf.get(v);
      if (r !== undefined) this.local.delete(r);
    }
  }

  private leaves(v: ValueId): number {
    const t = this.typeOf.get(v);
    return t === undefined ? 1 : Math.max(1, this.leafCount(t));
  }

  /** The local variable and leaf range a pointer reaches by constant indices; `first` undefined for a dynamic path. */
  private place(ptr: ValueId): { root: ValueId; first: number | undefined; count: number } | undefined {
    const def = this.defs.get(ptr);
    if (def?.op === 'variable') return this.local.has(ptr) ? { root: ptr, first: 0, count: this.pointeeLeaves(ptr) } : undefined;
    if (def?.op !== 'accessChain') return undefined;
    const base = this.place(def.base);
    if (base === undefined) return undefined;
    const baseType = this.pointee(def.base);
    const path = baseType === undefined || base.first === undefined ? undefined : leafPath(this.m.types, this.leafCount, baseType, def.indices.map((i) => this.constants.get(i)));
    return { root: base.root, first: path === undefined ? undefined : base.first! + path.first, count: this.pointeeLeaves(ptr) };
  }

  private pointee(ptr: ValueId): TypeId | undefined {
    const t = this.typeOf.get(ptr);
    if (t === undefined) return undefined;
    const pt = typeOf(this.m.types, t);
    return pt.kind === 'pointer' ? pt.pointee : undefined;
  }

  private pointeeLeaves(ptr: ValueId): number {
    const t = this.pointee(ptr);
    return t === undefined ? 1 : Math.max(1, this.leafCount(t));
  }

  /** Which of the `n` leaves of value `v` this function reads; `ownLive`: this function's result's live leaves. */
  readsOf(v: ValueId, n: number, ownLive: readonly boolean[]): boolean[] {
    const reads = new Array<boolean>(n).fill(false);
    const all = (): boolean[] => reads.fill(true);
    for (const u of this.uses.get(v) ?? []) {
      if (u.op === 'extract' && u.value === v) {
        const from = this.typeOf.get(v);
        const path = from === undefined ? undefined : leafPath(this.m.types, this.leafCount, from, u.indices);
        if (path === undefined) return all();
        for (let k = 0; k < Math.max(1, this.leafCount(path.type)); k++) reads[path.first + k] = true;
      } else if (u.op === 'store' && u.value === v && this.defs.get(u.ptr)?.op === 'variable' && this.local.has(u.ptr)) {
        const r = this.variableReads(u.ptr, n);
        if (r === undefined) return all();
        r.forEach((x, k) => (reads[k] ||= x));
      } else if (u.op === 'return' && ownLive.length === n) {
        ownLive.forEach((x, k) => (reads[k] ||= x));
      } else {
        return all();
      }
    }
    return reads;
  }

  /** The leaves of local variable `root` some load reads, by constant paths; undefined where one reads it another way. */
  private variableReads(root: ValueId, n: number): boolean[] | undefined {
    const reads = new Array<boolean>(n).fill(false);
    const visit = (ptr: ValueId): boolean => {
      for (const u of this.uses.get(ptr) ?? []) {
        if (u.op === 'store' && u.ptr === ptr) continue;
        if (u.op === 'accessChain' && u.base === ptr) {
          if (!visit(u.id)) return false;
          continue;
        }
        if (u.op !== 'load') return false;
        const p = this.place(ptr);
        if (p?.first === undefined) return false;
        for (let k = 0; k < p.count; k++) reads[p.first + k] = true;
      }
      return true;
    };
    return visit(root) ? reads : undefined;
  }

  /** What is dead, given the live leaves of this function's result. */
  dead(resultLive: readonly boolean[]): DeadCode {
    const live = new Map<ValueId, boolean[]>();
    const varLive = new Map<ValueId, boolean[]>();
    let changed = true;
    const mark = (v: ValueId, bits: readonly boolean[] | 'all'): void => {
      if (!this.defs.has(v)) return;
      const n = this.leaves(v);
      let cur = live.get(v);
      if (cur === undefined) live.set(v, (cur = new Array<boolean>(n).fill(false)));
      for (let k = 0; k < n; k++) {
        if ((bits === 'all' || bits[k]) && !cur[k]) {
          cur[k] = true;
          changed = true;
        }
      }
    };
    const markVar = (root: ValueId, first: number | undefined, count: number, bits: readonly boolean[] | 'all'): void => {
      const n = this.pointeeLeaves(root);
      let cur = varLive.get(root);
      if (cur === undefined) varLive.set(root, (cur = new Array<boolean>(n).fill(false)));
      for (let k = 0; k < (first === undefined ? n : count); k++) {
        const at = first === undefined ? k : first + k;
        if (at < n && (bits === 'all' || first === undefined || bits[k]) && !cur[at]) {
          cur[at] = true;
          changed = true;
        }
      }
    };
    const anyLive = (v: ValueId): boolean => live.get(v)?.some((x) => x) ?? false;
    /** A store's leaves that a later load reads (undefined: not a store to a local variable). */
    const storeLive = (inst: Extract<Inst, { op: 'store' }>): boolean[] | undefined => {
      const p = this.place(inst.ptr);
      if (p === undefined) return undefined;
      const cur = varLive.get(p.root);
      if (p.first === undefined) return new Array<boolean>(p.count).fill(cur?.some((x) => x) ?? false);
      return Array.from({ length: p.count }, (_, k) => cur?.[p.first! + k] ?? false);
    };
    while (changed) {
      changed = false;
      for (const b of this.fn.blocks) {
        for (const inst of b.insts) {
          if (inst.op === 'return') {
            if (inst.value !== undefined) mark(inst.value, resultLive.length === this.leaves(inst.value) ? resultLive : 'all');
            continue;
          }
          if (inst.op === 'store') {
            const l = storeLive(inst);
            if (l === undefined) {
              for (const v of operands(inst)) mark(v, 'all');
            } else if (l.some((x) => x)) {
              mark(inst.value, l);
              mark(inst.ptr, 'all');
            }
            continue;
          }
          if (inst.op === 'variable') continue;
          if (!PURE.has(inst.op)) {
            for (const v of operands(inst)) mark(v, 'all');
            continue;
          }
          const bits = live.get(inst.id);
          if (bits === undefined || !bits.some((x) => x)) continue;
          switch (inst.op) {
            case 'construct': {
              let at = 0;
              for (const part of inst.parts) {
                const n = this.leaves(part);
                mark(part, bits.slice(at, at + n));
                at += n;
              }
              break;
            }
            case 'extract': {
              const from = this.typeOf.get(inst.value);
              const path = from === undefined ? undefined : leafPath(this.m.types, this.leafCount, from, inst.indices);
              if (path === undefined) mark(inst.value, 'all');
              else {
                const whole = new Array<boolean>(this.leaves(inst.value)).fill(false);
                bits.forEach((x, k) => (whole[path.first + k] = x));
                mark(inst.value, whole);
              }
              break;
            }
            case 'load': {
              const p = this.place(inst.ptr);
              if (p === undefined) mark(inst.ptr, 'all');
              else {
                markVar(p.root, p.first, p.count, bits);
                mark(inst.ptr, 'all');
              }
              break;
            }
            case 'phi':
              for (const e of inst.incoming) mark(e.value, bits);
              break;
            case 'copyObject':
              mark(inst.value, bits);
              break;
            case 'shuffle': {
              // Component i of the result is component components[i] of a's then b's.
              const na = this.leaves(inst.a);
              const fromA = new Array<boolean>(na).fill(false);
              const fromB = new Array<boolean>(this.leaves(inst.b)).fill(false);
              inst.components.forEach((c, i) => {
                if (!bits[i] || c === 0xffffffff) return;
                if (c < na) fromA[c] = true;
                else fromB[c - na] = true;
              });
              mark(inst.a, fromA);
              mark(inst.b, fromB);
              break;
            }
            default:
              for (const v of operands(inst)) mark(v, 'all');
          }
        }
      }
    }
    const dead = new Set<Inst>();
    const loadedLeaves = new Map<Inst, boolean[]>();
    for (const b of this.fn.blocks) {
      // A lowered traceRay's code is the translator's, as trace-ray-ptx.ts charges it.
      if (b.lowered !== undefined) continue;
      for (const inst of b.insts) {
        if (inst.op === 'store') {
          const l = storeLive(inst);
          if (l !== undefined && !l.some((x) => x)) dead.add(inst);
        } else if (PURE.has(inst.op) && !anyLive(inst.id)) {
          dead.add(inst);
        } else if (inst.op === 'load' && this.place(inst.ptr) === undefined) {
          const bits = live.get(inst.id);
          if (bits !== undefined && bits.length > 1 && !bits.every((x) => x)) loadedLeaves.set(inst, [...bits]);
        }
      }
    }
    return { dead, loadedLeaves };
  }
}
