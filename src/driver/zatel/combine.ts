/**
 * Combining the K groups' figures into one prediction (paper 004, Sec. III-G/H):
 * - extrapolation of each group to all its pixels: linear, an absolute metric divided by the
 *   traced fraction (100,000 cycles at 10% -> 1,000,000), or exponential regression (y = a e^(b x)
 *   fitted by least squares on ln y over three traced fractions, evaluated at x = 1; the paper
 *   runs 20%, 30% and 40%);
 * - then across groups: throughput (IPC) is summed, as the K downscaled GPUs are the K parts of
 *   the target running side by side; counts (instructions, accesses, rays...) are summed; rates
 *   and ratios (miss rates, efficiencies, latencies) are averaged; the simulated cycles, each
 *   group's estimate of the whole frame's time, are averaged.
 * Rates are not extrapolated by the linear method (they do not scale with the pixel count);
 * regression fits every metric, rates included, since the paper's biased metrics are rates.
 */
import { STAT_META } from '../../sim/timing/index.js';

export type Extrapolation = 'linear' | 'exponential';

/** The paper's Table I metrics, by Vulkan-Sim name. */
export const TABLE_I_METRICS = [
  'gpu_ipc', 'gpu_sim_cycle', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate', 'rt_avg_efficiency', 'dram_eff', 'bwutil',
] as const;

type Rule = 'cycles' | 'throughput' | 'count' | 'rate';

const COUNT_UNITS = new Set(['accesses', 'thread insts', 'warp insts', 'requests', 'packets', 'bytes', 'warps', 'rays', 'writes', 'ops', 'chunks', 'attempts']);
const NOT_PREDICTED = new Set(['gpu_total_sim_rate', 'gpu_sim_cycle_rate', 'gpu_warp_insn_rate', 'gpu_sim_wall_seconds', 'gpu_sim_truncated']);

/** How a stat combines, or undefined when it is not a property of the workload (simulation speed). */
export function combineRule(name: string): Rule | undefined {
  if (NOT_PREDICTED.has(name)) return undefined;
  if (name === 'gpu_sim_cycle') return 'cycles';
  if (name === 'gpu_ipc') return 'throughput';
  const meta = STAT_META[name];
  if (!meta) return undefined;
  return COUNT_UNITS.has(meta.unit) ? 'count' : 'rate';
}

export interface GroupRun {
  /** Traced pixels / group pixels. */
  fraction: number;
  values: Record<string, number>;
}

/** y = a e^(b x) through the points by least squares on ln y, at x = 1; linear least squares when some y <= 0. */
export function exponentialAtOne(points: { x: number; y: number }[]): number {
  const fit = (xs: number[], ys: number[]) => {
    const n = xs.length;
    const mx = xs.reduce((a, b) => a + b, 0) / n;
    const my = ys.reduce((a, b) => a + b, 0) / n;
    let sxy = 0;
    let sxx = 0;
    for (let i = 0; i < n; i++) {
      sxy += (xs[i]! - mx) * (ys[i]! - my);
      sxx += (xs[i]! - mx) ** 2;
    }
    const slope = sxx > 0 ? sxy / sxx : 0;
    return my + slope * (1 - mx);
  };
  const xs = points.map((p) => p.x);
  if (points.every((p) => p.y > 0)) return Math.exp(fit(xs, points.map((p) => Math.log(p.y))));
  return fit(xs, points.map((p) => p.y));
}

/**
 * One group's estimate of its own full-resolution figures. `filterOnly`: the counts of a run
 * with every pixel filtered out (the pixel filter's own instructions and mask loads for every
 * launch thread), subtracted from each count before it is extrapolated, so that only the traced
 * pixels' work is scaled up (at 128x128 on `pt` the filter is ~4% of a group's instructions).
 */
export function extrapolateGroup(runs: GroupRun[], method: Extrapolation, filterOnly?: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  const names = Object.keys(runs[0]?.values ?? {});
  for (const name of names) {
    const rule = combineRule(name);
    if (!rule) continue;
    const own = (v: number) => (rule === 'count' && filterOnly?.[name] !== undefined ? Math.max(0, v - filterOnly[name]!) : v);
    if (method === 'exponential' && runs.length >= 2) {
      out[name] = exponentialAtOne(runs.map((r) => ({ x: r.fraction, y: own(r.values[name]!) })));
    } else {
      const r = runs[runs.length - 1]!;
      const v = own(r.values[name]!);
      out[name] = (rule === 'cycles' || rule === 'count') && r.fraction > 0 ? v / r.fraction : v;
    }
  }
  return out;
}

/** The K groups' estimates combined into the prediction for the whole frame on the target GPU. */
export function combineGroups(groups: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (groups.length === 0) return out;
  for (const name of Object.keys(groups[0]!)) {
    const rule = combineRule(name)!;
    const vals = groups.map((g) => g[name]!).filter((v) => Number.isFinite(v));
    if (vals.length === 0) continue;
    const sum = vals.reduce((a, b) => a + b, 0);
    out[name] = rule === 'throughput' || rule === 'count' ? sum : sum / vals.length;
  }
  return out;
}
