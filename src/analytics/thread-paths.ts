/**
 * traceRay thread paths (paper 003, Sec. V-D5, Table III): each thread's path is the bit vector
 * of the traceRay executions of its warp, 1 where the thread was active. To compare threads of
 * different warps, a path is written per (traceRay, round) segment with trailing zeros trimmed
 * (iterations its warp ran after the thread left the loop say nothing about the thread); segments
 * where the thread traced nothing are omitted, and a segment is labelled `t<traceRay>.r<round>:`
 * unless the launch has one traceRay and one round. A thread that never traces has path ''.
 *
 * Threads are the lanes present at the raygen entry (pipelineEntry masks).
 */
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { traceRayExecutions, type TraceRayExecutions } from './traceray-executions.js';

export interface PathFrequency {
  path: string;
  threads: number;
  fraction: number;
}

export interface ThreadPaths {
  threads: number;
  uniquePaths: number;
  /** The most frequent paths, most frequent first (ties: path text), at most `top`. */
  top: PathFrequency[];
}

export function threadPaths(dump: Dump, meta: InstrumentationMetadata, top = 3): ThreadPaths {
  return threadPathsOf(traceRayExecutions(dump, meta), top);
}

export function threadPathsOf(x: TraceRayExecutions, top = 3): ThreadPaths {
  const labelled = x.traceRays > 1 || x.rounds > 1;
  // Counting sort of executions by warp, keeping buffer order inside a warp.
  const start = new Uint32Array(x.warpCount + 1);
  for (let e = 0; e < x.count; e++) start[x.warp[e]! + 1]!++;
  for (let w = 0; w < x.warpCount; w++) start[w + 1]! += start[w]!;
  const order = new Uint32Array(x.count);
  const fill = start.slice(0, x.warpCount);
  for (let e = 0; e < x.count; e++) order[fill[x.warp[e]!]!++] = e;

  const freq = new Map<string, number>();
  let threads = 0;
  const keyOf = (e: number) => x.traceRay[e]! * x.rounds + x.round[e]!;
  for (let w = 0; w < x.warpCount; w++) {
    let lanes = x.lanes[w]!;
    let execs = order.subarray(start[w]!, start[w + 1]!);
    let sorted = true;
    for (let i = 0; i < execs.length; i++) {
      lanes |= x.mask[execs[i]!]!;
      if (i > 0 && keyOf(execs[i]!) < keyOf(execs[i - 1]!)) sorted = false;
    }
    lanes >>>= 0;
    // Segments must be contiguous: a stable sort by (traceRay, round) keeps iterations in order.
    if (!sorted) execs = Uint32Array.from(Array.from(execs).sort((a, b) => keyOf(a) - keyOf(b)));
    for (let l = 0; l < 32; l++) {
      if (!((lanes >>> l) & 1)) continue;
      threads++;
      let path = '';
      let segment = '';
      let keep = 0; // segment length up to its last '1' (trailing zeros trimmed)
      let segKey = -1;
      let label = '';
      for (let i = 0; i <= execs.length; i++) {
        const e = execs[i];
        const key = e === undefined ? -2 : keyOf(e);
        if (key !== segKey) {
          if (keep > 0) path += (path === '' ? '' : ' ') + label + segment.slice(0, keep);
          if (e === undefined) break;
          segKey = key;
          segment = '';
          keep = 0;
          label = labelled ? `t${x.traceRay[e]}.r${x.round[e]}:` : '';
        }
        if ((x.mask[e!]! >>> l) & 1) {
          segment += '1';
          keep = segment.length;
        } else segment += '0';
      }
      freq.set(path, (freq.get(path) ?? 0) + 1);
    }
  }
  const sorted = [...freq].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    threads,
    uniquePaths: freq.size,
    top: sorted.slice(0, top).map(([path, n]) => ({ path, threads: n, fraction: threads === 0 ? 0 : n / threads })),
  };
}
