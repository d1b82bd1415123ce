/**
 * The static shape of compiled code: blocks split into pieces (a piece ends at a call, at an
 * rtCall traverse, or at the block's terminator) and pieces into segments (lane loops and
 * warp-wide subgroup segments), plus the per-piece / per-block / per-function information the
 * warp, the counters, the trace replay and the timing model read.
 *
 * Invariants: `PieceInfo.insts === opClasses.length`, counting every instruction except phis and
 * variables (`countsAsInstruction`); `BlockInfo.succs` are distinct block positions in terminator
 * order; `ipdom` is a block position or EXIT (the function's virtual exit).
 */
import type { FunctionId, Inst } from '../../ir/inst.js';
import type { Block } from '../../ir/module.js';
import type { BlockId } from '../../ir/inst.js';
import { OpClass, type StepDeps } from '../warp-step.js';
import type { MemSite } from './emit-context.js';

export type PieceFn = (W: unknown, F: unknown, mask: number) => void;

/** Function exit as a reconvergence / branch target (the virtual exit of the post-dominator tree). */
export const EXIT = -1;

export interface PieceInfo {
  run: PieceFn;
  /** Executed (counted) instructions of the piece. */
  insts: number;
  opClasses: Uint8Array;
  /** Which earlier instructions of the piece each instruction reads (the timing model's scoreboard). */
  deps: StepDeps;
  memSites: MemSite[];
  end: 'call' | 'traverse' | 'branch' | 'return';
  /**
   * Whether the piece ends in a PTX call or ret: a call of a shader stage, or a stage's return
   * (functions NIR inlines have neither). The next piece is fetched from a new address.
   */
  jumps: boolean;
  callee?: FunctionId;
  /** Site of the call (for the recursion-depth error). */
  callSite?: number;
  /** Register slot of the call's result (-1 when void). */
  callResultSlot: number;
  callResultLeaves: number;
  /** Subgroup ops executed by the piece, for the counters. */
  subgroupOps: string[];
  /** Memory sites of the piece per space (global, constant, texture, local), for the counters. */
  memSitesBySpace: Int32Array;
  source: string;
}

export interface BlockInfo {
  id: BlockId;
  name: string;
  /** Index of the block across the whole program (counters index). */
  globalIndex: number;
  pieces: PieceInfo[];
  /** Distinct successor block positions (in `FunctionInfo.blocks`), terminator order; W.succ[i] is the mask to succs[i]. */
  succs: number[];
  /** Position of the immediate post-dominator, or EXIT. */
  ipdom: number;
  /**
   * Position of the block that follows this one in the PTX layout (a branch to it falls through),
   * or -1: NIR's structured order, which puts an if's then-block right after the branch, the
   * else-block after it, the merge block after both, and a loop's blocks before its exit
   * (`structuredLayout` in compile-to-js.ts).
   */
  fallThrough: number;
  /** Executed instructions of the whole block. */
  insts: number;
}

export interface FunctionInfo {
  id: FunctionId;
  /** Position in Program.functions (set by compileProgram). */
  index: number;
  name: string;
  blocks: BlockInfo[];
  /** Register file slots (each 32 lanes). */
  regSlots: number;
  /** Private bytes per lane of the frame (function-storage variables). */
  frameBytes: number;
  /** Register slot of each parameter's first leaf, and its leaf count. */
  params: { slot: number; leaves: number }[];
  retLeaves: number;
  /** Max argument leaves of any call the function makes. */
  maxArgLeaves: number;
  source: string;
}

/** Whether an instruction counts as executed (phis and variable declarations are not issued). */
export function countsAsInstruction(inst: Inst): boolean {
  return inst.op !== 'phi' && inst.op !== 'variable';
}

export function defaultClass(inst: Inst): OpClass {
  switch (inst.op) {
    case 'call':
    case 'branch':
    case 'condBranch':
    case 'switch':
    case 'return':
    case 'unreachable':
    case 'ignoreIntersection':
    case 'terminateRay':
    case 'subgroup':
      return OpClass.Control;
    case 'image':
      return OpClass.Texture;
    case 'atomic':
      return OpClass.Memory;
    case 'rtCall':
      return inst.fn === 'traverse' ? OpClass.Rt : OpClass.Control;
    default:
      return OpClass.Alu;
  }
}

export interface Segment {
  kind: 'lanes' | 'warp';
  insts: Inst[];
}

export interface Piece {
  segments: Segment[];
  insts: Inst[];
}

/**
 * `sharedAccess(inst)` tells loads/stores/atomics of workgroup (shared) memory: a new lane loop
 * starts at every such access that follows a shared store in the current lane loop, so all lanes
 * finish the store before any lane reads (GLSL barrier() has no IR instruction; lock-step per
 * warp is what makes shared memory work within a subgroup).
 */
export function splitBlock(b: Block, sharedAccess: (inst: Inst) => 'load' | 'store' | undefined = () => undefined): Piece[] {
  const pieces: Piece[] = [];
  let cur: Piece = { segments: [], insts: [] };
  let lanes: Segment | undefined;
  let storedShared = false;
  for (const inst of b.insts) {
    if (inst.op === 'phi') continue;
    const sa = sharedAccess(inst);
    if (sa && storedShared && lanes && lanes.insts.length > 0) {
      lanes = undefined;
      storedShared = false;
    }
    if (sa === 'store') storedShared = true;
    cur.insts.push(inst);
    if (inst.op === 'subgroup') {
      if (cur.segments.length === 0) cur.segments.push({ kind: 'lanes', insts: [] });
      cur.segments.push({ kind: 'warp', insts: [inst] });
      lanes = undefined;
      storedShared = false;
      continue;
    }
    if (!lanes) {
      lanes = { kind: 'lanes', insts: [] };
      cur.segments.push(lanes);
    }
    lanes.insts.push(inst);
    if (inst.op === 'call' || (inst.op === 'rtCall' && inst.fn === 'traverse')) {
      pieces.push(cur);
      cur = { segments: [], insts: [] };
      lanes = undefined;
      storedShared = false;
    }
  }
  if (cur.insts.length > 0 || pieces.length === 0) pieces.push(cur);
  // A terminator-only piece after a call still needs a lane loop.
  for (const p of pieces) if (p.segments.length === 0) p.segments.push({ kind: 'lanes', insts: [] });
  return pieces;
}
