/**
 * Where independent thread scheduling reconverges a divergent branch (Volta's convergence
 * barriers, BSSY at the branch / BSYNC at its immediate post-dominator), and where it does not:
 * the compiler leaves a branch without a barrier when a traceRay lies between it and its
 * post-dominator, because on NVIDIA GPUs a thread that left for the RT core is not waited for
 * (measured on an H100: divergence around traceRayEXT leaves the shader as separate pieces,
 * ALU-only divergence reconverges; V-Vision Fig. 10-11 show the same on RTX GPUs).
 * `its_reconverge_after_trace` puts a barrier on every divergent branch instead.
 *
 * Invariant: a function "traces" when one of its blocks ends a piece in an RT traversal or calls
 * a function that traces; results are cached per program.
 */
import { EXIT, type FunctionInfo } from './block-pieces.js';

export interface BarrierPolicy {
  /** Functions by id, to follow calls. */
  byId: ReadonlyMap<number, FunctionInfo>;
  /** Reconverge also where a traceRay lies in the divergent region. */
  reconvergeAfterTrace: boolean;
}

const traces = new WeakMap<FunctionInfo, boolean>();
/** Per function and block position: the barrier block position (EXIT for the function's end), or NO_BARRIER. */
const barrierAt = [new WeakMap<FunctionInfo, Map<number, number>>(), new WeakMap<FunctionInfo, Map<number, number>>()];
export const NO_BARRIER = -2;

export function functionTraces(fn: FunctionInfo, policy: BarrierPolicy, visiting = new Set<FunctionInfo>()): boolean {
  const known = traces.get(fn);
  if (known !== undefined) return known;
  if (visiting.has(fn)) return false; // recursion: decided by the other blocks
  visiting.add(fn);
  let found = false;
  for (const b of fn.blocks) {
    for (const p of b.pieces) {
      if (p.end === 'traverse') found = true;
      else if (p.end === 'call' && p.callee !== undefined) {
        const callee = policy.byId.get(p.callee);
        if (callee && functionTraces(callee, policy, visiting)) found = true;
      }
    }
    if (found) break;
  }
  visiting.delete(fn);
  traces.set(fn, found);
  return found;
}

function blockTraces(fn: FunctionInfo, pc: number, policy: BarrierPolicy): boolean {
  for (const p of fn.blocks[pc]!.pieces) {
    if (p.end === 'traverse') return true;
    if (p.end === 'call' && p.callee !== undefined) {
      const callee = policy.byId.get(p.callee);
      if (callee && functionTraces(callee, policy)) return true;
    }
  }
  return false;
}

/**
 * The convergence barrier of a divergent branch at block position `pc`: its immediate
 * post-dominator (EXIT when that is the function's end), or NO_BARRIER when the policy leaves
 * the branch without one (a traceRay between the branch and its post-dominator).
 */
export function convergenceBarrier(fn: FunctionInfo, pc: number, policy: BarrierPolicy): number {
  const byPolicy = barrierAt[policy.reconvergeAfterTrace ? 1 : 0]!;
  let cache = byPolicy.get(fn);
  if (!cache) byPolicy.set(fn, (cache = new Map()));
  const known = cache.get(pc);
  if (known !== undefined) return known;
  const ipdom = fn.blocks[pc]!.ipdom;
  let result = ipdom;
  if (!policy.reconvergeAfterTrace) {
    // Blocks reachable from the branch's successors before its post-dominator: the divergent region.
    const seen = new Set<number>();
    const work = [...fn.blocks[pc]!.succs].filter((s) => s >= 0 && s !== ipdom);
    while (work.length > 0) {
      const b = work.pop()!;
      if (seen.has(b)) continue;
      seen.add(b);
      if (blockTraces(fn, b, policy)) {
        result = NO_BARRIER;
        break;
      }
      for (const s of fn.blocks[b]!.succs) if (s >= 0 && s !== ipdom && s !== EXIT && !seen.has(s)) work.push(s);
    }
  }
  cache.set(pc, result);
  return result;
}
