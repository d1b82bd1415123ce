/**
 * `vvision calibrate`: the LumiBench WKND frame on Vulkan-Sim's own SM75_RTX2060 config, each
 * headline figure beside Vulkan-Sim's measurement of the same frame (shared/calibration/
 * lumibench-wknd/vulkan-sim/SUMMARY.tsv) with the ratio and the issue-8 target it must meet.
 * Everything shown is computed from the two runs; nothing here is tuned per figure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuUsage, resourceUsage } from 'node:process';
import { ManifestError } from '../sim/workload/manifest.js';
import { calibrationDir } from '../sim/workload/load-manifest.js';
import { simulateWorkload } from './simulate-workload.js';

/** A Vulkan-Sim run of SUMMARY.tsv: its size and its figures by stat name. */
export interface ReferenceRun {
  run: string;
  width: number;
  height: number;
  spp: number;
  figures: Record<string, number>;
  wallSeconds: number;
  maxRssMb: number;
}

/** How close a figure must be (issue 8 part 5): relative to Vulkan-Sim's value, or absolute. */
export interface Target {
  kind: 'relative' | 'absolute';
  tolerance: number;
}

export const CALIBRATION_FIGURES: readonly { name: string; target?: Target }[] = [
  { name: 'gpu_sim_cycle', target: { kind: 'relative', tolerance: 0.25 } },
  { name: 'gpu_sim_insn', target: { kind: 'relative', tolerance: 0.15 } },
  { name: 'gpu_ipc' },
  { name: 'L1D_total_cache_miss_rate', target: { kind: 'absolute', tolerance: 0.1 } },
  { name: 'L2_total_cache_miss_rate', target: { kind: 'absolute', tolerance: 0.1 } },
  { name: 'rt_avg_efficiency', target: { kind: 'relative', tolerance: 0.15 } },
  { name: 'rt_avg_warp_latency' },
  { name: 'rt_avg_nodes_per_ray', target: { kind: 'relative', tolerance: 0.15 } },
  { name: 'rt_avg_warp_occupancy' },
];

export interface CalibrationRow {
  figure: string;
  vulkanSim: number;
  vvision: number;
  /** vvision / Vulkan-Sim. */
  ratio: number;
  target?: Target;
  withinTarget?: boolean;
}

export interface CalibrationResult {
  reference: ReferenceRun;
  rows: CalibrationRow[];
  wallSeconds: number;
  cpuSeconds: number;
  /** The process's high-water mark so far (a later size includes the earlier ones' peak). */
  peakRssMb: number;
}

/** The Vulkan-Sim folder of the frame; a ManifestError naming it when it is absent. */
export function vulkanSimDir(dir = calibrationDir()): string {
  const v = join(dir, 'lumibench-wknd', 'vulkan-sim');
  if (!existsSync(join(v, 'SUMMARY.tsv'))) {
    throw new ManifestError([`calibrate: no Vulkan-Sim reference at ${v} (SUMMARY.tsv missing); it lives in ../shared/calibration beside the project, or set VVISION_CALIBRATION_DIR`]);
  }
  return v;
}

/** SUMMARY.tsv: one row per run (`wknd_pt_<W>x<H>_<S>spp`), columns named as Vulkan-Sim's stats. */
export function readReferenceRuns(dir = vulkanSimDir()): ReferenceRun[] {
  const [head, ...rows] = readFileSync(join(dir, 'SUMMARY.tsv'), 'utf8').trim().split(/\r?\n/).map((l) => l.split('\t'));
  const col = (name: string): number => head!.indexOf(name);
  return rows.map((r) => {
    const run = r[col('run')]!;
    const size = /_(\d+)x(\d+)_(\d+)spp$/.exec(run);
    if (!size) throw new ManifestError([`${join(dir, 'SUMMARY.tsv')}: run "${run}" does not end in _<W>x<H>_<S>spp`]);
    const figures: Record<string, number> = {};
    for (const f of CALIBRATION_FIGURES) figures[f.name] = Number(r[col(f.name)]);
    const [m, s] = (r[col('wall')] ?? '0:0').split(':').map(Number);
    return {
      run, width: Number(size[1]), height: Number(size[2]), spp: Number(size[3]), figures,
      wallSeconds: m! * 60 + s!, maxRssMb: Number(r[col('maxRSS_MB')]),
    };
  });
}

export function withinTarget(target: Target, reference: number, ours: number): boolean {
  return target.kind === 'absolute'
    ? Math.abs(ours - reference) <= target.tolerance
    : Math.abs(ours - reference) <= target.tolerance * Math.abs(reference);
}

/** Runs the frame at the reference run's size on `config` (default: Vulkan-Sim's own config file). */
export async function calibrateRun(reference: ReferenceRun, config?: string, overrides: string[] = []): Promise<CalibrationResult> {
  const cfg = config ?? join(vulkanSimDir(), 'SM75_RTX2060.gpgpusim.config');
  const cpu0 = cpuUsage();
  const t0 = performance.now();
  const r = await simulateWorkload('lumibench-wknd', {
    config: cfg, overrides, width: reference.width, height: reference.height, spp: reference.spp,
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  const cpu = cpuUsage(cpu0);
  const v = r.stats.values;
  const rows = CALIBRATION_FIGURES.map((f): CalibrationRow => {
    const ref = reference.figures[f.name]!;
    const ours = v[f.name] ?? Number.NaN;
    const row: CalibrationRow = { figure: f.name, vulkanSim: ref, vvision: ours, ratio: ours / ref };
    if (f.target) {
      row.target = f.target;
      row.withinTarget = withinTarget(f.target, ref, ours);
    }
    return row;
  });
  return {
    reference, rows, wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMb: resourceUsage().maxRSS / 1024,
  };
}
