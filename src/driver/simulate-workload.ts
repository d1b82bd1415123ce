/**
 * `vvision sim`: a workload on the cycle-level timing model. Execution-driven like Vulkan-Sim: the
 * timing model decides which warp issues when and asks the functional core to execute that warp's
 * next step; the RT runtime records each traversal's memory transactions for the RT unit to
 * replay. The same preparation as a functional run (compile, lower, host setup), so images and
 * counters are comparable.
 */
import { countersOf, createWarps } from '../sim/functional/launch.js';
import type { Counters } from '../sim/functional/counters.js';
import { cacheBytes } from '../sim/config/cache-config.js';
import { treeletMapOf } from '../sim/rt/treelets.js';
import { loadConfig, simulate, TimelineRecorder, TimingDeadlockError, type GpuConfig, type TimelineOptions, type TimingStats } from '../sim/timing/index.js';
import { launchOptionsOf, prepareRun, type PreparedRun, type RunOptions, type SharedPreparation } from './run-workload.js';

export interface SimulateOptions extends RunOptions {
  /** Preset name (baseline, mobile, treelet, rtx2060) or gpgpusim.config path. */
  config: string;
  /** `key=value` overrides of single knobs. */
  overrides?: string[];
  onProgress?: (cycle: number, warpsDone: number, warps: number) => void;
  maxCycles?: number;
  /** Record the warp timeline (Chrome trace events) with these bounds. */
  timeline?: TimelineOptions;
  /**
   * A recorder of the caller's own (a TimelineRecorder subclass that measures something, e.g. the
   * microbenchmarks' load-latency probe, bench/microbench/probe.ts), used instead of `timeline`.
   */
  recorder?: (config: GpuConfig) => TimelineRecorder;
}

export interface SimulationResult {
  prepared: PreparedRun;
  config: GpuConfig;
  stats: TimingStats;
  counters: Counters | undefined;
  warps: number;
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
  const t0 = performance.now();
  let cycle = 0;
  const warps = createWarps(prepared.program, prepared.host.resources, { ...launchOptionsOf(prepared, opts.mapping), clock: () => cycle });
  let stats: TimingStats;
  try {
    stats = simulate(warps, config, {
      onProgress: (c, done) => {
        cycle = c;
        opts.onProgress?.(c, done, warps.length);
      },
      ...(opts.maxCycles !== undefined ? { maxCycles: opts.maxCycles } : {}),
      ...(timeline !== undefined ? { timeline } : {}),
      liveRegisters: prepared.raygenLiveRegisters,
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
  return { prepared, config, stats, counters: countersOf(warps, prepared.program), warps: warps.length, wallMs, ...(timeline !== undefined ? { timeline } : {}) };
}
