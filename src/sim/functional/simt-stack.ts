/**
 * The SIMT reconvergence stack transitions (immediate post-dominator reconvergence, Vulkan-Sim
 * baseline) and the per-piece counter updates, shared by the warp-synchronous engine (warp.ts)
 * and the lane-serial engine's trace replay (trace-replay.ts), so both produce identical counters.
 *
 * Invariants: see warp.ts. `branch` gets the mask of lanes going to each successor (W.succ order)
 * and either moves the entry (uniform branch) or moves it to the ipdom / pops it and pushes one
 * entry per taken successor that is not the ipdom, first successor on top.
 */
import { EXIT, type BlockInfo, type FunctionInfo, type PieceInfo } from './compile-to-js.js';
import type { SimtEntry } from './launch-state.js';
import type { CounterSet } from './counters.js';

export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

export function simtBranch(stack: SimtEntry[], E: SimtEntry, block: BlockInfo, succMasks: Int32Array): void {
  const succs = block.succs;
  let taken = -1;
  let count = 0;
  for (let i = 0; i < succs.length; i++) {
    if (succMasks[i] !== 0) {
      count++;
      taken = i;
    }
  }
  if (count <= 1) {
    E.pc = taken < 0 ? EXIT : succs[taken]!;
    E.piece = 0;
    return;
  }
  const r = block.ipdom;
  if (E.rpc === r) stack.pop();
  else {
    E.pc = r;
    E.piece = 0;
  }
  for (let i = succs.length - 1; i >= 0; i--) {
    const m = succMasks[i]!;
    if (m === 0 || succs[i] === r) continue;
    stack.push({ pc: succs[i]!, piece: 0, rpc: r, mask: m });
  }
}

/** Adds one execution of `piece` by `mask` to the counters. */
export function countPiece(c: CounterSet, fn: FunctionInfo, block: BlockInfo, piece: PieceInfo, firstPiece: boolean, mask: number): void {
  const n = popcount(mask);
  if (firstPiece) {
    c.blockExec[block.globalIndex]!++;
    c.blockHist[block.globalIndex * 33 + n]!++;
  }
  c.warpInsts += piece.insts;
  c.threadInsts += piece.insts * n;
  c.fnWarp[fn.index]! += piece.insts;
  c.fnThread[fn.index]! += piece.insts * n;
  if (piece.subgroupOps.length > 0) for (const op of piece.subgroupOps) c.subgroup.set(op, (c.subgroup.get(op) ?? 0) + 1);
  if (piece.memSites.length > 0) {
    const by = piece.memSitesBySpace;
    for (let si = 0; si < by.length; si++) {
      const k = by[si]!;
      if (k === 0) continue;
      c.memWarp[si]! += k;
      c.memLane[si]! += k * n;
    }
  }
}
