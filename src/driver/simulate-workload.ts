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
import { loadConfig, simulate, type GpuConfig, type TimingStats } from '../sim/timing/index.js';
import { launchOptionsOf, prepareRun, type PreparedRun, type RunOptions, type SharedPreparation } from './run-workload.js';

export interface SimulateOptions extends RunOptions {
  /** Preset name (baseline, mobile, treelet, rtx2060) or gpgpusim.config path. */
  config: string;
  /** `key=value` overrides of single knobs. */
  overrides?: string[];
  onProgress?: (cycle: number, warpsDone: number, warps: number) => void;
  maxCycles?: number;
}

export interface SimulationResult {
  prepared: PreparedRun;
  config: GpuConfig;
  stats: TimingStats;
  counters: Counters | undefined;
  warps: number;
  wallMs: number;
}

export async function simulateWorkload(workload: string, opts: SimulateOptions, shared?: SharedPreparation): Promise<SimulationResult> {
  const config = loadConfig(opts.config, opts.overrides ?? []);
  // Treelet queues (paper 001 Sec. 5): treelets of a fraction of the L1D, laid out treelet by treelet.
  const treeletBytes = Math.max(128, Math.floor(cacheBytes(config.l1d) * config.treelet.l1Fraction));
  const bvh = config.treelet.queues ? { layout: 'treelet' as const, treeletBytes } : undefined;
  const prepared = await prepareRun(
    workload, opts, { shortStackSize: config.rt.stackEntries, rays: config.rt.predictor.enabled, ...(bvh ? { bvh } : {}) }, shared,
  );
  const t0 = performance.now();
  let cycle = 0;
  const warps = createWarps(prepared.program, prepared.host.resources, { ...launchOptionsOf(prepared, opts.mapping), clock: () => cycle });
  const stats = simulate(warps, config, {
    onProgress: (c, done) => {
      cycle = c;
      opts.onProgress?.(c, done, warps.length);
    },
    ...(opts.maxCycles !== undefined ? { maxCycles: opts.maxCycles } : {}),
    liveRegisters: prepared.raygenLiveRegisters,
    ...(bvh ? { treelets: treeletMapOf(prepared.host.accels, treeletBytes) } : {}),
  });
  const wallMs = performance.now() - t0;
  prepared.timings.simulate += wallMs;
  return { prepared, config, stats, counters: countersOf(warps, prepared.program), warps: warps.length, wallMs };
}
