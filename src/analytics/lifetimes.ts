/**
 * Thread and warp lifetimes (paper 003, Sec. V-D4, Fig. 16): the number of basic blocks a thread
 * or a warp executed, from a `--mode trace` dump (ThreadUpdate at every block entry), i.e. the
 * lengths of the execution traces (execution-traces.ts says how warp executions are rebuilt).
 * Distributions are histograms (lifetime -> count) with counts also normalised to the maximum
 * count, as Fig. 16 plots them.
 */
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { executionTraces } from './execution-traces.js';

export interface LifetimeDistribution {
  count: number;
  min: number;
  max: number;
  mean: number;
  /** [lifetime in basic blocks, how many threads/warps], ascending lifetime. */
  histogram: [number, number][];
  /** Histogram counts divided by the largest count. */
  normalized: [number, number][];
}

export interface Lifetimes {
  thread: LifetimeDistribution;
  warp: LifetimeDistribution;
  /** Per thread-work id (index), blocks executed; threads that never ran hold 0. */
  threadBlocks: Uint32Array;
  /** Per warp id, warp-level block executions. */
  warpBlocks: Uint32Array;
}

export function distribution(values: ArrayLike<number>, include: (i: number) => boolean = () => true): LifetimeDistribution {
  const counts = new Map<number, number>();
  let n = 0, sum = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    if (!include(i)) continue;
    const v = values[i]!;
    counts.set(v, (counts.get(v) ?? 0) + 1);
    n++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const histogram = [...counts].sort((a, b) => a[0] - b[0]);
  const top = histogram.reduce((m, [, c]) => Math.max(m, c), 0);
  return {
    count: n,
    min: n === 0 ? 0 : min,
    max: n === 0 ? 0 : max,
    mean: n === 0 ? 0 : sum / n,
    histogram,
    normalized: histogram.map(([v, c]) => [v, c / top]),
  };
}

export function lifetimes(dump: Dump, meta: InstrumentationMetadata): Lifetimes {
  const t = executionTraces(dump, meta);
  const ids = t.identity;
  const threadBlocks = new Uint32Array(ids.warpOf.length);
  for (let i = 0; i < threadBlocks.length; i++) threadBlocks[i] = t.threadStart[i + 1]! - t.threadStart[i]!;
  const warpBlocks = new Uint32Array(ids.warpCount);
  for (let w = 0; w < warpBlocks.length; w++) warpBlocks[w] = t.warpStart[w + 1]! - t.warpStart[w]!;
  return {
    thread: distribution(threadBlocks, (i) => ids.warpOf[i]! >= 0),
    warp: distribution(warpBlocks, (i) => ids.threadsInWarp[i]! > 0),
    threadBlocks,
    warpBlocks,
  };
}
