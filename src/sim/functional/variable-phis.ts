/**
 * The phis NIR's nir_lower_vars_to_ssa gives the variables our IR keeps as loads and stores of
 * register-promoted (and inlined-argument) variables. Our IR has a phi only where SPIR-V had one;
 * a local variable that control flow defines differently along two paths has none. In NIR it
 * has one phi per scalar component (lavapipe runs nir_lower_phis_to_scalar), and Vulkan-Sim's
 * translate_phi (ptx_lower_instructions.py) turns each phi into a mov at the end of every
 * predecessor: so each entry into the block issues one mov per phi.
 *
 * Placement is NIR's phi builder: the iterated dominance frontier of the blocks that store the
 * component, where the component is live (read before it is written again); nir_opt_remove_phis
 * keeps a phi with an undefined source, so no definition at the entry is assumed. A store whose
 * component the pointer picks at run time (a dynamic index) defines every component of its
 * variable without ending the earlier values' lives.
 */
import type { Cfg } from '../../ir/cfg.js';
import { dominanceFrontiers, type DomTree } from '../../ir/dominators.js';
import type { BlockId, Inst } from '../../ir/inst.js';
import type { Function } from '../../ir/module.js';

/** One load or store of a variable, by scalar component. */
export interface VariableAccess {
  /** The variable (any number unique within the function). */
  variable: number;
  /** Its scalar components. */
  size: number;
  /** The components accessed: [first, first + count); undefined: picked at run time (all of them, maybe). */
  first: number | undefined;
  count: number;
}

/** A block's phis: how many scalar phis, and the variables they are components of. */
export interface BlockPhis {
  count: number;
  variables: number[];
}

/** Scalar phis per block of `fn`; `access(inst)`: the variable access a load or store is, if any. */
export function variablePhis(fn: Function, cfg: Cfg, dom: DomTree, access: (inst: Inst) => VariableAccess | undefined): Map<BlockId, BlockPhis> {
  const base = new Map<number, number>();
  /** The variable of each scalar component (leaf). */
  const variableOf: number[] = [];
  let leaves = 0;
  const blocks = cfg.rpo;
  const index = new Map(blocks.map((b, i) => [b, i]));
  const byId = new Map(fn.blocks.map((b) => [b.id, b]));
  // Per block: components read before written (use), written entirely (kill), written at all (def).
  const uses: Set<number>[] = blocks.map(() => new Set());
  const kills: Set<number>[] = blocks.map(() => new Set());
  const defs: Set<number>[] = blocks.map(() => new Set());
  blocks.forEach((id, i) => {
    for (const inst of byId.get(id)?.insts ?? []) {
      if (inst.op !== 'load' && inst.op !== 'store') continue;
      const a = access(inst);
      if (a === undefined) continue;
      if (!base.has(a.variable)) {
        base.set(a.variable, leaves);
        for (let k = 0; k < a.size; k++) variableOf.push(a.variable);
        leaves += a.size;
      }
      const b0 = base.get(a.variable)!;
      const first = a.first ?? 0;
      const count = a.first === undefined ? a.size : a.count;
      for (let k = b0 + first; k < b0 + first + count; k++) {
        if (inst.op === 'load') {
          if (!kills[i]!.has(k)) uses[i]!.add(k);
        } else {
          defs[i]!.add(k);
          if (a.first !== undefined) kills[i]!.add(k);
        }
      }
    }
  });
  if (leaves === 0) return new Map();
  // Liveness, backwards to a fixpoint, as bit sets.
  const words = (leaves + 31) >>> 5;
  const liveIn = blocks.map(() => new Uint32Array(words));
  const succs = blocks.map((b) => (cfg.succs.get(b) ?? []).map((s) => index.get(s)).filter((s): s is number => s !== undefined));
  const useBits = uses.map((s) => bits(s, words));
  const killBits = kills.map((s) => bits(s, words));
  const out = new Uint32Array(words);
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = blocks.length - 1; i >= 0; i--) {
      out.fill(0);
      for (const s of succs[i]!) for (let w = 0; w < words; w++) out[w]! |= liveIn[s]![w]!;
      const inn = liveIn[i]!;
      for (let w = 0; w < words; w++) {
        const v = (useBits[i]![w]! | (out[w]! & ~killBits[i]![w]!)) >>> 0;
        if (v !== inn[w]) {
          inn[w] = v;
          changed = true;
        }
      }
    }
  }
  // Phis at the iterated dominance frontier of each component's defining blocks, where it is live.
  const df = dominanceFrontiers(cfg, dom);
  const defBlocks = new Map<number, number[]>();
  defs.forEach((s, i) => {
    for (const k of s) {
      if (!defBlocks.has(k)) defBlocks.set(k, []);
      defBlocks.get(k)!.push(i);
    }
  });
  const phis = new Map<BlockId, BlockPhis>();
  for (const [k, from] of defBlocks) {
    const placed = new Set<number>();
    const work = [...from];
    while (work.length > 0) {
      const d = work.pop()!;
      for (const f of df.get(blocks[d]!) ?? []) {
        const fi = index.get(f)!;
        if (placed.has(fi)) continue;
        placed.add(fi);
        work.push(fi);
      }
    }
    for (const fi of placed) {
      if ((liveIn[fi]![k >>> 5]! & (1 << (k & 31))) === 0) continue;
      const at = phis.get(blocks[fi]!) ?? { count: 0, variables: [] };
      at.count++;
      if (!at.variables.includes(variableOf[k]!)) at.variables.push(variableOf[k]!);
      phis.set(blocks[fi]!, at);
    }
  }
  return phis;
}

function bits(s: ReadonlySet<number>, words: number): Uint32Array {
  const out = new Uint32Array(words);
  for (const k of s) out[k >>> 5]! |= 1 << (k & 31);
  return out;
}
