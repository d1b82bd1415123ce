/**
 * `vvision sim`: a workload on the cycle-level timing model. Execution-driven like Vulkan-Sim: the
 * timing model decides which warp issues when and asks the functional core to execute that warp's
 * next step; the RT runtime records each traversal's memory transactions for the RT unit to
 * replay. The same preparation as a functional run (compile, lower, host setup), so images and
 * counters are comparable.
 */
import { countersOf, createWarps } from '../sim/functional/launch.js';
import type { Warp } from '../sim/functional/warp.js';
import type { Counters } from '../sim/functional/counters.js';
import { cacheBytes } from '../sim/config/cache-config.js';
import { treeletMapOf } from '../sim/rt/treelets.js';
import { loadConfig, simulateFrames, TimelineRecorder, TimingDeadlockError, type GpuConfig, type FrameSequenceStats, type TimelineOptions, type TimingStats, type FrameFlush } from '../sim/timing/index.js';
import { sumCounters, sumRtCounters, takeRtCounters } from './frame-totals.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';
import { fastForward, launchOptionsOf, prepareRun, type PreparedRun, type RunOptions, type SharedPreparation } from './run-workload.js';

export interface SimulateOptions extends RunOptions {
  /** Preset name (baseline, mobile, treelet, predictor, rtx2060) or gpgpusim.config path. */
  config: string;
  /** `key=value` overrides of single knobs. */
  overrides?: string[];
  /** `frame` counts from 0 (of `frames` in the run); `warps` are that frame's. */
  onProgress?: (cycle: number, warpsDone: number, warps: number, frame: number, frames: number) => void;
  maxCycles?: number;
  /** Record the warp timeline (Chrome trace events) with these bounds. */
  timeline?: TimelineOptions;
  /**
   * A recorder of the caller's own (a TimelineRecorder subclass that measures something, e.g. the
   * microbenchmarks' load-latency probe, bench/microbench/probe.ts), used instead of `timeline`.
   */
  recorder?: (config: GpuConfig) => TimelineRecorder;
}

/** One launch of a multi-frame run on the timing model. */
export interface SimulatedFrame {
  frame: number;
  stats: TimingStats;
  counters: Counters | undefined;
  rt: RtCounters;
  warps: number;
  /** Before this frame (frames 1..n-1): the dirty lines the cache flushes dropped. */
  flush?: FrameFlush;
}

export interface SimulationResult {
  prepared: PreparedRun;
  config: GpuConfig;
  /** The whole run (every frame's launch). */
  stats: TimingStats;
  counters: Counters | undefined;
  /** Warps of every launch together. */
  warps: number;
  /** Each frame's launch, in order (one entry for a one-frame run). */
  frames: SimulatedFrame[];
  wallMs: number;
  /** The recorded warp timeline, when `timeline` was given. */
  timeline?: TimelineRecorder;
}

/** Timelines of runs that stopped with a timing deadlock, by their error (timelineOfFailedRun). */
const failedRunTimelines = new WeakMap<object, TimelineRecorder>();

/** The warp timeline up to the cycle a run stopped at, when it stopped with a timing deadlock and a timeline was asked for. */
export function timelineOfFailedRun(e: unknown): TimelineRecorder | undefined {
  return typeof e === 'object' && e !== null ? failedRunTimelines.get(e) : undefined;
}

export async function simulateWorkload(workload: string, opts: SimulateOptions, shared?: SharedPreparation): Promise<SimulationResult> {
  const config = loadConfig(opts.config, opts.overrides ?? []);
  // Before the preparation, so a bad timeline option fails fast.
  const timeline = opts.recorder !== undefined ? opts.recorder(config) : opts.timeline === undefined ? undefined
    : new TimelineRecorder({ numSms: config.numSms, maxWarpsPerSm: config.maxWarpsPerSm, rtMaxWarps: config.rt.maxWarps, warpSize: config.warpSize, ctaSize: 1 }, opts.timeline);
  // Treelet queues (paper 001 Sec. 5): treelets of a fraction of the L1D, laid out treelet by treelet.
  const treeletBytes = Math.max(128, Math.floor(cacheBytes(config.l1d) * config.treelet.l1Fraction));
  const bvh = config.treelet.queues ? { layout: 'treelet' as const, treeletBytes } : undefined;
  const prepared = await prepareRun(
    workload, opts, { shortStackSize: config.rt.stackEntries, rays: config.rt.predictor.enabled, ...(bvh ? { bvh } : {}) }, shared,
  );
  const program = prepared.program;
  const t0 = performance.now();
  let cycle = 0;
  let warps: Warp[] = [];
  const frames: SimulatedFrame[] = [];
  // Frame f's warps are created when frame f starts, after the host wrote its uniform buffers.
  const launch = (f: number): Warp[] => {
    prepared.host.startFrame(f);
    warps = createWarps(program, prepared.host.resources, { ...launchOptionsOf(prepared, opts.mapping), clock: () => cycle });
    return warps;
  };
  // A frame range: the frames before it on the functional core only.
  const first = fastForward(prepared, opts);
  let run: FrameSequenceStats;
  try {
    run = simulateFrames(prepared.params.frames - first, (f) => launch(first + f), config, {
      onProgress: (c, done) => {
        cycle = c;
        opts.onProgress?.(c, done, warps.length, first + frames.length, prepared.params.frames);
      },
      onFrameDone: (f, stats) => {
        frames.push({ frame: first + f, stats, counters: countersOf(warps, program), rt: takeRtCounters(prepared.rt.counters), warps: warps.length });
      },
      ...(opts.maxCycles !== undefined ? { maxCycles: opts.maxCycles } : {}),
      ...(timeline !== undefined ? { timeline } : {}),
      liveRegisters: prepared.raygenLiveRegisters,
      rtStateBlocks: program.statics.rtStateBlocks,
      ...(bvh ? { treelets: treeletMapOf(prepared.host.accels, treeletBytes) } : {}),
    });
  } catch (e) {
    if (timeline !== undefined && e instanceof TimingDeadlockError) {
      timeline.finishAfterError();
      failedRunTimelines.set(e, timeline);
    }
    throw e;
  }
  const wallMs = performance.now() - t0;
  prepared.timings.simulate += wallMs;
  run.flushes.forEach((fl, i) => (frames[i + 1]!.flush = fl));
  // The runtime's counters read as the whole run's again (they were taken frame by frame).
  Object.assign(prepared.rt.counters, sumRtCounters(frames.map((f) => f.rt)));
  const counted = frames.map((f) => f.counters).filter((c): c is Counters => c !== undefined);
  return {
    prepared, config, stats: run.total, counters: counted.length > 0 ? sumCounters(counted) : undefined,
    warps: frames.reduce((n, f) => n + f.warps, 0), frames, wallMs, ...(timeline !== undefined ? { timeline } : {}),
  };
}
