/**
 * What the timing model's issue stage needs of a piece's counted instructions (StepDeps): their
 * in-piece register dependencies, the PTX each stands for (ptx-ops-of.ts), register numbers for the
 * operand collector, and the keys of the cross-step register table.
 */
import type { Inst, ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import type { StepDeps } from '../warp-step.js';
import { ptxSequenceOf, type OperandTypes } from './ptx-ops-of.js';

/**
 * In-piece register dependencies of the counted instructions, and what the issue stage charges
 * each (see StepDeps), on the PTX Vulkan-Sim runs: an instruction with no PTX counterpart
 * (ptx-ops-of.ts: promoted-variable loads and stores, composite moves) issues nothing, and an
 * instruction reading its value depends on the instructions that value comes from instead (a
 * promoted load's value: the last store to that variable in the piece).
 */
export function stepDeps(
  counted: readonly Inst[], types: OperandTypes,
  isRegister: (v: ValueId) => boolean, promotedRoot: (inst: Inst) => number, phis: number,
): StepDeps {
  const n = counted.length;
  /** SSA value -> the issuing instructions of the piece its value comes from. */
  const sources = new Map<ValueId, readonly number[]>();
  /** Promoted variable (first slot) -> the issuing instructions of the value last stored to it in the piece. */
  const stored = new Map<number, readonly number[]>();
  /** The same for what comes from before the piece: SSA value / promoted variable -> cross-step keys (see StepDeps.xsrc). */
  const crossOf = new Map<ValueId, readonly number[]>();
  const storedCross = new Map<number, readonly number[]>();
  const xStart = new Uint32Array(n + 1);
  const xsrc: number[] = [];
  const writes: number[][] = counted.map(() => []);
  const crossKeysOf = (v: ValueId): readonly number[] => crossOf.get(v) ?? (sources.has(v) || !isRegister(v) ? [] : [v]);
  const start = new Uint32Array(n + 1);
  const list: number[] = [];
  const ptx = new Uint8Array(n);
  const ptxCount = new Uint8Array(n);
  const chainStart = new Uint32Array(n + 1);
  const chain: number[] = [];
  const regStart = new Uint32Array(n + 1);
  const regs: number[] = [];
  const dst = new Int32Array(n).fill(-1);
  const sourcesOf = (v: ValueId): readonly number[] => sources.get(v) ?? [];
  counted.forEach((inst, i) => {
    const root = promotedRoot(inst);
    const seq = ptxSequenceOf(inst, types, root >= 0);
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
      // The instructions producing the stored value write the variable, for the steps after this one.
      for (const p of sourcesOf(inst.value)) writes[p]!.push(PROMOTED_KEY + root);
    }
    start[i] = list.length;
    ptx[i] = seq.chain[0]!;
    ptxCount[i] = Math.min(255, seq.count);
    chainStart[i] = chain.length;
    regStart[i] = regs.length;
    xStart[i] = xsrc.length;
    const id: ValueId | undefined = 'id' in inst && typeof inst.id === 'number' && inst.op !== 'store' ? inst.id : undefined;
    if (seq.count === 0) {
      if (id !== undefined) {
        sources.set(id, from);
        crossOf.set(id, cross);
      }
      return;
    }
    list.push(...from);
    xsrc.push(...cross);
    for (let k = 1; k < seq.chain.length; k++) chain.push(seq.chain[k]!);
    const seen = new Set<number>();
    for (const v of operands(inst)) {
      if (!seen.has(v) && isRegister(v)) {
        seen.add(v);
        regs.push(v);
      }
    }
    if (id !== undefined) {
      dst[i] = id;
      sources.set(id, [i]);
      writes[i]!.push(id);
    }
  });
  start[n] = list.length;
  xStart[n] = xsrc.length;
  // Out of SSA, each phi of the block is a mov the predecessor executes before branching here (translate_phi).
  if (n > 0 && phis > 0) ptxCount[0] = Math.min(255, ptxCount[0]! + phis);
  const wStart = new Uint32Array(n + 1);
  const wkeys: number[] = [];
  writes.forEach((w, i) => {
    wStart[i] = wkeys.length;
    wkeys.push(...w);
  });
  wStart[n] = wkeys.length;
  chainStart[n] = chain.length;
  regStart[n] = regs.length;
  return {
    start, list: Uint32Array.from(list),
    ptx, ptxCount, chainStart, chain: Uint8Array.from(chain), regStart, regs: Int32Array.from(regs), dst,
    xStart, xsrc: Int32Array.from(xsrc), wStart, wkeys: Int32Array.from(wkeys),
  };
}

/** Cross-step key of a register-promoted variable (its first slot): above every SSA value id. */
const PROMOTED_KEY = 2 ** 30;
