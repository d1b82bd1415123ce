/**
 * Warp-level executions of traceRay reconstructed from a `--mode paths` dump (paper 003, Fig. 9):
 * each `preTraceRay` entry is one execution by one warp with its active mask; the warp's `syncPoint`
 * entries for the same traceRay close a round. An execution is keyed by (traceRay, round,
 * iteration), where iteration counts the warp's executions of that traceRay since its last sync
 * point, so the i-th bounce of round r lines up across warps.
 *
 * Invariants: arrays are parallel, in buffer order (chronological per warp); `lanes[w]` is the
 * warp's lanes at the pipeline entry (0 when the dump has no pipelineEntry sites). Memoised per
 * (dump, metadata), so compaction and paths of one run rebuild it once.
 */
import { ENTRY_PAYLOAD, ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { AnalysisInputError, KindCode, requireSites, siteTable } from './site-table.js';
import { warpIdentity } from './warp-identity.js';

export interface TraceRayExecutions {
  count: number;
  warp: Uint32Array;
  traceRay: Uint32Array;
  round: Uint32Array;
  iteration: Uint32Array;
  mask: Uint32Array;
  warpCount: number;
  lanes: Uint32Array;
  /**
   * Per warp id: the warp's rank in launch order (warps sorted by the smallest thread-work id
   * they hold), so groupings of "consecutive warps" do not depend on the order warps drew ids.
   */
  launchRank: Uint32Array;
  traceRays: number;
  rounds: number;
  iterations: number;
}

const memo = new WeakMap<Dump, WeakMap<InstrumentationMetadata, TraceRayExecutions>>();

export function traceRayExecutions(dump: Dump, meta: InstrumentationMetadata): TraceRayExecutions {
  let byMeta = memo.get(dump);
  if (!byMeta) memo.set(dump, (byMeta = new WeakMap()));
  let x = byMeta.get(meta);
  if (!x) byMeta.set(meta, (x = computeTraceRayExecutions(dump, meta)));
  return x;
}

function computeTraceRayExecutions(dump: Dump, meta: InstrumentationMetadata): TraceRayExecutions {
  requireSites(meta, 'thread compaction / thread paths', ['preTraceRay'], 'paths');
  const table = siteTable(meta);
  const ids = warpIdentity(dump, meta, table);
  let traceRays = 1;
  for (const s of meta.sites) if (s.kind === 'preTraceRay' || s.kind === 'syncPoint') traceRays = Math.max(traceRays, (s.traceRay ?? 0) + 1);
  const warps = ids.warpCount;
  const round = new Uint32Array(warps * traceRays);
  const iter = new Uint32Array(warps * traceRays);
  const lanes = new Uint32Array(warps);
  const { words, entryOffsets, entrySite, entryCount } = dump;
  let n = 0;
  for (let k = 0; k < entryCount; k++) if (table.kind[entrySite[k]!] === KindCode.PreTraceRay) n++;
  const out = {
    warp: new Uint32Array(n), traceRay: new Uint32Array(n), round: new Uint32Array(n),
    iteration: new Uint32Array(n), mask: new Uint32Array(n),
  };
  let e = 0;
  let maxRound = 0;
  let maxIter = 0;
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    const kind = table.kind[s]!;
    if (kind !== KindCode.PreTraceRay && kind !== KindCode.SyncPoint && kind !== KindCode.PipelineEntry) continue;
    const off = entryOffsets[k]!;
    const twi = words[off + ENTRY_THREAD_WORK_ID]!;
    const w = twi < ids.warpOf.length ? ids.warpOf[twi]! : -1;
    if (w < 0) throw new AnalysisInputError(`paths entry at word ${off}: thread-work id ${twi} never ran CreateWarpId`);
    const mask = words[off + ENTRY_PAYLOAD]!;
    if (kind === KindCode.PipelineEntry) {
      if (lanes[w] === 0) lanes[w] = mask;
      continue;
    }
    const slot = w * traceRays + table.traceRay[s]!;
    if (kind === KindCode.SyncPoint) {
      round[slot]!++;
      iter[slot] = 0;
      continue;
    }
    out.warp[e] = w;
    out.traceRay[e] = table.traceRay[s]!;
    out.round[e] = round[slot]!;
    out.iteration[e] = iter[slot]!;
    out.mask[e] = mask;
    if (round[slot]! > maxRound) maxRound = round[slot]!;
    if (iter[slot]! > maxIter) maxIter = iter[slot]!;
    iter[slot]!++;
    e++;
  }
  return { count: n, ...out, warpCount: warps, lanes, launchRank: launchRanks(ids.warpOf, warps), traceRays, rounds: maxRound + 1, iterations: maxIter + 1 };
}

/** Rank of each warp id in launch order: by the smallest thread-work id mapped to it (unused ids last). */
export function launchRanks(warpOf: Int32Array, warps: number): Uint32Array {
  const first = new Float64Array(warps).fill(Infinity);
  for (let twi = 0; twi < warpOf.length; twi++) {
    const w = warpOf[twi]!;
    if (w >= 0 && twi < first[w]!) first[w] = twi;
  }
  const order = Array.from({ length: warps }, (_, w) => w).sort((a, b) => first[a]! - first[b]! || a - b);
  const rank = new Uint32Array(warps);
  order.forEach((w, r) => (rank[w] = r));
  return rank;
}
