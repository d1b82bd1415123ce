/**
 * The thread-work id -> warp id mapping reconstructed from CreateWarpId entries (paper 003,
 * Fig. 5): every thread of a warp records the warp id its elected lane drew from buf[0].
 *
 * Invariants: `warpOf[twi] === -1` for threads that never ran CreateWarpId; `slotOf[twi]` is the
 * thread's rank among its warp's CreateWarpId entries (0..31). Lanes execute the atomicAdd in lane
 * order, so the rank is the lane index for warps filled from lane 0; analyses that need exact
 * hardware lanes use ballot masks instead.
 * Memoised per (dump, metadata): several analyses of one run share one pass over the entries
 * (a Dump is never mutated after readDump).
 */
import { ENTRY_PAYLOAD, ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { AnalysisInputError, KindCode, siteTable, type SiteTable } from './site-table.js';

export interface WarpIdentity {
  warpOf: Int32Array;
  slotOf: Int8Array;
  /** Threads per warp, indexed by warp id. */
  threadsInWarp: Uint8Array;
  warpCount: number;
  threadCount: number;
}

const memo = new WeakMap<Dump, WeakMap<InstrumentationMetadata, WarpIdentity>>();

export function warpIdentity(dump: Dump, meta: InstrumentationMetadata, table?: SiteTable): WarpIdentity {
  let byMeta = memo.get(dump);
  if (!byMeta) memo.set(dump, (byMeta = new WeakMap()));
  let ids = byMeta.get(meta);
  if (!ids) byMeta.set(meta, (ids = computeWarpIdentity(dump, meta, table ?? siteTable(meta))));
  return ids;
}

function computeWarpIdentity(dump: Dump, meta: InstrumentationMetadata, table: SiteTable): WarpIdentity {
  const { words, entryOffsets, entrySite, entryCount } = dump;
  let maxTwi = -1;
  let maxWarp = -1;
  let seen = 0;
  for (let k = 0; k < entryCount; k++) {
    const off = entryOffsets[k]!;
    const twi = words[off + ENTRY_THREAD_WORK_ID]!;
    if (twi > maxTwi) maxTwi = twi;
    if (table.kind[entrySite[k]!] !== KindCode.WarpId) continue;
    seen++;
    const w = words[off + ENTRY_PAYLOAD]!;
    if (w > maxWarp) maxWarp = w;
  }
  if (seen === 0) {
    throw new AnalysisInputError('no CreateWarpId entries in the dump: this analysis needs a run with --mode divergence, paths or trace');
  }
  const warpOf = new Int32Array(maxTwi + 1).fill(-1);
  const slotOf = new Int8Array(maxTwi + 1).fill(-1);
  const threadsInWarp = new Uint8Array(maxWarp + 1);
  let threadCount = 0;
  for (let k = 0; k < entryCount; k++) {
    if (table.kind[entrySite[k]!] !== KindCode.WarpId) continue;
    const off = entryOffsets[k]!;
    const twi = words[off + ENTRY_THREAD_WORK_ID]!;
    const w = words[off + ENTRY_PAYLOAD]!;
    if (warpOf[twi] !== -1) continue; // a second CreateWarpId (another raygen launch) keeps the first mapping
    warpOf[twi] = w;
    slotOf[twi] = threadsInWarp[w]!;
    threadsInWarp[w] = threadsInWarp[w]! + 1;
    threadCount++;
  }
  return { warpOf, slotOf, threadsInWarp, warpCount: maxWarp + 1, threadCount };
}
