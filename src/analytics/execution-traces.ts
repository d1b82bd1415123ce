/**
 * Complete per-thread and per-warp execution traces (paper 003, Sec. III ⑤ iv, "Execution
 * Trace") from a `--mode trace` dump, in compressed-row form (no object per entry):
 * - thread t executed blocks `threadSites[threadStart[t] .. threadStart[t+1])` in order;
 * - warp w executed `warpSites[warpStart[w] .. warpStart[w+1])` with `warpLanes` the lanes (by
 *   CreateWarpId slot) of each execution.
 * Warp executions are reconstructed from thread entries by the warp ids CreateWarpId wrote, never
 * by buffer adjacency: on a GPU the atomicAdds of different warps interleave freely (the H100 put
 * entries of other warps between the lanes of one execution 34,705 times in one frame), so one
 * warp execution is the run of that warp's own entries at one site with no thread repeated; the
 * warp's next entry at another site, or a thread it already holds (the next loop iteration),
 * starts a new one. Entries of other warps in between do not.
 */
import { ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { AnalysisInputError, KindCode, requireSites, siteTable } from './site-table.js';
import { warpIdentity, type WarpIdentity } from './warp-identity.js';

export interface ExecutionTraces {
  identity: WarpIdentity;
  /** Indexed by thread-work id; length = threads + 1. */
  threadStart: Uint32Array;
  threadSites: Uint32Array;
  /** Indexed by warp id; length = warps + 1. */
  warpStart: Uint32Array;
  warpSites: Uint32Array;
  warpLanes: Uint32Array;
}

export function executionTraces(dump: Dump, meta: InstrumentationMetadata): ExecutionTraces {
  requireSites(meta, 'execution traces', ['blockTrace'], 'trace');
  const table = siteTable(meta);
  const ids = warpIdentity(dump, meta, table);
  const threads = ids.warpOf.length;
  const warps = ids.warpCount;
  const { words, entryOffsets, entrySite, entryCount } = dump;

  // Pass 1: count per thread and per warp run; remember each entry's run start flag.
  const threadCount = new Uint32Array(threads + 1);
  const warpCount = new Uint32Array(warps + 1);
  const runSite = new Int32Array(warps).fill(-1);
  const runLanes = new Uint32Array(warps);
  const newRun = new Uint8Array(entryCount);
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    if (table.kind[s] !== KindCode.BlockTrace) continue;
    const twi = words[entryOffsets[k]! + ENTRY_THREAD_WORK_ID]!;
    const w = twi < threads ? ids.warpOf[twi]! : -1;
    if (w < 0) throw new AnalysisInputError(`trace entry at word ${entryOffsets[k]}: thread-work id ${twi} never ran CreateWarpId`);
    threadCount[twi + 1]!++;
    const bit = 1 << ids.slotOf[twi]!;
    if (runSite[w] !== s || (runLanes[w]! & bit) !== 0) {
      warpCount[w + 1]!++;
      runSite[w] = s;
      runLanes[w] = 0;
      newRun[k] = 1;
    }
    runLanes[w] = (runLanes[w]! | bit) >>> 0;
  }
  for (let t = 0; t < threads; t++) threadCount[t + 1]! += threadCount[t]!;
  for (let w = 0; w < warps; w++) warpCount[w + 1]! += warpCount[w]!;
  const threadStart = threadCount;
  const warpStart = warpCount;

  // Pass 2: fill.
  const threadSites = new Uint32Array(threadStart[threads]!);
  const warpSites = new Uint32Array(warpStart[warps]!);
  const warpLanes = new Uint32Array(warpStart[warps]!);
  const tFill = threadStart.slice(0, threads);
  const wFill = warpStart.slice(0, warps);
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    if (table.kind[s] !== KindCode.BlockTrace) continue;
    const twi = words[entryOffsets[k]! + ENTRY_THREAD_WORK_ID]!;
    const w = ids.warpOf[twi]!;
    threadSites[tFill[twi]!++] = s;
    if (newRun[k]) warpSites[wFill[w]!++] = s;
    const at = wFill[w]! - 1;
    warpLanes[at] = (warpLanes[at]! | (1 << ids.slotOf[twi]!)) >>> 0;
  }
  return { identity: ids, threadStart, threadSites, warpStart, warpSites, warpLanes };
}

/** The sites thread `twi` executed, in order. */
export function threadTrace(t: ExecutionTraces, twi: number): Uint32Array {
  if (twi + 1 >= t.threadStart.length) return new Uint32Array(0);
  return t.threadSites.subarray(t.threadStart[twi]!, t.threadStart[twi + 1]!);
}

/** The warp executions of warp `w`: sites and lane masks, in order. */
export function warpTrace(t: ExecutionTraces, w: number): { sites: Uint32Array; lanes: Uint32Array } {
  if (w + 1 >= t.warpStart.length) return { sites: new Uint32Array(0), lanes: new Uint32Array(0) };
  const a = t.warpStart[w]!;
  const b = t.warpStart[w + 1]!;
  return { sites: t.warpSites.subarray(a, b), lanes: t.warpLanes.subarray(a, b) };
}
