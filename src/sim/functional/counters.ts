/**
 * Execution counters of the functional core: the ground truth the instrumentation passes must
 * reproduce exactly. Counted per executed piece of a block with its real active mask:
 * - an instruction is every IR instruction except `phi` and `variable` (`countsAsInstruction`);
 * - warpInsts += instructions, threadInsts (= activeLanes sum) += instructions * active lanes;
 * - a block execution (and its 33-bin histogram of active-lane counts, bin = active lanes) is
 *   counted once per entry into the block by a warp split, i.e. when its first piece runs;
 * - memory accesses per space: one warp access per executed memory site, one lane access per active
 *   lane; function-storage (register) accesses are not memory accesses.
 * Deterministic: warps run in a fixed order and every count is an integer in a double.
 */
import type { MemorySpace } from '../warp-step.js';
import type { PrintfRecord } from './debug-printf.js';

export interface FunctionCounters {
  name: string;
  warpInsts: number;
  threadInsts: number;
}

export interface Counters {
  threads: number;
  warps: number;
  warpInsts: number;
  threadInsts: number;
  /** Sum of active lanes over executed warp instructions (equals threadInsts). */
  activeLanes: number;
  functions: FunctionCounters[];
  /** `<function>/<block>` by global block index. */
  blockNames: string[];
  blockExecutions: number[];
  /** blockHistogram[b][n] = executions of block b with n active lanes (n = 0..32). */
  blockHistogram: number[][];
  subgroupOps: Record<string, number>;
  /** Per space of the shader's own accesses (Vulkan-Sim's Traversal_data reads are the timing model's, not counted). */
  memory: Record<Exclude<MemorySpace, 'traversal'>, { warpAccesses: number; laneAccesses: number }>;
  printf: PrintfRecord[];
}

export function simtEfficiency(c: Counters): number {
  return c.warpInsts === 0 ? 0 : c.activeLanes / (32 * c.warpInsts);
}

/** Mutable accumulation state used while warps run. */
export class CounterSet {
  warpInsts = 0;
  threadInsts = 0;
  threads = 0;
  warps = 0;
  readonly fnWarp: Float64Array;
  readonly fnThread: Float64Array;
  readonly blockExec: Float64Array;
  readonly blockHist: Float64Array;
  readonly subgroup = new Map<string, number>();
  readonly memWarp = new Float64Array(5);
  readonly memLane = new Float64Array(5);
  readonly printf: PrintfRecord[] = [];

  constructor(functions: number, readonly blockCount: number) {
    this.fnWarp = new Float64Array(functions);
    this.fnThread = new Float64Array(functions);
    this.blockExec = new Float64Array(blockCount);
    this.blockHist = new Float64Array(blockCount * 33);
  }

  snapshot(fnNames: string[], blockNames: string[]): Counters {
    const spaces: Exclude<MemorySpace, 'traversal'>[] = ['global', 'constant', 'texture', 'local', 'rtState'];
    const memory = {} as Counters['memory'];
    spaces.forEach((s, i) => (memory[s] = { warpAccesses: this.memWarp[i]!, laneAccesses: this.memLane[i]! }));
    const subgroupOps: Record<string, number> = {};
    for (const k of [...this.subgroup.keys()].sort()) subgroupOps[k] = this.subgroup.get(k)!;
    return {
      threads: this.threads,
      warps: this.warps,
      warpInsts: this.warpInsts,
      threadInsts: this.threadInsts,
      activeLanes: this.threadInsts,
      functions: fnNames.map((name, i) => ({ name, warpInsts: this.fnWarp[i]!, threadInsts: this.fnThread[i]! })),
      blockNames: [...blockNames],
      blockExecutions: Array.from(this.blockExec),
      blockHistogram: Array.from({ length: this.blockCount }, (_, b) => Array.from(this.blockHist.subarray(b * 33, b * 33 + 33))),
      subgroupOps,
      memory,
      printf: [...this.printf],
    };
  }
}

export const SPACE_INDEX: Record<Exclude<MemorySpace, 'traversal'>, number> = { global: 0, constant: 1, texture: 2, local: 3, rtState: 4 };
