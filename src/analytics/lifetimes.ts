/**
 * Thread and warp lifetimes (paper 003, Sec. V-D4, Fig. 16): the number of basic blocks a thread
 * or a warp executed, from a `--mode trace` dump (ThreadUpdate at every block entry).
 * - Thread lifetime: its blockTrace entries.
 * - Warp lifetime: warp-level block executions. The lanes of one warp execute a block's atomicAdd
 *   together, so one warp execution is a run of consecutive buffer entries of that warp at the
 *   same site with no thread repeated; a new run starts at a different site, a repeated thread
 *   (next loop iteration) or an entry of another warp in between.
 * Distributions are histograms (lifetime -> count) with counts also normalised to the maximum
 * count, as Fig. 16 plots them.
 */
import { ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { AnalysisInputError, KindCode, requireSites, siteTable } from './site-table.js';
import { warpIdentity } from './warp-identity.js';

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
  requireSites(meta, 'lifetimes', ['blockTrace'], 'trace');
  const table = siteTable(meta);
  const ids = warpIdentity(dump, meta, table);
  const threadBlocks = new Uint32Array(ids.warpOf.length);
  const warpBlocks = new Uint32Array(ids.warpCount);
  const runSite = new Int32Array(ids.warpCount).fill(-1);
  const runLanes = new Uint32Array(ids.warpCount);
  let prevWarp = -1;
  const { words, entryOffsets, entrySite, entryCount } = dump;
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    const kind = table.kind[s]!;
    if (kind !== KindCode.BlockTrace) {
      prevWarp = -1;
      continue;
    }
    const twi = words[entryOffsets[k]! + ENTRY_THREAD_WORK_ID]!;
    const w = twi < ids.warpOf.length ? ids.warpOf[twi]! : -1;
    if (w < 0) throw new AnalysisInputError(`trace entry at word ${entryOffsets[k]}: thread-work id ${twi} never ran CreateWarpId`);
    threadBlocks[twi]!++;
    const bit = 1 << ids.slotOf[twi]!;
    if (prevWarp !== w || runSite[w] !== s || (runLanes[w]! & bit) !== 0) {
      warpBlocks[w]!++;
      runSite[w] = s;
      runLanes[w] = 0;
    }
    runLanes[w] = (runLanes[w]! | bit) >>> 0;
    prevWarp = w;
  }
  return {
    thread: distribution(threadBlocks, (i) => ids.warpOf[i]! >= 0),
    warp: distribution(warpBlocks, (i) => ids.threadsInWarp[i]! > 0),
    threadBlocks,
    warpBlocks,
  };
}
