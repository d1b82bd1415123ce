/**
 * Multi-frame runs on the timing model (issue 24): trace-rays launches back to back on one GPU, as
 * an application submits a frame after another. Launch f+1 starts the cycle after launch f drained,
 * with the caches as f left them unless gpgpu_flush_l1_cache / gpgpu_flush_l2_cache invalidate
 * them in between (Vulkan-Sim's options of the same name). Vulkan-Sim itself runs one launch.
 *
 * Statistics: each frame's are the counters it added (every component's counters after the frame
 * minus before it) over the frame's own cycles, so a frame's IPC or miss rate is its own; the
 * total is the whole run's. Peak figures (treelet table peaks, suspended CTAs) are over the run up
 * to that frame. Invariant: the frames' cycles add up to the total's, and so do their counters.
 *
 * Cost: a frame's warps are created when it starts (`launch(frame)`), after the previous frame's
 * functional effects are complete; per-frame bookkeeping is a fixed number of counters, so the
 * cost of frame f does not depend on f.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import {
  aggregateStats, createGpu, LaunchSamples, runLaunch, statsInput, type AggregateStats, type Gpu, type SimulateOptions, type TimingWarp,
} from './gpu.js';
import { buildStats, type TimingStats } from './stats.js';

export interface FrameSequenceOptions extends SimulateOptions {
  /** Called when a frame has drained, with its statistics (before the next frame's warps are created). */
  onFrameDone?(frame: number, stats: TimingStats): void;
}

export interface FrameFlush {
  /** Dirty lines the flush before this frame dropped (their write-back is not timed). */
  l1DirtyLines: number;
  l2DirtyLines: number;
}

export interface FrameSequenceStats {
  /** Each frame's own statistics, in order. */
  frames: TimingStats[];
  /** The whole run: every frame's cycles and counters. */
  total: TimingStats;
  /** Before frames 1..n-1: what the flush dropped (zeros when the flushes are off). */
  flushes: FrameFlush[];
}

/**
 * Runs `frames` launches on one GPU; `launch(f)` sets up frame f (host updates) and returns its
 * warps. Stops early if `maxCycles` truncates a frame.
 */
export function simulateFrames(
  frames: number, launch: (frame: number) => TimingWarp[], config: GpuConfig, opts: FrameSequenceOptions = {},
): FrameSequenceStats {
  const started = performance.now();
  const gpu = createGpu(config, opts);
  const samples = new LaunchSamples(config.statsSampleInterval);
  const out: TimingStats[] = [];
  const flushes: FrameFlush[] = [];
  let before = aggregateStats(gpu);
  let start = 0;
  let truncated = false;
  for (let f = 0; f < frames && !truncated; f++) {
    if (f > 0) flushes.push(flushBetweenLaunches(gpu, config));
    const warps = launch(f);
    const t0 = performance.now();
    const sampleFrom = samples.rays.length;
    const end = runLaunch(gpu, warps, opts, start, samples);
    truncated = end.truncated;
    const after = aggregateStats(gpu);
    const own = {
      rays: samples.rays.slice(sampleFrom), rtWarps: samples.rtWarps.slice(sampleFrom), rtL1MissRate: samples.rtL1MissRate.slice(sampleFrom),
      l2Fails: samples.l2Fails.slice(sampleFrom),
    };
    const stats = buildStats(statsInput(gpu, opts, minus(after, before), end.cycles - start, truncated, own, (performance.now() - t0) / 1000));
    out.push(stats);
    opts.onFrameDone?.(f, stats);
    before = after;
    start = end.cycles;
  }
  const total = buildStats(statsInput(gpu, opts, aggregateStats(gpu), start, truncated, samples, (performance.now() - started) / 1000));
  return { frames: out, total, flushes };
}

function flushBetweenLaunches(gpu: Gpu, config: GpuConfig): FrameFlush {
  let l1DirtyLines = 0;
  let l2DirtyLines = 0;
  if (config.flushL1) {
    for (const sm of gpu.sms) {
      l1DirtyLines += sm.l1.cache.invalidateAll();
      if (sm.rtCache !== sm.l1) l1DirtyLines += sm.rtCache.cache.invalidateAll();
    }
  }
  if (config.flushL2) for (const p of gpu.partitions) for (const b of p.banks) l2DirtyLines += b.cache.invalidateAll();
  return { l1DirtyLines, l2DirtyLines };
}

/** Fields that hold a peak or a setting, not a count: a frame reports the run's value so far. */
const NOT_ADDITIVE = /^(peak|max)|^registersPerThread$/;

/**
 * `after - before`, field by field, for counter objects (numbers, typed arrays, per-mode arrays,
 * nested counter objects) of the same class; `warpLatencies`-style lists that only grow keep the
 * entries added since `before`.
 */
function minus<T>(after: T, before: T, key = ''): T {
  if (typeof after === 'number') return (NOT_ADDITIVE.test(key) ? after : after - (before as number)) as T;
  if (after instanceof Float64Array) return after.map((v, i) => v - (before as Float64Array)[i]!) as T;
  if (Array.isArray(after)) {
    const b = before as unknown[];
    if (key === 'warpLatencies') return after.slice(b.length) as T;
    return after.map((v, i) => minus(v, b[i], key)) as T;
  }
  if (after === null || typeof after !== 'object') return after;
  const out = Object.create(Object.getPrototypeOf(after) as object) as Record<string, unknown>;
  for (const [k, v] of Object.entries(after as Record<string, unknown>)) out[k] = minus(v, (before as Record<string, unknown>)[k], k);
  return out as T;
}

export type { AggregateStats };
