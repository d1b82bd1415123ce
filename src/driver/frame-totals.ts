/**
 * Multi-frame runs (issue 24): what one frame of a run produced, and the whole run's totals summed
 * from the frames. The RT runtime counts across launches; each frame takes its share and starts
 * the next at zero (`takeRtCounters`), so a frame's figures never depend on the frames before it.
 */
import type { Counters } from '../sim/functional/counters.js';
import type { SimImage } from '../sim/functional/images.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';

/** One trace-rays launch of a multi-frame run. */
export interface FrameRun {
  /** 0-based frame index. */
  frame: number;
  counters: Counters;
  rt: RtCounters;
  /** Wall-clock milliseconds of this frame's simulation (host updates included). */
  simulateMs: number;
  /** The output image after this frame (with RunOptions.frameImages). */
  image?: SimImage;
}

/** The runtime's counters since the last call, and the runtime's counters reset to zero. */
export function takeRtCounters(live: RtCounters): RtCounters {
  const out: RtCounters = { ...live, raysByDepth: [...live.raysByDepth] };
  live.rays = 0;
  live.raysByDepth = [];
  live.anyHitRays = 0;
  live.closestHitRays = 0;
  live.hits = 0;
  live.misses = 0;
  live.nodesVisited = 0;
  live.maxStackDepth = 0;
  live.candidates = 0;
  live.proceduralCandidates = 0;
  return out;
}

export function sumRtCounters(frames: readonly RtCounters[]): RtCounters {
  const out: RtCounters = {
    rays: 0, raysByDepth: [], anyHitRays: 0, closestHitRays: 0, hits: 0, misses: 0,
    nodesVisited: 0, maxStackDepth: 0, candidates: 0, proceduralCandidates: 0,
  };
  for (const f of frames) {
    out.rays += f.rays;
    f.raysByDepth.forEach((n, d) => (out.raysByDepth[d] = (out.raysByDepth[d] ?? 0) + n));
    out.anyHitRays += f.anyHitRays;
    out.closestHitRays += f.closestHitRays;
    out.hits += f.hits;
    out.misses += f.misses;
    out.nodesVisited += f.nodesVisited;
    out.maxStackDepth = Math.max(out.maxStackDepth, f.maxStackDepth);
    out.candidates += f.candidates;
    out.proceduralCandidates += f.proceduralCandidates;
  }
  return out;
}

/** Counters of several launches of one program, added (printf records concatenated in frame order). */
export function sumCounters(frames: readonly Counters[]): Counters {
  const first = frames[0]!;
  if (frames.length === 1) return first;
  const out: Counters = {
    threads: 0, warps: 0, warpInsts: 0, threadInsts: 0, activeLanes: 0,
    functions: first.functions.map((f) => ({ name: f.name, warpInsts: 0, threadInsts: 0 })),
    blockNames: first.blockNames,
    blockExecutions: first.blockExecutions.map(() => 0),
    blockHistogram: first.blockHistogram.map((h) => h.map(() => 0)),
    subgroupOps: {},
    memory: Object.fromEntries(Object.keys(first.memory).map((k) => [k, { warpAccesses: 0, laneAccesses: 0 }])) as Counters['memory'],
    printf: [],
  };
  for (const c of frames) {
    out.threads += c.threads;
    out.warps += c.warps;
    out.warpInsts += c.warpInsts;
    out.threadInsts += c.threadInsts;
    out.activeLanes += c.activeLanes;
    c.functions.forEach((f, i) => {
      out.functions[i]!.warpInsts += f.warpInsts;
      out.functions[i]!.threadInsts += f.threadInsts;
    });
    c.blockExecutions.forEach((n, b) => (out.blockExecutions[b]! += n));
    c.blockHistogram.forEach((h, b) => h.forEach((n, k) => (out.blockHistogram[b]![k]! += n)));
    for (const [k, n] of Object.entries(c.subgroupOps)) out.subgroupOps[k] = (out.subgroupOps[k] ?? 0) + n;
    for (const [k, m] of Object.entries(c.memory) as [keyof Counters['memory'], { warpAccesses: number; laneAccesses: number }][]) {
      out.memory[k].warpAccesses += m.warpAccesses;
      out.memory[k].laneAccesses += m.laneAccesses;
    }
    out.printf.push(...c.printf);
  }
  return out;
}

/** A copy of an image's texels (the output after one frame, before the next overwrites it). */
export function copyImage(img: SimImage): SimImage {
  return { ...img, levels: img.levels.map((l) => ({ ...l, data: l.data.slice() })) };
}
