/**
 * Thread compaction upper bound (paper 003, Sec. V-B, Fig. 8): for every traceRay execution key
 * (traceRay, round, iteration) and every compaction window of W consecutive warps, an oracle
 * repacks the active threads of the window's warps into ceil(active / warpSize) warps. Reported:
 * % warps compacted = 1 - compacted executions / original warp executions, for W = 1, 2, 4, 8, 16
 * and all warps. A window is W warps consecutive in launch order: warps ranked by the smallest
 * thread-work id they hold (`TraceRayExecutions.launchRank`), never by warp id, which is the order
 * warps reached CreateWarpId (launch order in the simulator, arrival order on a GPU).
 */
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { popcount32 } from './site-table.js';
import { traceRayExecutions, type TraceRayExecutions } from './traceray-executions.js';

export type CompactionWindow = 1 | 2 | 4 | 8 | 16 | 'all';
export const COMPACTION_WINDOWS: readonly CompactionWindow[] = [1, 2, 4, 8, 16, 'all'];

export interface CompactionResult {
  window: CompactionWindow;
  warpExecutions: number;
  compactedExecutions: number;
  /** Fraction in [0, 1] of warp executions that compaction removes. */
  warpsCompacted: number;
}

export function threadCompaction(dump: Dump, meta: InstrumentationMetadata): CompactionResult[] {
  return threadCompactionOf(traceRayExecutions(dump, meta), meta.warpSize);
}

export function threadCompactionOf(x: TraceRayExecutions, warpSize: number): CompactionResult[] {
  const keys = x.traceRays * x.rounds * x.iterations;
  return COMPACTION_WINDOWS.map((window) => {
    const size = window === 'all' ? Math.max(1, x.warpCount) : window;
    const groups = Math.ceil(x.warpCount / size);
    const threads = new Map<number, number>();
    const dense = groups * keys <= 1 << 24 ? new Float64Array(groups * keys) : undefined;
    for (let e = 0; e < x.count; e++) {
      const key = ((x.traceRay[e]! * x.rounds + x.round[e]!) * x.iterations + x.iteration[e]!) + Math.floor(x.launchRank[x.warp[e]!]! / size) * keys;
      const active = popcount32(x.mask[e]!);
      if (dense) dense[key]! += active;
      else threads.set(key, (threads.get(key) ?? 0) + active);
    }
    let compacted = 0;
    if (dense) for (let i = 0; i < dense.length; i++) compacted += Math.ceil(dense[i]! / warpSize);
    else for (const t of threads.values()) compacted += Math.ceil(t / warpSize);
    const warpExecutions = x.count;
    return {
      window,
      warpExecutions,
      compactedExecutions: compacted,
      warpsCompacted: warpExecutions === 0 ? 0 : 1 - compacted / warpExecutions,
    };
  });
}
