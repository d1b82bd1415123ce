/**
 * What the timing model's issue stage needs of a piece's counted instructions (StepDeps): their
 * in-piece register dependencies, the PTX each stands for (ptx-ops-of.ts), register numbers for the
 * operand collector, and the keys of the cross-step register table.
 */
import type { Inst, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import { type InstDeps, packStepDeps, type StepDeps } from '../step-deps-layout.js';
import { DESCRIPTOR_PTX, ptxSequenceOf, sequenceClassCounts, type OperandTypes } from './ptx-ops-of.js';
import { MOVS_PER_CONSTANT } from './first-use-loads.js';
import { IssueUnit, PtxOp, ptxUnitOf } from '../ptx-op.js';

/**
 * In-piece register dependencies of the counted instructions, and what the issue stage charges
 * each (see StepDeps), on the PTX Vulkan-Sim runs: an instruction with no PTX counterpart
 * (ptx-ops-of.ts: promoted-variable loads and stores, composite moves) issues nothing, and an
 * instruction reading its value depends on the instructions that value comes from instead (a
 * promoted load's value: the last store to that variable in the piece).
 *
 * An instruction that issues nothing but passes a value from an earlier step on to a key later
 * steps read (a store of such a value to a promoted variable, an inlined call's by-value argument,
 * an inlined function's returned value) is a forwarding entry: count 0 with XSrc and WKeys; the
 * issue stage copies the ready cycle across when the warp reaches it.
 */
export function stepDeps(
  counted: readonly Inst[], types: OperandTypes,
  isRegister: (v: ValueId) => boolean, promotedRoot: (inst: Inst) => number, phis: number,
  nir: NirShaping = NO_SHAPING, phiValues: BlockPhiValues = NO_PHI_VALUES,
): StepDeps {
  const n = counted.length;
  /** SSA value -> the issuing instructions of the piece its value comes from. */
  const sources = new Map<ValueId, readonly number[]>();
  /** Promoted variable (first slot) -> the issuing instructions of the value last stored to it in the piece. */
  const stored = new Map<number, readonly number[]>();
  /** The same for what comes from before the piece: SSA value / promoted variable -> cross-step keys (see StepDeps.xsrc). */
  const crossOf = new Map<ValueId, readonly number[]>();
  const storedCross = new Map<number, readonly number[]>();
  const writes: number[][] = counted.map(() => []);
  const crossKeysOf = (v: ValueId): readonly number[] => crossOf.get(v) ?? (sources.has(v) || !isRegister(v) ? [] : [nir.keyOf(v)]);
  /** Each instruction's entry; its wkeys are `writes[i]`, which later stores still extend. */
  const insts: InstDeps[] = [];
  const sourcesOf = (v: ValueId): readonly number[] => sources.get(v) ?? [];
  counted.forEach((inst, i) => {
    const same = nir.duplicateOf(inst);
    if (same !== undefined && 'id' in inst && typeof inst.id === 'number') {
      // NIR's CSE removed it: it issues nothing, and its readers wait for the instruction it duplicates.
      insts.push({ ptx: 0, count: 0, dst: -1, deps: [], chain: [], regs: [], xsrc: [], wkeys: writes[i]! });
      sources.set(inst.id, sourcesOf(same));
      crossOf.set(inst.id, crossKeysOf(same));
      return;
    }
    const moves = nir.inlinedMoves(inst);
    if (moves !== undefined) {
      // A call or return NIR inlines issues nothing: its values pass to the keys the other side reads.
      const xsrc = new Set<number>();
      for (const { key, value } of moves) {
        for (const p of sourcesOf(value)) writes[p]!.push(key);
        const cross = crossKeysOf(value);
        for (const k of cross) xsrc.add(k);
        if (cross.length > 0) writes[i]!.push(key);
      }
      // A constant argument's load_const sits before the call; the movs wait for nothing but hold back the forwarded keys.
      const k = nir.newConstants(inst);
      insts.push({ ptx: k > 0 ? PtxOp.Other : 0, count: MOVS_PER_CONSTANT * k, dst: -1, deps: [], chain: [], regs: [], xsrc: [...xsrc], wkeys: writes[i]!, extra: movsAfterFirst(MOVS_PER_CONSTANT * k) });
      return;
    }
    const root = promotedRoot(inst);
    const override = nir.countOverride(inst);
    const seq = ptxSequenceOf(inst, types, root >= 0 || nir.removedByNir(inst) || override === 0, nir.sharedReciprocal(inst));
    if (override !== undefined && override > 0) seq.count = override;
    let from: readonly number[];
    let cross: readonly number[];
    if (root >= 0 && inst.op === 'load') {
      from = stored.get(root) ?? [];
      cross = stored.has(root) ? (storedCross.get(root) ?? []) : [PROMOTED_KEY + root];
    } else {
      const acc = new Set<number>();
      const xacc = new Set<number>();
      for (const v of operands(inst)) {
        for (const p of sourcesOf(v)) acc.add(p);
        for (const k of crossKeysOf(v)) xacc.add(k);
      }
      from = [...acc];
      cross = [...xacc];
    }
    // A store to part of a variable leaves the rest: a later load waits for every store to it in the piece.
    if (root >= 0 && inst.op === 'store') {
      stored.set(root, [...new Set([...(stored.get(root) ?? []), ...sourcesOf(inst.value)])]);
      storedCross.set(root, [...new Set([...(storedCross.get(root) ?? []), ...crossKeysOf(inst.value)])]);
      // The instructions producing the stored value write the variable, for the steps after this one;
      // a value from an earlier step passes to it when the store is reached (a forwarding entry).
      for (const p of sourcesOf(inst.value)) writes[p]!.push(PROMOTED_KEY + root);
      if (crossKeysOf(inst.value).length > 0) writes[i]!.push(PROMOTED_KEY + root);
    }
    const entry: InstDeps = { ptx: seq.chain[0] ?? 0, count: seq.count, dst: -1, deps: [], chain: [], regs: [], xsrc: [], wkeys: writes[i]! };
    insts.push(entry);
    const id: ValueId | undefined = 'id' in inst && typeof inst.id === 'number' && inst.op !== 'store' ? inst.id : undefined;
    if (seq.count === 0) {
      if (id !== undefined) {
        sources.set(id, from);
        crossOf.set(id, cross);
      }
      if (entry.wkeys.length > 0) entry.xsrc = cross;
      return;
    }
    entry.deps = from;
    entry.xsrc = cross;
    entry.chain = seq.chain.slice(1);
    const vecMovs = nir.vectorMoves(inst);
    if (vecMovs > 0) {
      // The vecN's movs issue before it, and it waits for the first (nir_print.c).
      entry.count = Math.min(255, entry.count + vecMovs);
      entry.ptx = PtxOp.Other;
      entry.chain = [...seq.chain];
    }
    const loads = MOVS_PER_CONSTANT * nir.newConstants(inst) + DESCRIPTOR_PTX * nir.newDescriptors(inst);
    if (loads > 0) {
      // Its first-used constants' movs and descriptors issue before it, and it reads the first one's register (first-use-loads.ts).
      entry.count = Math.min(255, entry.count + loads);
      entry.ptx = PtxOp.Other;
      entry.chain = [...seq.chain];
    }
    entry.extra = extraOps(inst, seq, 'type' in inst && typeof inst.type === 'number' ? types.componentsOfType(inst.type) : 1, vecMovs + loads, entry.ptx, entry.count);
    const regs: number[] = [];
    for (const v of operands(inst)) if (!regs.includes(v) && isRegister(v)) regs.push(v);
    entry.regs = regs;
    if (id !== undefined) {
      entry.dst = id;
      sources.set(id, [i]);
      writes[i]!.push(id);
    }
  });
  // Out of SSA, each phi of the block is a mov the predecessor executes before branching here (translate_phi).
  if (n > 0 && phis > 0) {
    const first = insts[0]!;
    // The movs read their sources (the first instruction waits for them, as the warp waits at each
    // mov in Vulkan-Sim) and write the phis' values (DepField.PhiKeys).
    const reads = new Set(first.xsrc);
    const writes = new Set<number>();
    for (const root of phiValues.variables) {
      reads.add(PROMOTED_KEY + root);
      writes.add(PROMOTED_KEY + root);
    }
    for (const phi of phiValues.phis) {
      for (const v of phi.incoming) for (const k of crossKeysOf(v)) reads.add(k);
      if (isRegister(phi.id)) writes.add(nir.keyOf(phi.id));
    }
    first.xsrc = [...reads];
    first.phiKeys = [...writes];
    const extra = [...(first.extra ?? [0, 0, 0, 0])];
    extra[IssueUnit.Int] = extra[IssueUnit.Int]! + (first.count > 0 ? phis : phis - 1);
    first.extra = extra;
    first.count = Math.min(255, first.count) + phis;
  }
  return packStepDeps(insts);
}

/**
 * IR ops that are not ALU instructions: the first PTX instruction goes to the LD/ST unit, the RT
 * unit or the branch path, and the instructions around it (movs, address and descriptor set-up,
 * the translator's own code for a traceRay) are INT-class.
 */
const NOT_ALU: ReadonlySet<string> = new Set([
  'load', 'store', 'atomic', 'image', 'rtCall', 'call', 'branch', 'condBranch', 'switch', 'return', 'unreachable',
  'ignoreIntersection', 'terminateRay', 'subgroup',
]);

/** `count` movs (INT-class) of which the first is the one the instruction issues as. */
function movsAfterFirst(count: number): number[] {
  return [0, Math.max(0, count - 1), 0, 0];
}

/**
 * The PTX instructions after the first of an instruction issuing `count` in all, by unit class
 * (DepField.Extra): an ALU instruction's sequence by class (sequenceClassCounts, over its result's
 * `components`) plus `movs` INT-class movs before it, less the first (`firstPtx`, whose unit the
 * issue stage reserves); anything else's are all INT-class.
 */
function extraOps(inst: Inst, seq: { chain: readonly PtxOp[]; count: number }, components: number, movs: number, firstPtx: number, count: number): number[] {
  if (count <= 1) return [0, 0, 0, 0];
  if (NOT_ALU.has(inst.op)) return movsAfterFirst(count);
  const perClass = sequenceClassCounts(seq, components);
  perClass[IssueUnit.Int] = perClass[IssueUnit.Int]! + movs;
  const first = ptxUnitOf(firstPtx as PtxOp);
  if (perClass[first]! > 0) perClass[first]!--;
  return perClass;
}

/**
 * The values a block's phi movs carry, for its first piece: the register-promoted variables NIR
 * has phis for (variable-phis.ts; their roots) and the IR's own phis (their ids and incoming values).
 */
export interface BlockPhiValues {
  variables: readonly number[];
  phis: readonly { id: ValueId; incoming: readonly ValueId[] }[];
}

const NO_PHI_VALUES: BlockPhiValues = { variables: [], phis: [] };

/** What lavapipe's NIR passes do to a piece's instructions before Vulkan-Sim's translator sees them. */
export interface NirShaping {
  /** Descriptors the instruction loads first (first-use-loads.ts). */
  newDescriptors(inst: Inst): number;
  /** Components of the constants the instruction loads first (first-use-loads.ts). */
  newConstants(inst: Inst): number;
  /** The value a dominating instruction computed that this one duplicates (nir_opt_cse; redundant-instructions.ts). */
  duplicateOf(inst: Inst): ValueId | undefined;
  /** A division whose divisor's reciprocal a dominating division already took (redundant-instructions.ts). */
  sharedReciprocal(inst: Inst): boolean;
  /**
   * For a call or return that NIR's inlining removes (inlined-calls.ts), the values it passes and
   * the register-table keys the other side reads them under; undefined for any other instruction.
   */
  inlinedMoves(inst: Inst): readonly { key: number; value: ValueId }[] | undefined;
  /**
   * An instruction NIR removes: of a loop it unrolls, the exit test, the induction update and the
   * loop's jumps (unrolled-loops.ts); one computing only what no caller reads (dead-results.ts).
   */
  removedByNir(inst: Inst): boolean;
  /** The PTX count of an instruction that stands for the translator's own code (trace-ray-ptx.ts), 0: none; undefined: its own. */
  countOverride(inst: Inst): number | undefined;
  /** Movs of the vecN instructions NIR builds for the vector operands the instruction reads whole. */
  vectorMoves(inst: Inst): number;
  /** The register-table key a value from an earlier step is read under (an inlined call's result: its callee's return key). */
  keyOf(v: ValueId): number;
}

const NO_SHAPING: NirShaping = {
  newConstants: () => 0, newDescriptors: () => 0, duplicateOf: () => undefined, sharedReciprocal: () => false, inlinedMoves: () => undefined, removedByNir: () => false, vectorMoves: () => 0, countOverride: () => undefined, keyOf: (v) => v,
};

/** Cross-step key of a register-promoted variable (its first slot): above every SSA value id. */
const PROMOTED_KEY = 2 ** 30;
