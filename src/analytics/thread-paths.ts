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
  for (let w = 0; w < x.warpCount; w++) {
    let lanes = x.lanes[w]!;
    for (let i = start[w]!; i < start[w + 1]!; i++) lanes |= x.mask[order[i]!]!;
    lanes >>>= 0;
    // Segments contiguous: stable sort by (traceRay, round) keeps iterations in order.
    const keyOf = (e: number) => x.traceRay[e]! * x.rounds + x.round[e]!;
    const execs = Array.from(order.subarray(start[w]!, start[w + 1]!)).sort((a, b) => keyOf(a) - keyOf(b));
    for (let l = 0; l < 32; l++) {
      if (!((lanes >>> l) & 1)) continue;
      threads++;
      let path = '';
      let segment = '';
      let segKey = -1;
      let label = '';
      const flush = () => {
        const trimmed = segment.replace(/0+$/, '');
        if (trimmed !== '') path += (path === '' ? '' : ' ') + label + trimmed;
      };
      for (const e of execs) {
        const key = keyOf(e);
        if (key !== segKey) {
          flush();
          segKey = key;
          segment = '';
          label = labelled ? `t${x.traceRay[e]}.r${x.round[e]}:` : '';
        }
        segment += (x.mask[e]! >>> l) & 1 ? '1' : '0';
      }
      flush();
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
