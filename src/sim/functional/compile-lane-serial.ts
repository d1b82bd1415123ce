/**
 * The lane-serial backend: every IR function compiled to ONE JavaScript function that runs one
 * lane from entry to return (`for (;;) switch (pc)` over blocks, SSA values as JS locals that
 * live across blocks, register-promoted variables as locals, calls as JS calls). The JIT then
 * optimises shader code like ordinary code, which the per-block warp-synchronous pieces cannot
 * get. Each lane records its decision at every branch with several distinct successors (the
 * successor's index in BlockInfo.succs) in a per-lane trace; `trace-replay.ts` replays the traces
 * through the same SIMT stack to produce counters identical to the warp-synchronous engine's.
 *
 * Only valid when lanes cannot observe each other or the issue order: the program has no subgroup
 * ops, debugPrintf, atomics or workgroup (shared) memory (`laneSerialEligible`); `clock` is per invocation (instructions it
 * executed before the clock) in both engines, so it is allowed unless a timing clock is attached. Memory written by one lane and read
 * by another in the same launch is a data race in Vulkan too, so it is not a restriction.
 */
import { isRtStateStorage } from './rt-state-storage.js';
import type { BlockId, Inst, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { buildCfg } from '../../ir/cfg.js';
import type { EmitContext, PtrInfo } from './emit-context.js';
import { switchStatementJs } from './emit-switch.js';
import { emitArith } from './emit-arith.js';
import { emitExt } from './emit-ext.js';
import { emitMemory, storeThrough } from './emit-memory.js';
import { emitImage, emitSampledImage } from './emit-image.js';
import { LayoutTable, PRIVATE_BASE, alignUp, type LeafKind } from './layout.js';
import { SimError, locate, siteOf, type Site } from './errors.js';
import type { ModuleStatics } from './module-statics.js';
import { promotableVariables, promotedAccessChain, type PromotedPtr } from './promoted-vars.js';
import { countsAsInstruction, type FunctionInfo } from './compile-to-js.js';

/** Arguments are passed in W.largs and results returned in W.lret (Float64Arrays: no boxing of doubles). */
export type LaneFn = (W: unknown, l: number, depth: number, pbase: number) => void;

/** Whether lanes can run one after the other without changing any result. */
export function laneSerialEligible(m: Module): boolean {
  if (m.globals.some((g) => g.storage === 'workgroup')) return false;
  for (const f of m.functions) {
    for (const b of f.blocks) {
      for (const i of b.insts) {
        if (i.op === 'subgroup' || i.op === 'debugPrintf' || i.op === 'atomic') return false;
      }
    }
  }
  return true;
}

const PRIV_VIEWS = 'P = W.priv; PU = P.u32; PI = P.i32; PF = P.f32; PW = P.laneWords;';

class LaneFunctionCompiler {
  private readonly layout: LayoutTable;
  private readonly types = new Map<ValueId, TypeId>();
  private readonly ptrs = new Map<ValueId, PtrInfo>();
  private readonly varOffset = new Map<ValueId, number>();
  private readonly promoted = new Map<ValueId, PromotedPtr>();
  /** Promoted variables backed by a Float64Array (they have dynamically indexed access chains). */
  readonly arrayBacked: Set<ValueId>;
  private readonly varOf = new Map<ValueId, ValueId>();
  private readonly blockPos = new Map<BlockId, number>();
  private readonly locals = new Map<string, string>();
  private readonly crossBlock = new Set<ValueId>();
  private readonly needs = new Map<string, string>();
  private tmp = 0;

  constructor(
    private readonly m: Module,
    private readonly fn: Function,
    private readonly info: FunctionInfo,
    private readonly statics: ModuleStatics,
    private readonly sites: Site[],
    private readonly infos: FunctionInfo[],
    arrayBacked: ReadonlySet<ValueId> = new Set(),
  ) {
    this.layout = statics.layout;
    this.arrayBacked = new Set(arrayBacked);
  }

  private genericPtr(ptrType: TypeId): PtrInfo {
    const t = typeOf(this.m.types, ptrType);
    if (t.kind !== 'pointer') throw new SimError('internal', 'expected pointer type');
    const s = t.storage;
    if (s === 'storageBuffer' || s === 'physicalStorageBuffer' || s === 'shaderRecordBuffer') return { base: { kind: 'shared', space: 'global' }, pointee: t.pointee };
    if (s === 'uniform' || s === 'pushConstant') return { base: { kind: 'shared', space: 'constant' }, pointee: t.pointee };
    if (s === 'function') return { base: { kind: 'private', fnStorage: true }, pointee: t.pointee };
    if (s === 'uniformConstant' || s === 'input' || s === 'image') return { base: { kind: 'generic' }, pointee: t.pointee };
    return { base: { kind: 'private', fnStorage: false, rtState: isRtStateStorage(s) }, pointee: t.pointee };
  }

  private typeOfValue(v: ValueId): TypeId {
    const t = this.types.get(v) ?? this.statics.valueType(v);
    if (t === undefined) throw new SimError('internal', `unknown value %${v} in @${this.fn.name}`);
    return t;
  }

  private leavesOfValue(v: ValueId): LeafKind[] {
    return this.layout.leavesOf(this.typeOfValue(v));
  }

  private declare(name: string, kind: LeafKind): void {
    if (!this.locals.has(name)) this.locals.set(name, kind === 'bool' ? 'false' : '0');
  }

  compile(): string {
    const fn = this.fn;
    const tt = this.m.types;
    fn.blocks.forEach((b, i) => this.blockPos.set(b.id, i));
    const promotable = promotableVariables(fn);
    let frameBytes = 0;
    for (const p of fn.params) {
      this.types.set(p.id, p.type);
      if (typeOf(tt, p.type).kind === 'pointer') this.ptrs.set(p.id, this.genericPtr(p.type));
    }
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        this.types.set(inst.id, inst.type);
        const t = typeOf(tt, inst.type);
        if (inst.op === 'variable') {
          if (t.kind !== 'pointer') throw new SimError('internal', 'variable of non-pointer type');
          if (promotable.has(inst.id)) {
            const n = this.layout.leavesOf(t.pointee).length;
            this.promoted.set(inst.id, { slot: 0, size: n, constLeaf: 0, pointee: t.pointee });
            this.varOf.set(inst.id, inst.id);
          } else {
            frameBytes = alignUp(frameBytes, Math.max(4, this.layout.alignOf(t.pointee)));
            this.varOffset.set(inst.id, frameBytes);
            frameBytes += Math.max(4, this.layout.sizeOf(t.pointee));
            this.ptrs.set(inst.id, { base: { kind: 'private', fnStorage: true }, pointee: t.pointee });
          }
        } else if ((inst.op === 'phi' || inst.op === 'call' || inst.op === 'load') && t.kind === 'pointer') {
          this.ptrs.set(inst.id, this.genericPtr(inst.type));
        }
      }
    }
    if (frameBytes !== this.info.frameBytes) throw new SimError('internal', `frame layout of @${fn.name} differs between backends`);
    // Values used outside their defining block (or phis) are function-level `let`s; all others are
    // `const`s inside their block's case: otherwise every SSA value would be a phi of the dispatch
    // loop and TurboFan would shuffle hundreds of them on every block transition.
    const defBlock = new Map<ValueId, BlockId>();
    for (const b of fn.blocks) for (const inst of b.insts) defBlock.set(inst.id, b.id);
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op === 'phi') {
          this.crossBlock.add(inst.id);
          for (const inc of inst.incoming) if (defBlock.get(inc.value) !== undefined && defBlock.get(inc.value) !== inc.block) this.crossBlock.add(inc.value);
          continue;
        }
        for (const v of operands(inst)) {
          const d = defBlock.get(v);
          if (d !== undefined && d !== b.id) this.crossBlock.add(v);
        }
      }
    }
    const cfg = buildCfg(fn);
    const order = [...cfg.rpo, ...fn.blocks.map((b) => b.id).filter((id) => !cfg.rpo.includes(id))];
    const cases: string[] = [];
    for (const bid of order) cases.push(this.emitBlock(this.blockPos.get(bid)!));
    const params: string[] = [];
    fn.params.forEach((p) => this.leavesOfValue(p.id).forEach((_, k) => params.push(`v${p.id}_${k}`)));
    for (const p of params) this.locals.delete(p);
    const paramDecls = params.map((p, i) => `${p} = LA[${i}]`);
    const decls = [...this.locals].map(([n, init]) => `${n} = ${init}`);
    const arrays = [...this.arrayBacked].map((v) => `const A${v} = new Float64Array(${this.promoted.get(v)!.size});`);
    const consts = [...this.needs].filter(([n]) => !['P', 'PU', 'PI', 'PF', 'PW'].includes(n)).map(([n, init]) => `const ${n} = ${init};`);
    const body = [
      ...consts,
      ...arrays,
      decls.length ? `let ${decls.join(', ')};` : '',
      'let pc = 0;',
      'for (;;) {',
      'switch (pc) {',
      ...cases,
      `default: throw new Error('bad pc ' + pc);`,
      '}',
      '}',
    ].join('\n');
    // Small hot functions pay for every prelude load: bind only the names the body uses.
    const uses = (name: string): boolean => new RegExp(`\\b${name}\\b`).test(body);
    const pre = [
      ['IC', 'W.threadInsts'], ['WD', 'W.watchdogLimit'], ['X', 'W.math'], ['REC', 'false'], ['AD', 'W.addrBuf'],
      ['LA', 'W.largs'], ['LR', 'W.lret'], ['FB', `${PRIVATE_BASE} + pbase`],
    ].filter(([n]) => n === 'IC' || (n === 'LA' && paramDecls.length > 0) || uses(n!)).map(([n, init]) => `const ${n} = ${init};`);
    const privUsed = ['P', 'PU', 'PI', 'PF', 'PW'].some(uses);
    return [
      `function L${this.info.index}(W, l, depth, pbase) {`,
      ...pre,
      paramDecls.length ? `let ${paramDecls.join(', ')};` : '',
      'let T = W.traces[l], TN = W.tlen[l], ic = IC[l];',
      privUsed ? `let P, PU, PI, PF, PW; ${PRIV_VIEWS}` : '',
      privUsed ? body : body.split(PRIV_VIEWS).join(''),
      '}',
    ].join('\n');
  }

  private site(inst: Inst): number {
    this.sites.push(siteOf(this.m, this.fn.name, inst.loc));
    return this.sites.length - 1;
  }

  private context(lines: string[]): EmitContext {
    const self = this;
    return {
      module: this.m,
      layout: this.layout,
      floatModel: this.statics.floatModel,
      read(v: ValueId, k: number, lane = 'l'): string {
        if (lane !== 'l') throw new SimError('internal', 'cross-lane read in the lane-serial backend');
        const c = self.statics.constantLeaves(v);
        if (c) {
          if (c[k]!.startsWith('SC[')) self.needs.set('SC', 'W.spec');
          return c[k]!;
        }
        const g = self.statics.globalPointer(v);
        if (g) {
          if (g.need) self.needs.set(g.need[0], g.need[1]);
          return g.expr;
        }
        if (self.promoted.has(v) && self.varOf.get(v) === v) return '0';
        const off = self.varOffset.get(v);
        if (off !== undefined) return `(FB + ${off})`;
        return `v${v}_${k}`;
      },
      leaves: (v) => this.leavesOfValue(v),
      typeOfValue: (v) => this.typeOfValue(v),
      constantValue: (v) => this.statics.constantValue(v),
      ptrInfo(v: ValueId): PtrInfo {
        const pi = self.ptrs.get(v) ?? self.statics.globalPtrInfo(v);
        if (!pi) throw new SimError('internal', `no pointer info for %${v}`);
        return pi;
      },
      setPtrInfo: (v, pi) => void this.ptrs.set(v, pi),
      def(id: ValueId, exprs: string[]): void {
        const kinds = self.layout.leavesOf(self.typeOfValue(id));
        const cross = self.crossBlock.has(id);
        exprs.forEach((e, k) => {
          if (cross) {
            self.declare(`v${id}_${k}`, kinds[k] ?? 'f32');
            lines.push(`v${id}_${k} = ${e};`);
          } else {
            lines.push(`const v${id}_${k} = ${e};`);
          }
        });
      },
      regWrite(): string {
        throw new SimError('internal', 'register writes do not exist in the lane-serial backend');
      },
      line: (s) => void lines.push(s),
      tmp: (prefix = 't') => `${prefix}${this.tmp++}`,
      site: (inst) => this.site(inst),
      need: (n, init) => void this.needs.set(n, init),
      memSite: () => 0,
      keptLeaves: () => undefined,
      removedByNir: () => false,
      setClass: () => undefined,
    };
  }

  private phiCopies(ctx: EmitContext, from: BlockId, to: number): string {
    const target = this.fn.blocks[to]!;
    const temps: string[] = [];
    const writes: string[] = [];
    for (const inst of target.insts) {
      if (inst.op !== 'phi') break;
      const inc = inst.incoming.find((i) => i.block === from);
      if (!inc) throw new SimError('internal', `phi %${inst.id} has no incoming value from ^b${from}`);
      const kinds = this.layout.leavesOf(inst.type);
      kinds.forEach((kind, k) => {
        const t = ctx.tmp('p');
        this.declare(`v${inst.id}_${k}`, kind);
        temps.push(`const ${t} = ${ctx.read(inc.value, k)};`);
        writes.push(`v${inst.id}_${k} = ${t};`);
      });
    }
    return [...temps, ...writes].join(' ');
  }

  private emitBlock(pos: number): string {
    try {
      return this.emitBlockUnlocated(pos);
    } catch (e) {
      const b = this.fn.blocks[pos]!;
      const at = b.insts.find((i) => i.loc.line > 0) ?? b.insts[0]!;
      locate(e, siteOf(this.m, this.fn.name, at.loc));
    }
  }

  private emitBlockUnlocated(pos: number): string {
    const b = this.fn.blocks[pos]!;
    const bi = this.info.blocks[pos]!;
    const lines: string[] = [];
    const ctx = this.context(lines);
    const n = b.insts.filter(countsAsInstruction).length;
    lines.push(`case ${pos}: {`);
    if (n > 0) lines.push(`if ((ic += ${n}) > WD) { IC[l] = ic; W.watchdogHit(${this.site(b.insts[0]!)}, l); }`);
    // Only branches with several distinct successors leave a trace event: the successor's index in bi.succs.
    const multi = bi.succs.length > 1;
    const goTo = (target: BlockId): string => {
      const tp = this.blockPos.get(target)!;
      const ev = multi ? `if (TN === T.length) T = W.growTrace(l, TN); T[TN++] = ${bi.succs.indexOf(tp)}; ` : '';
      return `${this.phiCopies(ctx, b.id, tp)} ${ev}pc = ${tp};`;
    };
    for (const inst of b.insts) {
      if (inst.op === 'phi') continue;
      if (inst.op === 'variable') {
        if (inst.init !== undefined) {
          const init = this.leavesOfValue(inst.init).map((_, k) => ctx.read(inst.init!, k));
          if (this.promoted.has(inst.id)) this.promotedStore(ctx, lines, inst.id, init);
          else storeThrough(ctx, inst, inst.id, init);
        }
        continue;
      }
      switch (inst.op) {
        case 'load':
          if (this.promoted.has(inst.ptr)) {
            ctx.def(inst.id, this.promotedLoad(ctx, lines, inst.ptr, this.layout.leavesOf(inst.type).length));
            continue;
          }
          break;
        case 'store':
          if (this.promoted.has(inst.ptr)) {
            this.promotedStore(ctx, lines, inst.ptr, this.leavesOfValue(inst.value).map((_, k) => ctx.read(inst.value, k)));
            continue;
          }
          break;
        case 'accessChain': {
          const p = this.promoted.get(inst.base);
          if (p) {
            const r = promotedAccessChain(ctx, inst, p);
            this.promoted.set(inst.id, r);
            const root = this.varOf.get(inst.base)!;
            this.varOf.set(inst.id, root);
            if (r.constLeaf === undefined) this.arrayBacked.add(root);
            continue;
          }
          break;
        }
      }
      if (emitArith(ctx, inst) || emitMemory(ctx, inst)) continue;
      switch (inst.op) {
        case 'ext':
          emitExt(ctx, inst, (c, ptr, exprs, i) => {
            if (this.promoted.has(ptr)) this.promotedStore(c, lines, ptr, exprs);
            else storeThrough(c, i, ptr, exprs);
          });
          break;
        case 'image':
          emitImage(ctx, inst);
          break;
        case 'sampledImage':
          emitSampledImage(ctx, inst);
          break;
        case 'call': {
          const callee = this.infos.find((f) => f.id === inst.callee);
          if (!callee) throw new SimError('internal', `call to unknown function %${inst.callee}`);
          const args: string[] = [];
          for (const a of inst.args) this.leavesOfValue(a).forEach((_, k) => args.push(ctx.read(a, k)));
          const site = this.site(inst);
          lines.push(`if (depth >= W.maxDepth) W.recursionHit(${site}, l, ${JSON.stringify(callee.name)});`);
          if (callee.frameBytes > 0) lines.push(`W.priv.ensure(pbase + ${this.info.frameBytes + callee.frameBytes});`);
          const vals = args.map((a) => {
            const t = ctx.tmp('a');
            lines.push(`const ${t} = ${a};`);
            return t;
          });
          vals.forEach((t, k) => lines.push(`LA[${k}] = ${t};`));
          lines.push('W.tlen[l] = TN; IC[l] = ic;');
          lines.push(`L${callee.index}(W, l, depth + 1, pbase + ${this.info.frameBytes});`);
          lines.push(`TN = W.tlen[l]; T = W.traces[l]; ic = IC[l]; ${PRIV_VIEWS}`);
          const nres = this.layout.leavesOf(inst.type).length;
          if (nres > 0) ctx.def(inst.id, Array.from({ length: nres }, (_, k) => `LR[${k}]`));
          break;
        }
        case 'rtCall': {
          const args: string[] = [];
          for (const a of inst.args) this.leavesOfValue(a).forEach((_, k) => args.push(ctx.read(a, k)));
          const r = ctx.tmp('rt');
          lines.push(`const ${r} = W.rtCall(${JSON.stringify(inst.fn)}, ${this.site(inst)}, l, [${args.join(', ')}]);`);
          const kinds = this.layout.leavesOf(inst.type);
          if (kinds.length > 0) {
            const k = kinds[0]!;
            ctx.def(inst.id, [k === 'bool' ? `(${r} !== 0)` : k === 'i32' ? `(${r} | 0)` : k === 'u32' ? `(${r} >>> 0)` : r]);
          }
          break;
        }
        case 'clock': {
          // Same definition as the warp engine: instructions this invocation executed before the clock.
          const nres = this.layout.leavesOf(inst.type).length;
          const c = ctx.tmp('clk');
          const idx = b.insts.filter(countsAsInstruction).findIndex((x) => x.id === inst.id);
          lines.push(`const ${c} = ic - ${n} + ${idx};`);
          ctx.def(inst.id, nres === 2 ? [`X.lo32u(${c})`, `X.hi32u(${c})`] : [c]);
          break;
        }
        case 'traceRay':
        case 'reportIntersection':
        case 'executeCallable':
          lines.push(`W.unlowered(${JSON.stringify(inst.op)}, ${this.site(inst)}, l);`);
          break;
        case 'branch':
          lines.push(goTo(inst.target), 'continue;');
          break;
        case 'condBranch':
          if (inst.ifTrue === inst.ifFalse) lines.push(goTo(inst.ifTrue), 'continue;');
          else lines.push(`if (${ctx.read(inst.cond, 0)}) { ${goTo(inst.ifTrue)} } else { ${goTo(inst.ifFalse)} }`, 'continue;');
          break;
        case 'switch':
          lines.push(switchStatementJs(inst, ctx.read(inst.selector, 0), this.leavesOfValue(inst.selector)[0] === 'u32', goTo), 'continue;');
          break;
        case 'return': {
          lines.push('W.tlen[l] = TN; IC[l] = ic;');
          if (inst.value !== undefined) {
            const v = inst.value;
            const n = this.leavesOfValue(v).length;
            for (let k = 0; k < n; k++) lines.push(`LR[${k}] = ${ctx.read(v, k)};`);
          }
          lines.push('return;');
          break;
        }
        case 'unreachable':
        case 'ignoreIntersection':
        case 'terminateRay':
          lines.push('W.tlen[l] = TN; IC[l] = ic;', 'return;');
          break;
        default:
          throw new SimError('unsupported', `IR op '${inst.op}' is not supported by the lane-serial backend`);
      }
    }
    lines.push('}');
    return lines.join('\n');
  }

  /** Locals of statically addressed leaves; array-backed variables read their array. */
  private promotedLoad(ctx: EmitContext, lines: string[], ptr: ValueId, n: number): string[] {
    const p = this.promoted.get(ptr)!;
    const root = this.varOf.get(ptr)!;
    const base = p.constLeaf !== undefined ? String(p.constLeaf) : ctx.read(ptr, 0);
    const out: string[] = [];
    for (let k = 0; k < n; k++) {
      if (this.arrayBacked.has(root) || p.constLeaf === undefined) out.push(`A${root}[${base} + ${k}]`);
      else {
        const name = `x${root}_${p.constLeaf + k}`;
        this.declare(name, 'f32');
        out.push(name);
      }
    }
    void lines;
    return out;
  }

  private promotedStore(ctx: EmitContext, lines: string[], ptr: ValueId, exprs: string[]): void {
    const p = this.promoted.get(ptr)!;
    const root = this.varOf.get(ptr)!;
    const base = p.constLeaf !== undefined ? String(p.constLeaf) : ctx.read(ptr, 0);
    const vals = exprs.map((e) => {
      const t = ctx.tmp('s');
      lines.push(`const ${t} = ${e};`);
      return t;
    });
    vals.forEach((v, k) => {
      if (this.arrayBacked.has(root) || p.constLeaf === undefined) lines.push(`A${root}[${base} + ${k}] = ${v};`);
      else {
        const name = `x${root}_${p.constLeaf + k}`;
        this.declare(name, 'f32');
        lines.push(`${name} = ${v};`);
      }
    });
  }
}

/**
 * Compiles every function of an eligible module to lane-serial JS. `infos` are the warp backend's
 * FunctionInfos (block global indices, frame sizes), shared so traces replay against them.
 */
export function compileLaneSerial(m: Module, statics: ModuleStatics, sites: Site[], infos: FunctionInfo[]): LaneFn[] {
  const sources = m.functions.map((fn, i) => {
    const first = new LaneFunctionCompiler(m, fn, infos[i]!, statics, [], infos);
    const src = first.compile();
    if (first.arrayBacked.size === 0) {
      // Recompile with the real site table only so error sites are numbered once.
      return new LaneFunctionCompiler(m, fn, infos[i]!, statics, sites, infos).compile();
    }
    // Some variable turned out to be dynamically indexed after earlier accesses were emitted as
    // locals: compile again knowing which variables live in arrays.
    void src;
    return new LaneFunctionCompiler(m, fn, infos[i]!, statics, sites, infos, first.arrayBacked).compile();
  });
  const body = `"use strict";\n${sources.join('\n')}\nreturn [${m.functions.map((_, i) => `L${infos[i]!.index}`).join(', ')}];`;
  try {
    return (new Function(body) as () => LaneFn[])();
  } catch (e) {
    throw new SimError('internal', `generated lane-serial JS does not compile: ${(e as Error).message}`);
  }
}
