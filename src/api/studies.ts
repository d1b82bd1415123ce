/**
 * The CLI's multi-run studies as library calls, with typed configuration knobs (config-knobs.ts,
 * generated from the declared parameters) instead of `key=value` strings:
 *
 *   const s = await sweep('ao', { config: 'mobile', vary: { gpgpu_rt_max_warps: [4, 8] } });
 *   const z = await zatel('pt', { config: 'mobile', fraction: 0.3 });
 *
 * Both run their points as jobs in worker threads and keep finished points in a job store
 * (`jobDir`, default vvision-out/jobs), exactly as `vvision sweep` / `vvision zatel` do. This file
 * only wires src/driver; it holds no logic of its own.
 */
import type { LaunchMapping } from '../sim/functional/warp-mapping.js';
import { jobRunOptions } from '../driver/jobs/job-spec.js';
import { runSweep, type SweepResult } from '../driver/sweep/run-sweep.js';
import { parseVary } from '../driver/sweep/sweep-grid.js';
import { runZatel, type ZatelResult } from '../driver/zatel/run-zatel.js';
import type { Distribution } from '../driver/zatel/representative-pixels.js';
import type { Division } from '../driver/zatel/division.js';
import type { Extrapolation } from '../driver/zatel/combine.js';
import type { ConfigKnobs } from '../sim/config/config-knobs.js';
import { DEFAULT_WORKLOAD } from '../sim/workload/load-manifest.js';

/** `{gpgpu_rt_max_warps: 4}` -> `['gpgpu_rt_max_warps=4']`, the form config files and `--set` use. */
export function knobOverrides(knobs: ConfigKnobs = {}): string[] {
  return Object.entries(knobs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : typeof v === 'boolean' ? (v ? 1 : 0) : v}`);
}

/** Run parameters and warp mapping shared by every point of a study. */
export interface StudyRunOptions {
  width?: number;
  height?: number;
  spp?: number;
  bounces?: number;
  seed?: number;
  mapping?: LaunchMapping;
  fcc?: boolean;
  its?: boolean;
}

export interface SweepOptions extends StudyRunOptions {
  /** Base GPU configuration: a preset or a gpgpusim.config path. Default 'mobile'. */
  config?: string;
  /** Knobs of the base configuration. */
  knobs?: ConfigKnobs;
  /**
   * The grid: each knob with its values, in order (the first is the charts' x axis). The study
   * bundles `limit`, `predictor` and `treelets` take their named values, as `--vary` does.
   */
  vary: { [K in keyof ConfigKnobs]?: NonNullable<ConfigKnobs[K]>[] } & { limit?: string[]; predictor?: string[]; treelets?: string[] };
  jobDir?: string;
}

/** A grid of timing simulations (`vvision sweep`): one row per point, cycles relative to the first. */
export async function sweep(workload: string = DEFAULT_WORKLOAD, o: SweepOptions): Promise<SweepResult> {
  const dims = Object.entries(o.vary).map(([knob, values]) => parseVary(`${knob}=${(values as unknown[]).join(',')}`));
  if (dims.length === 0) throw new TypeError('sweep: "vary" needs at least one knob with its values');
  return runSweep({
    workload, config: o.config ?? 'mobile', overrides: knobOverrides(o.knobs), run: jobRunOptions(runOf(o)), dims,
    jobDir: o.jobDir ?? 'vvision-out/jobs',
  });
}

export interface ZatelOptions extends StudyRunOptions {
  config?: string;
  knobs?: ConfigKnobs;
  /** Downscaling factor and number of groups (default: gcd of SMs and memory partitions). */
  k?: number;
  /** 'auto' (default): eq. 1 bounded to [0.3, 0.6]; a number in (0, 1] caps it. */
  fraction?: 'auto' | number;
  division?: Division;
  distribution?: Distribution;
  extrapolation?: Extrapolation;
  /** K-means colours of the quantised heatmap (default 5). */
  clusters?: number;
  /** Seed of the block selection and K-means (default 1). */
  selectSeed?: number;
  /** Also simulate the full frame and report the error per metric. */
  validate?: boolean;
  jobDir?: string;
}

/** Zatel's scale-model prediction of a full timing simulation (`vvision zatel`, paper 004). */
export async function zatel(workload: string = DEFAULT_WORKLOAD, o: ZatelOptions = {}): Promise<ZatelResult> {
  return runZatel({
    workload, config: o.config ?? 'mobile', overrides: knobOverrides(o.knobs), run: jobRunOptions(runOf(o)),
    ...(o.k !== undefined ? { k: o.k } : {}),
    fraction: o.fraction ?? 'auto', division: o.division ?? 'fine', distribution: o.distribution ?? 'uniform',
    extrapolation: o.extrapolation ?? 'linear', clusters: o.clusters ?? 5, seed: o.selectSeed ?? 1,
    jobDir: o.jobDir ?? 'vvision-out/jobs', validate: o.validate === true,
  });
}

function runOf(o: StudyRunOptions): Record<string, unknown> {
  const { width, height, spp, bounces, seed, mapping, fcc, its } = o;
  return Object.fromEntries(Object.entries({ width, height, spp, bounces, seed, mapping, fcc, its }).filter(([, v]) => v !== undefined));
}
