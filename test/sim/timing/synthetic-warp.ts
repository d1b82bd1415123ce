/**
 * Scripted warps for timing-model tests: a `TimingWarp` that yields prepared `WarpStep`s, plus
 * builders for ALU blocks, single-lane loads and traversals. Stands in for the functional core.
 */
import type { TimingWarp } from '../../../src/sim/timing/gpu.js';
import { OpClass, type MemAccess, type RtLaneWork, type RtTransaction, type WarpStep } from '../../../src/sim/warp-step.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';
import type { PtxOp } from '../../../src/sim/ptx-op.js';
import { packStepDeps } from '../../../src/sim/step-deps-layout.js';

export const FULL_MASK = 0xffffffff | 0;

export class ScriptedWarp implements TimingWarp {
  private i = 0;
  constructor(private readonly steps: Omit<WarpStep, 'done' | 'warp'>[], readonly id = 0) {}
  get done(): boolean {
    return this.i >= this.steps.length;
  }
  step(): WarpStep {
    const s = this.steps[this.i++]!;
    return { ...s, warp: this.id, done: this.i >= this.steps.length };
  }
}

const classCache = new Map<string, Uint8Array>();
function classes(n: number, cls: OpClass): Uint8Array {
  const key = `${n}:${cls}`;
  let c = classCache.get(key);
  if (!c) classCache.set(key, (c = new Uint8Array(n).fill(cls)));
  return c;
}

export function aluStep(n: number, block = 0): Omit<WarpStep, 'done' | 'warp'> {
  return { fn: 0, block, activeMask: FULL_MASK, insts: n, opClasses: classes(n, OpClass.Alu), memory: [] };
}

/** One load instruction: lane 0 reads `size` bytes at `addr` (a dependent pointer-chase hop). */
export function chaseStep(addr: number, size = 4): Omit<WarpStep, 'done' | 'warp'> {
  const addresses = new Float64Array(32);
  addresses[0] = addr;
  const m: MemAccess = { instIndex: 0, kind: 'load', space: 'global', size, addresses, laneMask: 1, wordMask: -1 };
  return { fn: 0, block: 1, activeMask: 1, insts: 1, opClasses: classes(1, OpClass.Memory), memory: [m] };
}

/** A block of `alu` ALU instructions and one coalesced 32-lane load of consecutive words at `base`. */
export function loadStep(base: number, alu: number, kind: 'load' | 'store' = 'load'): Omit<WarpStep, 'done' | 'warp'> {
  const addresses = new Float64Array(32);
  for (let l = 0; l < 32; l++) addresses[l] = base + 4 * l;
  const opClasses = new Uint8Array(alu + 1).fill(OpClass.Alu);
  opClasses[0] = OpClass.Memory;
  return {
    fn: 0, block: 2, activeMask: FULL_MASK, insts: alu + 1, opClasses,
    memory: [{ instIndex: 0, kind, space: 'global', size: 4, addresses, laneMask: FULL_MASK, wordMask: -1 }],
  };
}

/** A traceRay: one Rt instruction whose lanes replay the given transaction lists. */
export function rtStep(lanes: RtTransaction[][]): Omit<WarpStep, 'done' | 'warp'> {
  const rt: RtLaneWork[] = lanes.map((transactions, lane) => ({
    lane,
    transactions,
    boxTests: transactions.filter((t) => t.kind === 'internal').length * 6,
    triangleTests: transactions.filter((t) => t.kind === 'triangleLeaf').length,
    transforms: transactions.filter((t) => t.kind === 'instanceLeaf').length,
  }));
  let mask = 0;
  for (let l = 0; l < lanes.length; l++) mask |= 1 << l;
  return { fn: 0, block: 3, activeMask: mask, insts: 1, opClasses: classes(1, OpClass.Rt), memory: [], rt };
}

export const rng = seededRandom;

/**
 * A traversal-heavy synthetic workload: `warps` warps, each doing `traces` traceRays of 32 rays
 * that walk `depth` nodes: the shared root, then nodes drawn from a BVH region of `bvhBytes`
 * (64 B internal nodes, a 64 B triangle leaf last), with a few ALU instructions between traces.
 */
export function traversalWorkload(warps: number, traces: number, depth: number, bvhBytes: number, seed = 1): ScriptedWarp[] {
  const rand = rng(seed);
  const BVH = 0x4000_0000;
  const out: ScriptedWarp[] = [];
  for (let w = 0; w < warps; w++) {
    const steps: Omit<WarpStep, 'done' | 'warp'>[] = [];
    for (let t = 0; t < traces; t++) {
      steps.push(aluStep(8, 10));
      const lanes: RtTransaction[][] = [];
      for (let l = 0; l < 32; l++) {
        const tx: RtTransaction[] = [{ address: BVH, size: 64, kind: 'internal' }];
        for (let d = 1; d < depth; d++) {
          const node = Math.floor(rand() * (bvhBytes / 64)) * 64;
          tx.push({ address: BVH + node, size: 64, kind: d === depth - 1 ? 'triangleLeaf' : 'internal' });
        }
        lanes.push(tx);
      }
      steps.push(rtStep(lanes));
    }
    steps.push(aluStep(4, 11));
    out.push(new ScriptedWarp(steps, w));
  }
  return out;
}

/** The step with register information as the functional core gives it: instruction i issues as PTX op `ops[i % ops.length]`, one PTX instruction each, no dependencies. */
export function withPtx(step: Omit<WarpStep, 'done' | 'warp'>, ops: readonly PtxOp[]): Omit<WarpStep, 'done' | 'warp'> {
  return {
    ...step,
    deps: packStepDeps(Array.from({ length: step.insts }, (_, i) => ({
      ptx: ops[i % ops.length]!, count: 1, dst: -1, deps: [], chain: [], regs: [], xsrc: [], wkeys: [],
    }))),
  };
}
