/**
 * Compiles one IR function to JavaScript executing one warp's active lanes.
 *
 * Shape of the output: every basic block becomes one or more *pieces* (JS functions
 * `(W, F, mask) => void`); a piece ends at a call, at an rtCall traverse (so the timing model sees
 * the RT work as one step) or at the block's terminator. A piece is a sequence of *segments*: lane
 * loops running straight-line code per active lane, and warp-wide segments for subgroup ops, which
 * need every lane's operand at once.
 *
 * Invariants:
 * - SSA values used only in the segment that defines them are JS locals (`v<id>_<leaf>`); every
 *   other value (phis, parameters, call and subgroup results, values crossing segments, pieces or
 *   blocks) also lives in the frame's register file `R[slot*32 + lane]`.
 * - Constants, globals and escaping function-storage variables are materialised as expressions
 *   (pointers into private memory); non-escaping variables are register-promoted
 *   (promoted-vars.ts) with store-to-load forwarding inside a lane loop.
 * - Phis are written by their predecessors' terminators through temporaries (parallel copy).
 * - Each piece adds its executed instruction count to the lanes' instruction counters at entry,
 *   and raises the watchdog SimError when a lane exceeds the limit.
 * - Blocks are compiled in reverse post-order, so a value's static pointer info is known before
 *   any use (definitions dominate uses).
 */
import type { BlockId, FunctionId, Inst, InstOf, ValueId } from '../../ir/inst.js';
import { operands, successors } from '../../ir/inst.js';
import type { Block, Function, Module } from '../../ir/module.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { buildCfg, reversePostOrder, type Cfg } from '../../ir/cfg.js';
import { dominatorTree, immediatePostDominator, postDominatorTree } from '../../ir/dominators.js';
import { OpClass, type StepDeps } from '../warp-step.js';
import { isRtStateStorage } from './rt-state-storage.js';
import {
  EXIT, countsAsInstruction, defaultClass, splitBlock,
  type BlockInfo, type FunctionInfo, type Piece, type PieceFn, type PieceInfo,
} from './block-pieces.js';

export { EXIT, countsAsInstruction, type BlockInfo, type FunctionInfo, type PieceFn, type PieceInfo } from './block-pieces.js';
import type { EmitContext, MemSite, PtrInfo } from './emit-context.js';
import { switchStatementJs } from './emit-switch.js';
import { emitArith } from './emit-arith.js';
import { emitExt } from './emit-ext.js';
import { emitMemory, storeThrough } from './emit-memory.js';
import { emitImage, emitSampledImage } from './emit-image.js';
import { emitSubgroup } from './subgroup.js';
import { LayoutTable, PRIVATE_BASE, alignUp, type LeafKind } from './layout.js';
import { SimError, locate, siteOf, type Site } from './errors.js';
import type { ModuleStatics } from './module-statics.js';
import { SegmentCache, promotableVariables, promotedAccessChain, promotedLoad, promotedStore, type PromotedPtr } from './promoted-vars.js';
import { partialAccessCount, vectorMovesOf, type OperandTypes } from './ptx-ops-of.js';
import { stepDeps } from './step-deps.js';
import type { FirstUseLoads } from './first-use-loads.js';
import { returnKey, type InlinedCalls } from './inlined-calls.js';
import { type BlockPhis, variablePhis, type VariableAccess } from './variable-phis.js';
import { chargesAfterUnrolling, unrolledLoops, type UnrolledLoops } from './unrolled-loops.js';
import type { TracePtx } from './trace-ray-ptx.js';
import { redundantInstructions, type Redundancy } from './redundant-instructions.js';
import { redundantStateStores, type ReturnSummaries } from './redundant-stores.js';
import type { DeadCode } from './dead-results.js';

/**
 * Each block's successor in the layout NIR's structured control flow gives the PTX: reverse
 * post-order visiting a block's successors last to first, so a conditional branch's true target
 * (an if's then-block, a loop condition's body) comes right after it, the other target after
 * that, and a loop's exit after the loop.
 */
function structuredLayoutNext(cfg: Cfg): Map<BlockId, BlockId> {
  const reversed = new Map([...cfg.succs].map(([b, s]) => [b, [...s].reverse()]));
  const order = reversePostOrder(cfg.entry, reversed);
  return new Map(order.slice(0, -1).map((b, i) => [b, order[i + 1]!]));
}

export class FunctionCompiler {
  private readonly layout: LayoutTable;
  private readonly types = new Map<ValueId, TypeId>();
  private readonly ptrs = new Map<ValueId, PtrInfo>();
  private readonly regSlot = new Map<ValueId, number>();
  private readonly varOffset = new Map<ValueId, number>();
  private readonly blockPos = new Map<BlockId, number>();
  /** Register-promoted variables and the access chains derived from them. */
  private readonly promoted = new Map<ValueId, PromotedPtr>();
  private promotedVars = new Set<ValueId>();
  private cache: SegmentCache | undefined;
  /** Counted instructions of the current block through the piece being emitted, and each one's index (for clock). */
  private cumThroughPiece = 0;
  private countedIndex = new Map<ValueId, number>();
  /** What NIR's CSE removes (redundant-instructions.ts). */
  private redundant: Redundancy = { duplicates: new Map(), sharedReciprocal: new Set(), numberOf: (v) => v };
  /** Instructions NIR's dead-code elimination deletes (dead-results.ts). */
  private readonly dead: ReadonlySet<Inst>;
  /** Loads and stores NIR makes for only part of their value (redundant-stores.ts, dead-results.ts): per leaf, whether it is accessed. */
  private keptLeaves: ReadonlyMap<Inst, boolean[]> = new Map();
  /** Loads NIR shrinks to the components read (dead-results.ts). */
  private readonly loadedLeaves: ReadonlyMap<Inst, boolean[]>;
  /** Components of the constants each instruction is the first to use on its dominator-tree path (first-use-loads.ts). */
  private constLoads: ReadonlyMap<Inst, number> = new Map();
  /** The same for buffer descriptors (first-use-loads.ts). */
  private descriptorLoads: ReadonlyMap<Inst, number> = new Map();
  /** Scalar phis NIR's lower_vars_to_ssa puts in each block for our register variables (variable-phis.ts). */
  private varPhis = new Map<BlockId, BlockPhis>();
  /** Loops NIR unrolls, and the instructions unrolling removes (unrolled-loops.ts). */
  private unrolled: UnrolledLoops = { removed: new Set(), headers: new Set(), next: new Map(), entered: new Map() };
  /** The instruction defining each value of the function. */
  private readonly defOf = new Map<ValueId, Inst>();
  /** Movs the piece being emitted is charged before its first instruction: its block's phis (first piece), the shader's prologue (entry). */
  private pieceVarPhis = 0;
  /** The promoted variables (roots) its block's phi movs carry (first piece). */
  private pieceVarPhiRoots: readonly number[] = [];
  private nextSlot = 0;

  constructor(
    private readonly m: Module,
    private readonly fn: Function,
    private readonly statics: ModuleStatics,
    private readonly sites: Site[],
    private readonly firstBlockIndex: number,
    private readonly firstUse: { constants: FirstUseLoads; descriptors: FirstUseLoads },
    private readonly inlined: InlinedCalls,
    private readonly tracePtx: TracePtx,
    private readonly storeSummaries: ReturnSummaries,
    deadCode: ReadonlyMap<FunctionId, DeadCode>,
  ) {
    this.layout = statics.layout;
    this.dead = deadCode.get(fn.id)?.dead ?? new Set();
    this.loadedLeaves = deadCode.get(fn.id)?.loadedLeaves ?? new Map();
  }

  private site(inst: Inst): number {
    this.sites.push(siteOf(this.m, this.fn.name, inst.loc));
    return this.sites.length - 1;
  }

  private allocSlots(v: ValueId, n: number): number {
    const s = this.nextSlot;
    this.regSlot.set(v, s);
    this.nextSlot += Math.max(n, 1);
    return s;
  }

  compile(): FunctionInfo {
    const fn = this.fn;
    const tt = this.m.types;
    fn.blocks.forEach((b, i) => this.blockPos.set(b.id, i));
    // Types and pointer infos of parameters and results.
    const params = fn.params.map((p) => {
      this.types.set(p.id, p.type);
      const t = typeOf(tt, p.type);
      if (t.kind === 'pointer') this.ptrs.set(p.id, this.genericPtr(p.type));
      const n = this.layout.leavesOf(p.type).length;
      return { slot: this.allocSlots(p.id, n), leaves: n };
    });
    const plans = new Map<BlockId, Piece[]>();
    const segOf = new Map<ValueId, number>();
    const lastSeg = new Map<BlockId, number>();
    let segId = 0;
    let frameBytes = 0;
    this.promotedVars = promotableVariables(fn);
    // Pointers into workgroup (shared) memory, for lock-step splitting of lane loops.
    const shared = new Set<ValueId>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const b of fn.blocks) {
        for (const inst of b.insts) {
          if (inst.op === 'accessChain' && !shared.has(inst.id) && (shared.has(inst.base) || this.statics.isWorkgroupGlobal(inst.base))) {
            shared.add(inst.id);
            changed = true;
          }
        }
      }
    }
    const isShared = (v: ValueId) => shared.has(v) || this.statics.isWorkgroupGlobal(v);
    const sharedAccess = (inst: Inst): 'load' | 'store' | undefined =>
      inst.op === 'load' && isShared(inst.ptr) ? 'load' : (inst.op === 'store' || inst.op === 'atomic') && isShared(inst.ptr) ? 'store' : undefined;
    for (const b of fn.blocks) {
      const pieces = splitBlock(b, sharedAccess);
      plans.set(b.id, pieces);
      for (const inst of b.insts) {
        this.types.set(inst.id, inst.type);
        this.defOf.set(inst.id, inst);
        if (inst.op === 'variable' && this.promotedVars.has(inst.id)) {
          const pt = typeOf(tt, inst.type);
          if (pt.kind !== 'pointer') throw new SimError('internal', 'variable of non-pointer type');
          const n = this.layout.leavesOf(pt.pointee).length;
          this.promoted.set(inst.id, { slot: this.allocSlots(inst.id, n), size: n, constLeaf: 0, pointee: pt.pointee });
        } else if (inst.op === 'variable') {
          const pt = typeOf(tt, inst.type);
          if (pt.kind !== 'pointer') throw new SimError('internal', 'variable of non-pointer type');
          const align = Math.max(4, this.layout.alignOf(pt.pointee));
          frameBytes = alignUp(frameBytes, align);
          this.varOffset.set(inst.id, frameBytes);
          frameBytes += Math.max(4, this.layout.sizeOf(pt.pointee));
          this.ptrs.set(inst.id, { base: { kind: 'private', fnStorage: true }, pointee: pt.pointee });
        }
        if (inst.op === 'phi') {
          const t = typeOf(tt, inst.type);
          if (t.kind === 'pointer') this.ptrs.set(inst.id, this.genericPtr(inst.type));
        }
        if (inst.op === 'call' || inst.op === 'load') {
          const t = typeOf(tt, inst.type);
          if (t.kind === 'pointer') this.ptrs.set(inst.id, this.genericPtr(inst.type));
        }
      }
      for (const p of pieces) {
        for (const s of p.segments) {
          segId++;
          for (const inst of s.insts) segOf.set(inst.id, segId);
        }
      }
      lastSeg.set(b.id, segId);
    }
    // Register residency.
    const needsReg = new Set<ValueId>();
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op === 'phi' || inst.op === 'call' || inst.op === 'subgroup') needsReg.add(inst.id);
        const useSeg = inst.op === 'phi' ? undefined : segOf.get(inst.id);
        if (inst.op === 'phi') {
          for (const inc of inst.incoming) {
            const d = segOf.get(inc.value);
            if (d !== undefined && d !== lastSeg.get(inc.block)) needsReg.add(inc.value);
          }
          continue;
        }
        for (const v of operands(inst)) {
          const d = segOf.get(v);
          if (d !== undefined && d !== useSeg) needsReg.add(v);
        }
      }
    }
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        if (needsReg.has(inst.id) && inst.op !== 'variable') this.allocSlots(inst.id, this.layout.leavesOf(inst.type).length);
      }
    }

    const cfg = buildCfg(fn);
    const pdt = postDominatorTree(cfg);
    const dom = dominatorTree(cfg);
    this.unrolled = unrolledLoops(fn, cfg, dom, {
      variableOf: (ptr) => {
        const p = this.promoted.get(ptr);
        return p !== undefined && p.size === 1 && p.constLeaf === 0 ? p.slot : undefined;
      },
      constant: (v) => {
        const leaves = this.statics.constantLeaves(v);
        return leaves?.length === 1 && Number.isFinite(Number(leaves[0])) ? Number(leaves[0]) : undefined;
      },
    });
    const layoutNext = structuredLayoutNext(cfg);
    // Unrolled code runs straight on from one copy of the body to the next.
    for (const [from, to] of this.unrolled.next) layoutNext.set(from, to);
    const order = [...cfg.rpo, ...fn.blocks.map((b) => b.id).filter((id) => !cfg.rpo.includes(id))];
    const blocks: BlockInfo[] = fn.blocks.map((b, i) => {
      const term = b.insts[b.insts.length - 1];
      const succs: number[] = [];
      if (term) for (const s of successors(term)) if (!succs.includes(this.blockPos.get(s)!)) succs.push(this.blockPos.get(s)!);
      const ip = immediatePostDominator(pdt, b.id);
      return {
        id: b.id,
        name: b.name ?? `b${b.id}`,
        globalIndex: this.firstBlockIndex + i,
        pieces: [],
        succs,
        ipdom: ip === undefined ? EXIT : this.blockPos.get(ip)!,
        fallThrough: layoutNext.has(b.id) ? this.blockPos.get(layoutNext.get(b.id)!)! : -1,
        insts: b.insts.filter(countsAsInstruction).length,
      };
    });
    let maxArgLeaves = 0;
    const sources: string[] = [];
    this.constLoads = chargesAfterUnrolling(this.firstUse.constants.of(fn), fn, this.unrolled);
    this.descriptorLoads = chargesAfterUnrolling(this.firstUse.descriptors.of(fn), fn, this.unrolled);
    this.varPhis = variablePhis(fn, cfg, dom, (inst) => this.variableAccess(inst));
    for (const h of this.unrolled.headers) this.varPhis.delete(h);
    // The translator's own loop counter in a lowered traceRay is a register it updates in place.
    for (const b of fn.blocks) if (b.lowered !== undefined) this.varPhis.delete(b.id);
    this.redundant = redundantInstructions(fn, dom, this.promotedVars, (v) => this.operandTypes.scalar(v) === 'f32');
    this.keptLeaves = new Map([...redundantStateStores(this.storeSummaries.input, fn, this.redundant.numberOf, this.storeSummaries), ...this.loadedLeaves]);
    for (const bid of order) {
      const pos = this.blockPos.get(bid)!;
      const b = fn.blocks[pos]!;
      const pieces = plans.get(bid)!;
      let cum = 0;
      pieces.forEach((p, pi) => {
        cum += p.insts.filter(countsAsInstruction).length;
        this.cumThroughPiece = cum;
        this.countedIndex = new Map(b.insts.filter(countsAsInstruction).map((x, i) => [x.id, i]));
        const bp = pi === 0 ? this.varPhis.get(b.id) : undefined;
        this.pieceVarPhis = bp?.count ?? 0;
        this.pieceVarPhiRoots = bp === undefined ? [] : bp.variables.map((v) => this.variableRoot(v)).filter((r) => r >= 0);
        if (pi === 0 && b === fn.blocks[0]) this.pieceVarPhis += this.tracePtx.prologue(fn);
        const piece = this.emitPiece(b, blocks[pos]!, p, `f${fn.id}_b${b.id}_${pi}`);
        for (const inst of p.insts) {
          if (inst.op === 'call') maxArgLeaves = Math.max(maxArgLeaves, inst.args.reduce((a, v) => a + this.leavesOfValue(v).length, 0));
        }
        blocks[pos]!.pieces.push(piece);
        sources.push(piece.source);
      });
    }
    const factory = new Function(`"use strict"; return [${sources.join(',\n')}];`) as () => PieceFn[];
    let fns: PieceFn[];
    try {
      fns = factory();
    } catch (e) {
      throw new SimError('internal', `generated JS for @${fn.name} does not compile: ${(e as Error).message}`);
    }
    let k = 0;
    for (const bid of order) for (const p of blocks[this.blockPos.get(bid)!]!.pieces) p.run = fns[k++]!;
    return {
      id: fn.id,
      index: -1,
      name: fn.name,
      blocks,
      regSlots: this.nextSlot,
      frameBytes,
      params,
      retLeaves: this.layout.leavesOf(fn.returnType).length,
      maxArgLeaves,
      source: sources.join('\n'),
    };
  }

  /** The PTX count of a load or store NIR makes for part of its value; undefined for any other instruction. */
  private accessCountOverride(inst: Inst): number | undefined {
    const kept = inst.op === 'store' || inst.op === 'load' ? this.keptLeaves.get(inst) : undefined;
    return kept === undefined ? undefined : partialAccessCount(inst as InstOf<'load'> | InstOf<'store'>, this.operandTypes, kept.filter((x) => x).length);
  }

  private genericPtr(ptrType: TypeId): PtrInfo {
    const t = typeOf(this.m.types, ptrType);
    if (t.kind !== 'pointer') throw new SimError('internal', 'expected pointer type');
    const s = t.storage;
    if (s === 'storageBuffer' || s === 'physicalStorageBuffer' || s === 'shaderRecordBuffer') {
      return { base: { kind: 'shared', space: 'global' }, pointee: t.pointee };
    }
    if (s === 'uniform' || s === 'pushConstant') return { base: { kind: 'shared', space: 'constant' }, pointee: t.pointee };
    if (s === 'function') return { base: { kind: 'private', fnStorage: true }, pointee: t.pointee };
    if (s === 'uniformConstant' || s === 'input' || s === 'image') return { base: { kind: 'generic' }, pointee: t.pointee };
    return { base: { kind: 'private', fnStorage: false, rtState: isRtStateStorage(s) }, pointee: t.pointee };
  }

  private leavesOfValue(v: ValueId): LeafKind[] {
    return this.layout.leavesOf(this.typeOfValue(v));
  }

  /** Operand types as the PTX-op mapping reads them (ptx-ops-of.ts). */
  private readonly operandTypes: OperandTypes = {
    scalar: (v) => {
      let t = typeOf(this.m.types, this.typeOfValue(v));
      if (t.kind === 'matrix') t = typeOf(this.m.types, t.column);
      if (t.kind === 'vector') t = typeOf(this.m.types, t.elem);
      if (t.kind === 'float') return t.width === 64 ? 'f64' : 'f32';
      return t.kind === 'int' ? 'int' : 'other';
    },
    components: (v) => this.operandTypes.componentsOfType(this.typeOfValue(v)),
    componentsOfType: (id) => {
      let t = typeOf(this.m.types, id);
      if (t.kind === 'matrix') t = typeOf(this.m.types, t.column);
      return t.kind === 'vector' ? t.count : 1;
    },
    leavesOfType: (id) => this.layout.leavesOf(id).length,
    leaves: (v) => this.layout.leavesOf(this.typeOfValue(v)).length,
    columnsOfType: (id) => {
      const t = typeOf(this.m.types, id);
      return t.kind === 'matrix' ? t.columns : 1;
    },
    isConstant: (v) => this.statics.constantLeaves(v) !== undefined,
    isConstantOne: (v) => this.statics.constantLeaves(v)?.every((leaf) => Number(leaf) === 1) ?? false,
    rootKind: (v) => {
      const info = this.statics.globalPtrInfo(v);
      if (info === undefined || info.base.kind === 'builtin') return undefined;
      return this.statics.isDescriptorBacked(v) ? 'buffer' : 'variable';
    },
  };

  /** The register variable a load or store accesses, by scalar component (variable-phis.ts); undefined for memory. */
  private variableAccess(inst: Inst): VariableAccess | undefined {
    if (inst.op !== 'load' && inst.op !== 'store') return undefined;
    const count = inst.op === 'load' ? this.layout.leavesOf(inst.type).length : this.leavesOfValue(inst.value).length;
    const p = this.promoted.get(inst.ptr);
    if (p !== undefined) return { variable: p.slot, size: p.size, first: p.constLeaf, count };
    const base = this.inlined.basePointer(inst.ptr);
    const pointee = base === undefined ? undefined : this.ptrs.get(base)?.pointee;
    if (base === undefined || pointee === undefined) return undefined;
    // An argument temporary or pointer parameter: by component through itself, any through an access chain.
    return { variable: -1 - base, size: this.layout.leavesOf(pointee).length, first: base === inst.ptr ? 0 : undefined, count };
  }

  /** The promoted root (promotedRoot's numbering) of a variable as variableAccess names it, -1 for none. */
  private variableRoot(variable: number): number {
    return variable >= 0 ? variable : this.inlined.inlinedRoot((-1 - variable) as ValueId);
  }

  /** The register-table key a value from an earlier step is read under: an inlined call's result, its callee's return key. */
  private crossKeyOf(v: ValueId): number {
    const def = this.defOf.get(v);
    return def?.op === 'call' && this.inlined.isInlinedCall(def) ? returnKey(def.callee) : v;
  }

  /** What a call or return that NIR inlines passes on, and under which keys (inlined-calls.ts); undefined for anything else. */
  private inlinedMoves(inst: Inst): { key: number; value: ValueId }[] | undefined {
    if (inst.op === 'call' && this.inlined.isInlinedCall(inst)) return this.inlined.byValueArgs(inst).map(({ param, arg }) => ({ key: param, value: arg }));
    if (inst.op === 'return' && this.inlined.inlines(this.fn.id)) return inst.value === undefined ? [] : [{ key: returnKey(this.fn.id), value: inst.value }];
    return undefined;
  }

  /** Whether a piece ending so ends in a PTX call or ret: a call of a shader stage (not inlined), or a stage's return. */
  private jumps(end: PieceInfo['end'], callee: FunctionId | undefined): boolean {
    if (end === 'return') return this.fn.stage !== undefined;
    return end === 'call' && callee !== undefined && this.m.functions.find((f) => f.id === callee)?.stage !== undefined;
  }

  /** The register-promoted variable (its first slot) a load, store or access chain goes through, or -1. */
  private promotedRoot(inst: Inst): number {
    const ptr = inst.op === 'load' || inst.op === 'store' ? inst.ptr : inst.op === 'accessChain' ? inst.base : undefined;
    if (ptr === undefined) return -1;
    return this.promoted.get(ptr)?.slot ?? this.inlined.inlinedRoot(ptr);
  }

  /** Whether an operand is a register of the PTX Vulkan-Sim runs (not a constant, a global pointer or a register-promoted variable). */
  private isRegister(v: ValueId): boolean {
    return this.statics.constantLeaves(v) === undefined && this.statics.globalPointer(v) === undefined && !this.promotedVars.has(v);
  }

  private typeOfValue(v: ValueId): TypeId {
    const t = this.types.get(v) ?? this.statics.valueType(v);
    if (t === undefined) throw new SimError('internal', `unknown value %${v} in @${this.fn.name}`);
    return t;
  }

  private emitPiece(b: Block, info: BlockInfo, p: Piece, name: string): PieceInfo {
    const lines: string[] = [];
    const needs = new Map<string, string>();
    const memSites: MemSite[] = [];
    const counted = p.insts.filter(countsAsInstruction);
    const opClasses = new Uint8Array(counted.length);
    const subgroupOps: string[] = [];
    let segLocals = new Set<ValueId>();
    let tmpCounter = 0;
    let instIndex = 0;
    let currentClass: OpClass = OpClass.Alu;
    let inWarp = false;
    const self = this;
    const term = b.insts[b.insts.length - 1]!;

    const ctx: EmitContext = {
      module: this.m,
      layout: this.layout,
      floatModel: this.statics.floatModel,
      read(v: ValueId, k: number, lane = 'l'): string {
        const c = self.statics.constantLeaves(v);
        if (c) {
          const e = c[k];
          if (e === undefined) throw new SimError('internal', `constant %${v} has no leaf ${k}`);
          if (e.startsWith('SC[')) needs.set('SC', 'W.spec');
          return e;
        }
        const g = self.statics.globalPointer(v);
        if (g) {
          if (g.need) needs.set(g.need[0], g.need[1]);
          return g.expr;
        }
        if (self.promotedVars.has(v)) return '0';
        const off = self.varOffset.get(v);
        if (off !== undefined) {
          needs.set('FB', `${PRIVATE_BASE} + F.pbase`);
          return `(FB + ${off})`;
        }
        if (lane === 'l' && segLocals.has(v)) return `v${v}_${k}`;
        const slot = self.regSlot.get(v);
        if (slot === undefined) throw new SimError('internal', `value %${v} is neither local nor in a register in @${self.fn.name}`);
        return `R[${(slot + k) * 32} + ${lane}]`;
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
        if (inWarp) throw new SimError('internal', 'def inside a warp-wide segment');
        const slot = self.regSlot.get(id);
        exprs.forEach((e, k) => {
          lines.push(`const v${id}_${k} = ${e};`);
          if (slot !== undefined) lines.push(`R[${(slot + k) * 32} + l] = v${id}_${k};`);
        });
        segLocals.add(id);
      },
      regWrite(id: ValueId, k: number, lane: string, expr: string): string {
        const slot = self.regSlot.get(id);
        if (slot === undefined) throw new SimError('internal', `subgroup result %${id} has no register`);
        return `R[${(slot + k) * 32} + ${lane}] = ${expr};`;
      },
      line: (s) => void lines.push(s),
      tmp: (prefix = 't') => `${prefix}${tmpCounter++}`,
      site: (inst) => this.site(inst),
      need: (n, init) => void needs.set(n, init),
      memSite(inst: Inst, kind: MemSite['kind'], size: number, space: MemSite['space'], wordMask = -1): number {
        memSites.push({ instIndex, kind, size, space, wordMask });
        return memSites.length - 1;
      },
      setClass: (c) => {
        currentClass = c;
      },
      keptLeaves: (inst) => this.keptLeaves.get(inst),
      removedByNir: (inst) => this.dead.has(inst),
    };

    const loopOpen = 'for (let m = mask; m !== 0; m &= m - 1) {\nconst l = 31 - Math.clz32(m & -m);';
    const countLine = counted.length > 0 ? `if ((IC[l] += ${counted.length}) > WD) W.watchdogHit(${this.site(p.insts[0]!)}, l);` : '';
    const succVars = info.succs.map((_, i) => `M${i}`);
    const lastInst = p.insts[p.insts.length - 1];
    const endsInTerm = lastInst === term;
    let end: PieceInfo['end'] = 'branch';
    let callee: FunctionId | undefined;
    let callSite: number | undefined;
    let callResultSlot = -1;
    let callResultLeaves = 0;

    p.segments.forEach((seg, si) => {
      segLocals = new Set();
      if (seg.kind === 'warp') {
        inWarp = true;
        for (const inst of seg.insts) {
          if (inst.op !== 'subgroup') continue;
          currentClass = OpClass.Control;
          emitSubgroup(ctx, inst);
          subgroupOps.push(inst.kind);
          opClasses[instIndex++] = currentClass;
        }
        inWarp = false;
        return;
      }
      lines.push(loopOpen);
      if (si === 0 && countLine) lines.push(countLine);
      this.cache = new SegmentCache(lines);
      for (const inst of seg.insts) {
        if (!countsAsInstruction(inst)) {
          if (inst.op === 'variable' && inst.init !== undefined) {
            const init = this.leavesOfValue(inst.init).map((_, k) => ctx.read(inst.init!, k));
            const pp = this.promoted.get(inst.id);
            if (pp) promotedStore(ctx, this.cache, pp, inst.id, init);
            else storeThrough(ctx, inst, inst.id, init);
          }
          continue;
        }
        currentClass = defaultClass(inst);
        let r: { end?: PieceInfo['end'] };
        try {
          r = this.emitInst(ctx, inst, b, info, succVars, lines);
        } catch (e) {
          locate(e, siteOf(this.m, this.fn.name, inst.loc));
        }
        if (r.end) end = r.end;
        if (inst.op === 'call') {
          callee = inst.callee;
          callSite = this.site(inst);
          callResultSlot = this.regSlot.get(inst.id) ?? -1;
          callResultLeaves = this.layout.leavesOf(inst.type).length;
        }
        opClasses[instIndex++] = currentClass;
      }
      this.cache.flush();
      this.cache = undefined;
      lines.push('}');
    });
    if (p.segments[0]!.kind === 'warp' && countLine) lines.unshift(`${loopOpen}\n${countLine}\n}`);
    if (endsInTerm && end === 'branch') {
      lines.unshift(`let ${succVars.map((v) => `${v} = 0`).join(', ') || '_ = 0'};`);
      lines.push(`const S = W.succ; ${succVars.map((v, i) => `S[${i}] = ${v};`).join(' ')}`);
    }
    const prelude = [
      'const R = F.regs, IC = W.threadInsts, WD = W.watchdogLimit, X = W.math, REC = W.recording, AD = W.addrBuf;',
      ...[...needs].map(([n, init]) => `const ${n} = ${init};`),
    ];
    // Prelude entries may depend on each other (PU on P): `needs` keeps insertion order, and
    // dependants are always requested after their dependency.
    const source = `function ${name}(W, F, mask) {\n${prelude.join('\n')}\n${lines.join('\n')}\n}`;
    return {
      run: undefined as unknown as PieceFn,
      insts: counted.length,
      opClasses,
      deps: stepDeps(counted, this.operandTypes, (v) => this.isRegister(v), (inst) => this.promotedRoot(inst), p.insts.filter((x) => x.op === 'phi').length + this.pieceVarPhis, {
        newConstants: (inst) => this.constLoads.get(inst) ?? 0,
        newDescriptors: (inst) => this.descriptorLoads.get(inst) ?? 0,
        duplicateOf: (inst) => this.redundant.duplicates.get(inst),
        sharedReciprocal: (inst) => this.redundant.sharedReciprocal.has(inst),
        inlinedMoves: (inst) => this.inlinedMoves(inst),
        removedByNir: (inst) => this.unrolled.removed.has(inst) || this.dead.has(inst),
        vectorMoves: (inst) => vectorMovesOf(inst, this.operandTypes, (v) => this.defOf.get(v)?.op, this.promotedRoot(inst) >= 0),
        countOverride: (inst) => this.tracePtx.countOf(inst, b) ?? this.accessCountOverride(inst),
        keyOf: (v) => this.crossKeyOf(v),
      }, {
        variables: this.pieceVarPhiRoots,
        phis: p.insts.flatMap((x) => (x.op === 'phi' ? [{ id: x.id as ValueId, incoming: x.incoming.map((e) => e.value) }] : [])),
      }),
      memSites,
      end,
      jumps: this.jumps(end, callee),
      ...(callee !== undefined ? { callee, callSite: callSite! } : {}),
      callResultSlot,
      callResultLeaves,
      subgroupOps,
      memSitesBySpace: Int32Array.from((['global', 'constant', 'texture', 'local', 'rtState'] as const).map((sp) => memSites.filter((m) => m.space === sp).length)),
      source,
    };
  }

  /** Loads, stores and access chains through register-promoted variables. */
  private emitPromoted(ctx: EmitContext, inst: Inst): boolean {
    const cache = this.cache!;
    switch (inst.op) {
      case 'load': {
        const p = this.promoted.get(inst.ptr);
        if (!p) return false;
        ctx.def(inst.id, promotedLoad(ctx, cache, p, inst.ptr, this.layout.leavesOf(inst.type).length));
        return true;
      }
      case 'store': {
        const p = this.promoted.get(inst.ptr);
        if (!p) return false;
        promotedStore(ctx, cache, p, inst.ptr, this.leavesOfValue(inst.value).map((_, k) => ctx.read(inst.value, k)));
        return true;
      }
      case 'accessChain': {
        const p = this.promoted.get(inst.base);
        if (!p) return false;
        this.promoted.set(inst.id, promotedAccessChain(ctx, inst, p));
        return true;
      }
      default:
        return false;
    }
  }

  private phiCopies(ctx: EmitContext, from: BlockId, to: number): string {
    const target = this.fn.blocks[to]!;
    const temps: string[] = [];
    const writes: string[] = [];
    for (const inst of target.insts) {
      if (inst.op !== 'phi') break;
      const inc = inst.incoming.find((i) => i.block === from);
      if (!inc) throw new SimError('internal', `phi %${inst.id} has no incoming value from ^b${from}`);
      const slot = this.regSlot.get(inst.id)!;
      this.layout.leavesOf(inst.type).forEach((_, k) => {
        const t = ctx.tmp('p');
        temps.push(`const ${t} = ${ctx.read(inc.value, k)};`);
        writes.push(`R[${(slot + k) * 32} + l] = ${t};`);
      });
    }
    return [...temps, ...writes].join(' ');
  }

  private emitInst(
    ctx: EmitContext,
    inst: Inst,
    b: Block,
    info: BlockInfo,
    succVars: string[],
    lines: string[],
  ): { end?: PieceInfo['end'] } {
    const succIndex = (target: BlockId): number => info.succs.indexOf(this.blockPos.get(target)!);
    const goTo = (target: BlockId): string => {
      const i = succIndex(target);
      return `${this.phiCopies(ctx, b.id, this.blockPos.get(target)!)} ${succVars[i]} |= 1 << l;`;
    };
    if (this.emitPromoted(ctx, inst) || emitArith(ctx, inst) || emitMemory(ctx, inst)) return {};
    switch (inst.op) {
      case 'ext':
        emitExt(ctx, inst, (c, ptr, exprs, i) => storeThrough(c, i, ptr, exprs));
        return {};
      case 'image':
        emitImage(ctx, inst);
        return {};
      case 'sampledImage':
        emitSampledImage(ctx, inst);
        return {};
      case 'call': {
        let leaf = 0;
        for (const a of inst.args) {
          this.leavesOfValue(a).forEach((_, k) => lines.push(`W.args[${(leaf + k) * 32} + l] = ${ctx.read(a, k)};`));
          leaf += this.leavesOfValue(a).length;
        }
        return { end: 'call' };
      }
      case 'rtCall': {
        const args: string[] = [];
        for (const a of inst.args) this.leavesOfValue(a).forEach((_, k) => args.push(ctx.read(a, k)));
        const r = ctx.tmp('rt');
        lines.push(`const ${r} = W.rtCall(${JSON.stringify(inst.fn)}, ${this.site(inst)}, l, [${args.join(', ')}]);`);
        if (this.layout.leavesOf(inst.type).length > 0) {
          const k = this.layout.leavesOf(inst.type)[0]!;
          ctx.def(inst.id, [k === 'bool' ? `(${r} !== 0)` : k === 'i32' ? `(${r} | 0)` : k === 'u32' ? `(${r} >>> 0)` : r]);
        }
        return inst.fn === 'traverse' ? { end: 'traverse' } : {};
      }
      case 'clock': {
        const n = this.layout.leavesOf(inst.type).length;
        const c = ctx.tmp('clk');
        // Instructions this invocation executed before the clock: IC[l] already counts the
        // block's pieces through this one.
        lines.push(`const ${c} = W.clockValue(IC[l] - ${this.cumThroughPiece} + ${this.countedIndex.get(inst.id)});`);
        ctx.def(inst.id, n === 2 ? [`X.lo32u(${c})`, `X.hi32u(${c})`] : [c]);
        return {};
      }
      case 'debugPrintf': {
        const args: string[] = [];
        for (const a of inst.args) this.leavesOfValue(a).forEach((_, k) => args.push(ctx.read(a, k)));
        const sizes = inst.args.map((a) => this.leavesOfValue(a).length);
        lines.push(`W.printf(${this.site(inst)}, l, ${JSON.stringify(inst.format)}, [${args.join(', ')}], ${JSON.stringify(sizes)});`);
        return {};
      }
      case 'traceRay':
      case 'reportIntersection':
      case 'executeCallable':
        lines.push(`W.unlowered(${JSON.stringify(inst.op)}, ${this.site(inst)}, l);`);
        if (this.layout.leavesOf(inst.type).length > 0) ctx.def(inst.id, ['false']);
        return {};
      case 'subgroup':
        throw new SimError('internal', 'subgroup op inside a lane loop');
      case 'branch':
        lines.push(goTo(inst.target));
        return { end: 'branch' };
      case 'condBranch': {
        if (inst.ifTrue === inst.ifFalse) {
          lines.push(goTo(inst.ifTrue));
        } else {
          lines.push(`if (${ctx.read(inst.cond, 0)}) { ${goTo(inst.ifTrue)} } else { ${goTo(inst.ifFalse)} }`);
        }
        return { end: 'branch' };
      }
      case 'switch':
        lines.push(switchStatementJs(inst, ctx.read(inst.selector, 0), this.leavesOfValue(inst.selector)[0] === 'u32', goTo));
        return { end: 'branch' };
      case 'return': {
        if (inst.value !== undefined) {
          const v = inst.value;
          this.leavesOfValue(v).forEach((_, k) => lines.push(`F.ret[${k * 32} + l] = ${ctx.read(v, k)};`));
        }
        return { end: 'return' };
      }
      case 'unreachable':
      case 'ignoreIntersection':
      case 'terminateRay':
        return { end: 'return' };
      default:
        throw new SimError('unsupported', `IR op '${inst.op}' is not supported by the functional core`);
    }
  }
}
