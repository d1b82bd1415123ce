/**
 * `vvision sweep`: one timing simulation per grid point, as jobs in the content-addressed job
 * store run by the local backend (worker threads). Resumable by construction: a point whose
 * result is in the store is not simulated again, so an interrupted sweep picks up where it
 * stopped and a widened grid runs only the new points.
 */
import { jobConfig, jobWorkload, type JobRunOptions } from '../jobs/job-spec.js';
import { JobStore } from '../jobs/job-store.js';
import { localBackend, type JobBackend, type JobProgressHooks } from '../jobs/backend.js';
import { JobFailedError } from '../jobs/local-backend.js';
import { predictorMemorySavings } from '../../sim/timing/stats.js';
import { sweepPoints, type SweepDimension, type SweepPoint } from './sweep-grid.js';

export interface SweepOptions {
  workload: string;
  config: string;
  overrides: string[];
  run: JobRunOptions;
  dims: SweepDimension[];
  /** Default: the local backend with one worker per core. */
  backend?: JobBackend;
  jobDir: string;
  progress?: JobProgressHooks;
  /** Filled with each job's point label (`gpgpu_rt_max_warps=4`) before any job starts, for progress bars. */
  labels?: Map<string, string>;
}

export interface SweepRow {
  point: SweepPoint;
  jobId: string;
  values: Record<string, number>;
  wallSeconds: number;
  /** The point's cycles relative to the first point's (speedup > 1 = faster). */
  speedup: number;
}

export interface SweepResult {
  dims: SweepDimension[];
  rows: SweepRow[];
  params: { width: number; height: number; spp: number };
  ran: number;
  reused: number;
}

export function sweepLabel(dims: SweepDimension[], p: SweepPoint): string {
  return dims.map((d, i) => `${d.knob}=${p.values[i]}`).join(' ');
}

export async function runSweep(o: SweepOptions): Promise<SweepResult> {
  const points = sweepPoints(o.dims, o.config, o.overrides);
  const store = new JobStore(o.jobDir);
  const base = { kind: 'sim' as const, workload: jobWorkload(o.workload), config: jobConfig(o.config), run: o.run };
  const ids = points.map((p) => store.add({ ...base, overrides: [...o.overrides, ...p.overrides] }));
  ids.forEach((id, i) => o.labels?.set(id, sweepLabel(o.dims, points[i]!)));
  const summary = await (o.backend ?? localBackend()).run(store, ids, o.progress);
  if (summary.failed.length > 0) throw new JobFailedError('sweep', summary.failed, store);
  const results = ids.map((id) => store.result(id)!);
  const baseCycles = results[0]!.values.gpu_sim_cycle ?? 0;
  const rows = points.map((point, i): SweepRow => {
    const r = results[i]!;
    const cycles = r.values.gpu_sim_cycle ?? 0;
    // The paper's memory savings need the baseline RT unit's run: the first point, when it has no
    // predictor. (A result stored before this was a comparison held node-fetch savings under the name.)
    const savings = predictorMemorySavings(r.values, results[0]!.values);
    const { rt_predictor_memory_savings: _stored, ...values } = r.values;
    if (savings !== undefined) values.rt_predictor_memory_savings = savings;
    return { point, jobId: ids[i]!, values, wallSeconds: r.wallSeconds, speedup: cycles > 0 ? baseCycles / cycles : 0 };
  });
  return { dims: o.dims, rows, params: results[0]!.params, ran: summary.ran.length, reused: summary.skipped.length };
}

/** The columns of sweep.csv after the knobs. */
export const SWEEP_METRICS = [
  'gpu_sim_cycle', 'gpu_ipc', 'gpu_sim_insn', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate', 'dram_eff', 'bwutil',
  'rt_avg_efficiency', 'rt_avg_warp_occupancy', 'rt_avg_warp_latency', 'dram_reads', 'dram_writes',
] as const;

function csvField(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Columns added when some point ran a mechanism with stats of its own (e.g. the intersection predictor). */
export const MECHANISM_METRICS = [
  'rt_avg_nodes_per_ray', 'rt_total_requests', 'L1D_total_cache_accesses',
  'rt_predictor_predicted_rate', 'rt_predictor_verified_rate', 'rt_predictor_mispredicted_rate', 'rt_predictor_memory_savings',
  'rt_predictor_node_fetch_savings', 'rt_predictor_nodes', 'rt_predictor_baseline_nodes', 'rt_predictor_prediction_nodes', 'rt_predictor_misprediction_nodes',
] as const;

/** Columns added when some point ran the virtualized treelet queues (paper 001). */
export const TREELET_METRICS = [
  'rt_simt_efficiency', 'treelet_cycles_initial', 'treelet_cycles_treelet', 'treelet_cycles_ray',
  'treelet_tests_initial', 'treelet_tests_treelet', 'treelet_tests_ray', 'treelet_repacks', 'virt_saved_bytes',
] as const;

/** The metric columns of this sweep: the fixed set, and each mechanism's set when any point has it. */
export function sweepMetrics(rows: readonly { values: Record<string, number> }[]): string[] {
  const mechanism = rows.some((r) => r.values.rt_predictor_lookups !== undefined);
  const treelets = rows.some((r) => r.values.treelet_cycles_initial !== undefined);
  return [...SWEEP_METRICS, ...(mechanism ? MECHANISM_METRICS : []), ...(treelets ? TREELET_METRICS : [])];
}

export function sweepCsv(r: SweepResult): string {
  const metrics = sweepMetrics(r.rows);
  const header = [...r.dims.map((d) => d.knob), ...metrics, 'speedup', 'wall_seconds', 'job'];
  const lines = [header.map(csvField).join(',')];
  for (const row of r.rows) {
    lines.push([
      ...row.point.values, ...metrics.map((m) => String(row.values[m] ?? '')), row.speedup.toFixed(6), row.wallSeconds.toFixed(3), row.jobId,
    ].map(csvField).join(','));
  }
  return `${lines.join('\n')}\n`;
}
