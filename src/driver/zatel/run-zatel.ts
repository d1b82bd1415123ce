/**
 * Zatel end to end (paper 004, Fig. 3): (1-2) the execution-cost heatmap from a functional run
 * with per-pixel counters, quantised; (3) K = gcd(SMs, partitions) and the downscaled config; (4)
 * the image divided into K groups; (5) each group's representative pixels; (6) one timing job per
 * group (per traced fraction with exponential regression) with the raygen pixel filter, run in
 * parallel by the local backend; (7) the groups' figures extrapolated and combined. With
 * `validate`, the full frame on the target config is simulated as one more job and each metric's
 * relative error and the speedup are computed.
 *
 * Jobs live in a content-addressed job store, so a rerun with the same inputs reuses finished
 * simulations (and a validation's full run is shared by every Zatel setting on that workload).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runWorkload } from '../run-workload.js';
import { loadConfig } from '../../sim/timing/index.js';
import { canonicalJson, encodePixelMask, jobConfig, jobWorkload, type JobRunOptions, type SimJobSpec } from '../jobs/job-spec.js';
import { JobStore, writeFileAtomic, type JobResult } from '../jobs/job-store.js';
import { localBackend, type JobBackend, type JobProgressHooks } from '../jobs/backend.js';
import { defaultJobCount, JobFailedError } from '../jobs/local-backend.js';
import { pixelMaskWords } from '../../passes/zatel/pixel-filter.js';
import { createHash } from 'node:crypto';
import { combineGroups, extrapolateGroup, TABLE_I_METRICS, type Extrapolation } from './combine.js';
import { divideImage, type Division } from './division.js';
import { downscale, ZatelOptionError, type DramRows, type Downscaling } from './downscale.js';
import { buildHeatmap, type Heatmap } from './heatmap.js';
import { selectRepresentativePixels, tracedFraction, type Balance, type Distribution, type Selection, COST_BALANCE_TOLERANCE } from './representative-pixels.js';
import { processCpuSeconds, threadCpuSeconds } from '../../platform/thread-cpu.js';

/** The paper's three fractions for exponential regression (Sec. IV-F). */
export const REGRESSION_FRACTIONS = [0.2, 0.3, 0.4] as const;

/**
 * Fewest waves of threads each group's downscaled GPU should run: linear extrapolation of cycles
 * assumes a GPU kept full (throughput-bound), so a group whose traced threads do not fill its
 * SMs' thread slots twice spends a large share of its cycles in the fill and drain of the
 * launch (or runs with less contention than the full GPU), so its cycles do not scale with the
 * traced pixels (the paper's underutilised SPRNG, Sec. IV-F).
 */
export const MIN_WAVES_PER_GROUP = 2;

export interface ZatelOptions {
  workload: string;
  config: string;
  overrides: string[];
  run: JobRunOptions;
  /** Default: gcd(SMs, memory partitions). */
  k?: number;
  /** 'auto' = eq. 1 bounded to [0.3, 0.6]; a number caps it (the paper's "up to 10%"). */
  fraction: 'auto' | number;
  division: Division;
  distribution: Distribution;
  /** The downscaled GPU's DRAM row layout (downscale.ts): the target's (default) or its own (the paper's). */
  dramRows?: DramRows;
  /** Balance of the representative pixels (representative-pixels.ts); default 'rows'. */
  balance?: Balance;
  /**
   * Subtract a filter-only run's counts (every pixel filtered out) from each group's before
   * extrapolating (combine.ts extrapolateGroup); default true. false: the paper's accounting.
   */
  filterCorrection?: boolean;
  extrapolation: Extrapolation;
  /** K-means colours (paper: 5). */
  clusters: number;
  /** Seed of the block selection and of K-means. */
  seed: number;
  /** Workers of the default local backend (and the parallelism the timing estimate assumes). */
  jobs?: number;
  /** Default: the local backend with `jobs` workers. */
  backend?: JobBackend;
  /** Folder of the job store (shared, content-addressed). */
  jobDir: string;
  validate: boolean;
  progress?: JobProgressHooks;
  /** Filled with a label per job id (`group 3 (12%)`, `full frame`), for progress bars. */
  labels?: Map<string, string>;
  onPhase?: (text: string) => void;
}

export interface ZatelGroupReport {
  index: number;
  pixels: number;
  /** One per traced fraction (one with linear extrapolation, three with exponential). */
  runs: { selection: Selection; jobId: string; values: Record<string, number>; wallSeconds: number }[];
  estimate: Record<string, number>;
}

export interface MetricValidation {
  predicted: number;
  full: number;
  relativeError: number;
}

export interface ZatelValidation {
  metrics: Record<string, MetricValidation>;
  /** Full simulation wall / Zatel wall (heatmap included). */
  speedup: number;
  /** Full simulation wall / the parallel group phase alone (the paper profiles the heatmap on a GPU). */
  speedupExcludingHeatmap: number;
  zatelWallSeconds: number;
  fullWallSeconds: number;
  /**
   * Machine-independent figures: CPU seconds (every worker's summed, so independent of how many
   * cores ran them) and simulated SM-cycles (cycles x SMs of each simulation: the simulator's
   * work, independent of the host). Speedup = full / Zatel.
   */
  fullCpuSeconds: number;
  zatelCpuSeconds: number;
  cpuSpeedup: number;
  cpuSpeedupExcludingHeatmap: number;
  fullSmCycles: number;
  zatelSmCycles: number;
  smCycleSpeedup: number;
  jobId: string;
}

export interface ZatelResult {
  options: ZatelOptions;
  width: number;
  height: number;
  downscaling: Downscaling;
  heatmap: Heatmap;
  groups: ZatelGroupReport[];
  predicted: Record<string, number>;
  /** The traced pixels (all groups, largest fraction). */
  traced: Set<number>;
  timing: {
    heatmapSeconds: number;
    groupsSeconds: number;
    /** 'measured' when every group job ran now; otherwise estimated from the jobs' recorded walls. */
    groupsTiming: 'measured' | 'estimated from cached jobs';
    totalSeconds: number;
    /** Sum of the group jobs' own walls (CPU-side cost without parallelism). */
    groupJobSeconds: number;
    /** CPU seconds of the heatmap's functional run. */
    heatmapCpuSeconds: number;
    /** CPU seconds of the group simulations, summed over workers (each job's own thread time). */
    groupsCpuSeconds: number;
    /** Simulated SM-cycles of the group simulations (and the filter-only run): each run's cycles x its SMs, summed. */
    groupsSmCycles: number;
  };
  /** Thread instructions of the filter-only run (subtracted from each group's), when corrected. */
  filterInstructions?: number;
  /** Every group's traced threads over its downscaled GPU's thread slots (the smallest group). */
  wavesPerGroup: number;
  /** Heatmap cost of the traced pixels over their pixel share (1 = instructions extrapolate exactly), per group. */
  costRatios: number[];
  /** The traced rows' mean cost uniformity over the group's (1 = as uniform), per group (representative-pixels.ts). */
  uniformityRatios: number[];
  /** Conditions under which the prediction is not to be trusted (printed by the CLI). */
  warnings: string[];
  validation?: ZatelValidation;
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);
}

/** Per-thread cost of the functional run, cached in the job store by workload + run options. */
async function pixelCost(o: ZatelOptions, store: JobStore): Promise<{ cost: Uint32Array; width: number; height: number; seconds: number; cpuSeconds: number }> {
  const key = hashOf({ kind: 'heatmap', workload: jobWorkload(o.workload), run: o.run });
  const dir = join(store.dir, 'heatmaps');
  const file = join(dir, `${key}.json`);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { cost: number[]; width: number; height: number; seconds: number; cpuSeconds?: number };
    return { cost: Uint32Array.from(cached.cost), width: cached.width, height: cached.height, seconds: cached.seconds, cpuSeconds: cached.cpuSeconds ?? cached.seconds };
  }
  const t0 = performance.now();
  const c0 = threadCpuSeconds();
  const r = await runWorkload(o.workload, { ...o.run, pixelCost: true });
  const seconds = (performance.now() - t0) / 1000;
  const out = { cost: r.pixelCost!, width: r.params.width, height: r.params.height, seconds, cpuSeconds: threadCpuSeconds() - c0 };
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(file, JSON.stringify({ ...out, cost: Array.from(out.cost) }));
  return out;
}

/** Makespan of jobs of the given lengths on `workers` workers, longest first (for cached runs). */
function scheduledWall(lengths: number[], workers: number): number {
  const load = new Array<number>(Math.max(1, workers)).fill(0);
  for (const l of [...lengths].sort((a, b) => b - a)) {
    const i = load.indexOf(Math.min(...load));
    load[i]! += l;
  }
  return Math.max(...load);
}

export async function runZatel(o: ZatelOptions): Promise<ZatelResult> {
  if (o.fraction !== 'auto' && !(o.fraction > 0 && o.fraction <= 1)) {
    throw new ZatelOptionError(`--fraction must be 'auto' or a number in (0, 1], got ${o.fraction}`);
  }
  const store = new JobStore(o.jobDir);
  const tStart = performance.now();
  const config = loadConfig(o.config, o.overrides);
  const scaled = downscale(config, o.k, o.dramRows ?? 'target');

  o.onPhase?.('heatmap: functional run with per-pixel counters');
  const profile = await pixelCost(o, store);
  const { width, height } = profile;
  const heatmap = buildHeatmap(profile.cost, width, height, o.clusters, o.seed);
  const threads = profile.cost.length;

  const groups = divideImage(width, height, scaled.k, o.division);
  const base = {
    kind: 'sim' as const, workload: jobWorkload(o.workload), config: jobConfig(o.config), run: o.run,
  };
  const plans = groups.map((g) => {
    const eq1 = tracedFraction(g, heatmap);
    const target = o.fraction === 'auto' ? eq1 : Math.min(eq1, o.fraction);
    const fractions = o.extrapolation === 'exponential' ? [...REGRESSION_FRACTIONS] : [target];
    const runs = fractions.map((f) => {
      const selection = selectRepresentativePixels(g, heatmap, f, o.distribution, o.seed, o.balance ?? 'rows');
      const spec: SimJobSpec = { ...base, overrides: [...o.overrides, ...scaled.overrides], pixelMask: encodePixelMask(pixelMaskWords(selection.pixels, threads)) };
      return { selection, jobId: store.add(spec) };
    });
    return { group: g, runs };
  });
  // The pixel filter's own cost: the downscaled run with no pixel traced (cheap: every thread exits).
  const correct = o.filterCorrection ?? true;
  const filterOnlyId = correct
    ? store.add({ ...base, overrides: [...o.overrides, ...scaled.overrides], pixelMask: encodePixelMask(pixelMaskWords([], threads)) })
    : undefined;
  const ids = [...plans.flatMap((p) => p.runs.map((r) => r.jobId)), ...(filterOnlyId ? [filterOnlyId] : [])];
  plans.forEach((p) => p.runs.forEach((r) => o.labels?.set(r.jobId, `group ${p.group.index} (${(100 * r.selection.fraction).toFixed(0)}%)`)));
  if (filterOnlyId) o.labels?.set(filterOnlyId, 'filter only');

  o.onPhase?.(`${ids.length} group simulations on ${scaled.sms} SMs / ${scaled.partitions} partitions each`);
  const tGroups = performance.now();
  const cGroups = processCpuSeconds();
  const backend = o.backend ?? localBackend(o.jobs);
  const summary = await backend.run(store, ids, o.progress);
  const measuredGroups = (performance.now() - tGroups) / 1000;
  const measuredGroupsCpu = processCpuSeconds() - cGroups;
  if (summary.failed.length > 0) {
    throw new JobFailedError('Zatel group simulations', summary.failed, store);
  }
  const resultOf = (id: string): JobResult => store.result(id)!;
  const filterOnly = filterOnlyId ? resultOf(filterOnlyId) : undefined;
  const reports: ZatelGroupReport[] = plans.map((p) => {
    const runs = p.runs.map((r) => {
      const res = resultOf(r.jobId);
      return { ...r, values: res.values, wallSeconds: res.wallSeconds };
    });
    return {
      index: p.group.index, pixels: p.group.pixels, runs,
      estimate: extrapolateGroup(runs.map((r) => ({ fraction: r.selection.fraction, values: r.values })), o.extrapolation, filterOnly?.values),
    };
  });
  const predicted = combineGroups(reports.map((r) => r.estimate));
  const jobWalls = [...reports.flatMap((r) => r.runs.map((x) => x.wallSeconds)), ...(filterOnly ? [filterOnly.wallSeconds] : [])];
  const workers = Math.min(o.jobs ?? defaultJobCount(), ids.length);
  const allRan = summary.skipped.length === 0;
  const groupsSeconds = allRan ? measuredGroups : scheduledWall(jobWalls, workers);
  const heatmapSeconds = profile.seconds;
  const traced = new Set<number>();
  for (const r of reports) for (const p of r.runs[r.runs.length - 1]!.selection.pixels) traced.add(p);
  // CPU of the group phase: the process's CPU time over it when every job ran now in this
  // process's workers (each worker's time summed); otherwise the jobs' recorded thread times.
  const jobCpus = [...reports.flatMap((r) => r.runs.map((x) => x.jobId)), ...(filterOnlyId ? [filterOnlyId] : [])]
    .map((id) => resultOf(id).cpuSeconds ?? resultOf(id).wallSeconds);
  const groupsCpuSeconds = allRan && backend.name === 'local' ? measuredGroupsCpu : jobCpus.reduce((a, b) => a + b, 0);
  const groupsSmCycles = reports.reduce((a, r) => a + r.runs.reduce((b, x) => b + (x.values.gpu_sim_cycle ?? 0) * scaled.sms, 0), 0)
    + (filterOnly?.values.gpu_sim_cycle ?? 0) * scaled.sms;
  const depth = Math.max(1, Math.round(threads / (width * height)));
  const slots = scaled.sms * config.maxWarpsPerSm * config.warpSize;
  const wavesPerGroup = Math.min(...reports.map((r) => (r.runs[0]!.selection.pixels.length * depth) / slots));
  const costRatios = reports.map((r) => r.runs[r.runs.length - 1]!.selection.costRatio);
  const uniformityRatios = reports.map((r) => r.runs[r.runs.length - 1]!.selection.uniformityRatio);
  const warnings = zatelWarnings(o, { width, height, depth, k: scaled.k, sms: scaled.sms, slots, wavesPerGroup, costRatios, uniformityRatios });
  const result: ZatelResult = {
    options: o, width, height, downscaling: scaled, heatmap, groups: reports, predicted, traced, wavesPerGroup, costRatios, uniformityRatios, warnings,
    ...(filterOnly ? { filterInstructions: filterOnly.values.gpu_sim_insn ?? 0 } : {}),
    timing: {
      heatmapSeconds, groupsSeconds, groupsTiming: allRan ? 'measured' : 'estimated from cached jobs',
      totalSeconds: allRan ? (performance.now() - tStart) / 1000 : heatmapSeconds + groupsSeconds,
      groupJobSeconds: jobWalls.reduce((a, b) => a + b, 0),
      heatmapCpuSeconds: profile.cpuSeconds, groupsCpuSeconds, groupsSmCycles,
    },
  };

  if (o.validate) {
    o.onPhase?.('validation: the full frame on the target GPU');
    const fullId = store.add({ ...base, overrides: [...o.overrides] });
    o.labels?.set(fullId, 'full frame');
    const cFull = processCpuSeconds();
    const full = await (backend.name === 'local' ? localBackend(1) : backend).run(store, [fullId], o.progress);
    const measuredFullCpu = processCpuSeconds() - cFull;
    if (full.failed.length > 0) throw new JobFailedError('Zatel validation (the full simulation)', full.failed, store);
    const f = store.result(fullId)!;
    const fullCpuSeconds = full.ran.length === 1 && backend.name === 'local' ? measuredFullCpu : (f.cpuSeconds ?? f.wallSeconds);
    const zatelCpuSeconds = profile.cpuSeconds + groupsCpuSeconds;
    const fullSmCycles = (f.values.gpu_sim_cycle ?? 0) * config.numSms;
    const metrics: Record<string, MetricValidation> = {};
    for (const [name, p] of Object.entries(predicted)) {
      const v = f.values[name];
      if (v === undefined) continue;
      metrics[name] = { predicted: p, full: v, relativeError: v !== 0 ? Math.abs(p - v) / Math.abs(v) : p === 0 ? 0 : Infinity };
    }
    result.validation = {
      metrics,
      speedup: f.wallSeconds / result.timing.totalSeconds,
      speedupExcludingHeatmap: f.wallSeconds / groupsSeconds,
      zatelWallSeconds: result.timing.totalSeconds,
      fullWallSeconds: f.wallSeconds,
      fullCpuSeconds, zatelCpuSeconds,
      cpuSpeedup: fullCpuSeconds / zatelCpuSeconds,
      cpuSpeedupExcludingHeatmap: fullCpuSeconds / groupsCpuSeconds,
      fullSmCycles, zatelSmCycles: groupsSmCycles,
      smCycleSpeedup: fullSmCycles / groupsSmCycles,
      jobId: fullId,
    };
  }
  return result;
}

/** `validation.json`: the contract scripts and sweeps read. */
export function validationJson(v: ZatelValidation): string {
  const metrics: Record<string, MetricValidation> = {};
  for (const name of Object.keys(v.metrics).sort()) metrics[name] = v.metrics[name]!;
  return `${JSON.stringify({
    metrics, speedup: v.speedup, speedupExcludingHeatmap: v.speedupExcludingHeatmap,
    zatelWallSeconds: v.zatelWallSeconds, fullWallSeconds: v.fullWallSeconds,
    cpuSpeedup: v.cpuSpeedup, cpuSpeedupExcludingHeatmap: v.cpuSpeedupExcludingHeatmap,
    zatelCpuSeconds: v.zatelCpuSeconds, fullCpuSeconds: v.fullCpuSeconds,
    smCycleSpeedup: v.smCycleSpeedup, zatelSmCycles: v.zatelSmCycles, fullSmCycles: v.fullSmCycles,
    tableI: TABLE_I_METRICS,
  }, null, 2)}\n`;
}

/**
 * Why a prediction may not hold: a frame too small for K and the fraction (each group's traced
 * threads fill its downscaled GPU fewer than MIN_WAVES_PER_GROUP times), or a selection whose
 * heatmap cost share could not be brought within the balance tolerance of its pixel share, or
 * (row balance) whose rows' cost uniformity could not be brought within it of the group's.
 */
export function zatelWarnings(
  o: Pick<ZatelOptions, 'fraction' | 'balance'>,
  s: { width: number; height: number; depth: number; k: number; sms: number; slots: number; wavesPerGroup: number; costRatios: number[]; uniformityRatios?: number[] },
): string[] {
  const out: string[] = [];
  if (s.wavesPerGroup < MIN_WAVES_PER_GROUP) {
    const fraction = o.fraction === 'auto' ? 'the automatic fraction' : `fraction ${o.fraction}`;
    const perGroup = Math.round(s.wavesPerGroup * s.slots);
    // Pixels a square frame needs so that the smallest group traces MIN_WAVES_PER_GROUP waves.
    const scale = MIN_WAVES_PER_GROUP / Math.max(s.wavesPerGroup, 1e-9);
    const side = Math.ceil(Math.sqrt(s.width * s.height * scale));
    out.push(
      `frame too small for K = ${s.k} at ${fraction}: a group traces ${perGroup} threads, ${s.wavesPerGroup.toFixed(2)} waves of its ${s.sms} SMs' ` +
      `${s.slots} thread slots (fewer than ${MIN_WAVES_PER_GROUP}): the downscaled GPU is not kept full, so its cycles do not scale with the traced pixels ` +
      `(paper 004 Sec. IV-F, SPRNG). Use a frame of about ${side}x${side} or more, a larger --fraction, or a smaller --k.`,
    );
  }
  if (o.balance !== 'none') {
    const worst = farthestFromOne(s.costRatios);
    if (Math.abs(worst - 1) > COST_BALANCE_TOLERANCE + 1e-9) {
      out.push(
        `representative pixels: a group's traced pixels carry ${(100 * worst).toFixed(1)}% of their pixel share of the heatmap cost ` +
        `(balance target within ${(100 * COST_BALANCE_TOLERANCE).toFixed(0)}%): its instruction count extrapolates ${(100 * (worst - 1)).toFixed(1)}% off; too few section blocks to balance`,
      );
    }
  }
  if ((o.balance ?? 'rows') === 'rows' && s.uniformityRatios) {
    const worst = farthestFromOne(s.uniformityRatios);
    if (Math.abs(worst - 1) > COST_BALANCE_TOLERANCE + 1e-9) {
      out.push(
        `representative rows: a group's traced 32-pixel rows are ${(100 * worst).toFixed(1)}% as uniform in cost as the group's ` +
        `(balance target within ${(100 * COST_BALANCE_TOLERANCE).toFixed(0)}%): its RT efficiency (rt_avg_efficiency) is likely ${worst > 1 ? 'over' : 'under'}-predicted; too few section blocks to balance`,
      );
    }
  }
  return out;
}

/** The ratio of a list furthest from 1 (1 for an empty list). */
function farthestFromOne(ratios: readonly number[]): number {
  return ratios.reduce((w, r) => (Math.abs(r - 1) > Math.abs(w - 1) ? r : w), 1);
}
