/**
 * The `trace` utility (paper 003, Sec. V-D4): complete per-thread and per-warp execution traces.
 * CreateWarpId at the raygen entry, then ThreadUpdate() at the entry of every basic block of every
 * stage: each thread appends (thread_work_id, inst_id) per block it executes, in execution order.
 * Feeds thread/warp lifetimes (Fig. 16) and the per-pixel work heatmap.
 */
import type { ProbeContext } from './probe-context.js';

export function instrumentTrace(s: ProbeContext): void {
  for (const sh of s.shaders) {
    if (sh.entry.stage === 'raygen') {
      s.probe({ fn: sh.root, point: { at: 'blockEntry', block: sh.root.blocks[0]!.id }, kind: 'warpId', record: 'warpId' });
    }
    for (const fn of sh.functions) {
      for (const block of s.originalBlocks(fn)) {
        s.probe({ fn, point: { at: 'blockEntry', block }, kind: 'blockTrace', record: 'count' });
      }
    }
  }
}
