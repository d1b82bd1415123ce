/**
 * `vvision calibrate`: the LumiBench WKND frame on Vulkan-Sim's own SM75_RTX2060 config, each
 * headline figure beside Vulkan-Sim's measurement of the same frame (shared/calibration/
 * lumibench-wknd/vulkan-sim/SUMMARY.tsv) with the ratio and the issue-8 target it must meet.
 * Everything shown is computed from the two runs; nothing here is tuned per figure.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { imageToPng } from '../sim/host/image-png.js';
import type { SimImage } from '../sim/functional/images.js';
import { join } from 'node:path';
import { cpuUsage, resourceUsage } from 'node:process';
import { loadConfig } from '../sim/config/gpu-config.js';
import { ManifestError } from '../sim/workload/manifest.js';
import { calibrationDir } from '../sim/workload/load-manifest.js';
import { calibrationDataHint } from '../sim/workload/lumibench-wknd.js';
import { simulateWorkload, type SimulateOptions } from './simulate-workload.js';

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

/**
 * How close a figure must be (issue 26 part 5): relative to Vulkan-Sim's value, absolute, or
 * within a factor either way.
 */
export interface Target {
  kind: 'relative' | 'absolute' | 'factor';
  tolerance: number;
}

/** The crossbar's FIFO counts of the reference config (GPGPU-Sim's active_in_buffers of each subnet). */
export interface CrossbarShape {
  sms: number;
  subPartitions: number;
}

/**
 * A compared figure. Those not in SUMMARY.tsv are read from the run's full Vulkan-Sim stats.txt,
 * where GPGPU-Sim prints them as `name = value` (`fromStats`), or computed from its figures there
 * (`fromReference`: a figure vvision prints that GPGPU-Sim does not).
 */
export interface CalibrationFigure {
  name: string;
  target?: Target;
  fromStats?: string;
  fromReference?: (stat: (name: string) => number, shape: CrossbarShape) => number;
}

/** Little's law on a subnet's input FIFOs: packets held per cycle (avg util x FIFOs) x cycles / packets injected. */
const inBufferWait = (subnet: 'Req' | 'Reply') => (stat: (name: string) => number, shape: CrossbarShape): number =>
  (stat(`${subnet}_Network_in_buffer_avg_util`) * (subnet === 'Req' ? shape.sms : shape.subPartitions) * stat(`${subnet}_Network_cycles`)) /
  stat(`${subnet}_Network_injected_packets_num`);

/** The compared figures, in the order the tables show them. */
export const CALIBRATION_FIGURES: readonly CalibrationFigure[] = [
  { name: 'gpu_sim_cycle', target: { kind: 'relative', tolerance: 0.15 } },
  { name: 'gpu_sim_insn', target: { kind: 'relative', tolerance: 0.15 } },
  // Warp instructions issued: GPGPU-Sim's gpgpu_n_tot_w_icount against ours (shown, not targeted).
  { name: 'gpu_warp_insn', fromStats: 'gpgpu_n_tot_w_icount' },
  { name: 'gpu_ipc' },
  { name: 'L1D_total_cache_miss_rate', target: { kind: 'absolute', tolerance: 0.07 } },
  { name: 'L2_total_cache_miss_rate', target: { kind: 'absolute', tolerance: 0.07 } },
  { name: 'L2_total_cache_accesses', fromStats: 'L2_total_cache_accesses' },
  // The L1Ds' streams: thread-level loads and stores (per lane and 32-bit component, as NIR-to-PTX
  // scalarises them) and the requests sent into the interconnect (what reaches the L2). Shown, not targeted.
  { name: 'gpgpu_n_global_load_insn', fromStats: 'gpgpu_n_global_load_insn' },
  { name: 'gpgpu_n_global_store_insn', fromStats: 'gpgpu_n_global_store_insn' },
  { name: 'gpgpu_n_mem_read_global', fromStats: 'gpgpu_n_mem_read_global' },
  { name: 'gpgpu_n_mem_write_global', fromStats: 'gpgpu_n_mem_write_global' },
  // LD/ST pressure: SM-cycles an issued memory instruction's accesses could not all enter the L1D (shown, not targeted).
  { name: 'gpgpu_n_stall_shd_mem', fromStats: 'gpgpu_n_stall_shd_mem' },
  { name: 'L2_total_cache_reservation_fails', target: { kind: 'factor', tolerance: 3 }, fromStats: 'L2_total_cache_reservation_fails' },
  { name: 'rt_avg_efficiency', target: { kind: 'relative', tolerance: 0.2 } },
  { name: 'rt_avg_warp_latency', target: { kind: 'relative', tolerance: 0.2 } },
  // Its rays' own time in the RT unit (summed per warp / 32, Vulkan-Sim's definition): shown, not targeted.
  { name: 'rt_avg_thread_latency', fromStats: 'rt_avg_thread_latency' },
  { name: 'rt_avg_nodes_per_ray', target: { kind: 'relative', tolerance: 0.15 } },
  // Every RT-unit memory transaction (nodes, BVH headers, leaf descriptors): Vulkan-Sim counts them at issue.
  { name: 'rt_total_transactions', fromStats: 'gpgpu_n_rt_access_insn' },
  { name: 'rt_avg_warp_occupancy' },
  // GPGPU-Sim's memory latency statistics (mem-latency-stats.ts says what each measures): shown, not targeted.
  { name: 'averagemflatency', fromStats: 'averagemflatency' },
  { name: 'avg_icnt2mem_latency', fromStats: 'avg_icnt2mem_latency' },
  { name: 'avg_icnt2sh_latency', fromStats: 'avg_icnt2sh_latency' },
  { name: 'maxmflatency', fromStats: 'maxmflatency' },
  { name: 'max_icnt2mem_latency', fromStats: 'max_icnt2mem_latency' },
  { name: 'max_icnt2sh_latency', fromStats: 'max_icnt2sh_latency' },
  // Where replies and requests wait in the local crossbar: packets per input / output FIFO per cycle.
  { name: 'Req_Network_conflicts_per_cycle_util', fromStats: 'Req_Network_conflicts_per_cycle_util' },
  { name: 'Req_Bank_Level_Parallism', fromStats: 'Req_Bank_Level_Parallism' },
  { name: 'Req_Network_in_buffer_avg_util', fromStats: 'Req_Network_in_buffer_avg_util' },
  { name: 'Req_Network_out_buffer_avg_util', fromStats: 'Req_Network_out_buffer_avg_util' },
  { name: 'Reply_Network_conflicts_per_cycle_util', fromStats: 'Reply_Network_conflicts_per_cycle_util' },
  { name: 'Reply_Bank_Level_Parallism', fromStats: 'Reply_Bank_Level_Parallism' },
  { name: 'Reply_Network_in_buffer_avg_util', fromStats: 'Reply_Network_in_buffer_avg_util' },
  { name: 'Reply_Network_out_buffer_avg_util', fromStats: 'Reply_Network_out_buffer_avg_util' },
  // The same FIFOs in cycles per packet (Little's law on the counters above).
  { name: 'Req_Network_in_buffer_avg_wait', fromReference: inBufferWait('Req') },
  { name: 'Reply_Network_in_buffer_avg_wait', fromReference: inBufferWait('Reply') },
  // Vulkan-Sim prints Row_Buffer_Locality of one channel only (the last DRAM it printed), so it is shown, not targeted.
  { name: 'dram_row_buffer_hit_rate', fromStats: 'Row_Buffer_Locality' },
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

/** How the rendered frame compares with Vulkan-Sim's, pixel by pixel (the Vulkan-Sim paper's bar). */
export interface FrameAgreement {
  pixels: number;
  /** Pixels whose R, G or B differs by more than 2/255. */
  differing: number;
  fraction: number;
  maxDifference: number;
}

/** The Vulkan-Sim paper's bar against NVIDIA: at most 0.3% of pixels off by more than 2/255. */
export const FRAME_BAR = 0.003;

export interface CalibrationResult {
  reference: ReferenceRun;
  rows: CalibrationRow[];
  frame?: FrameAgreement;
  wallSeconds: number;
  cpuSeconds: number;
  /** The process's high-water mark so far (a later size includes the earlier ones' peak). */
  peakRssMb: number;
}

/** Vulkan-Sim's config of the reference runs, in the reference folder. */
const REFERENCE_CONFIG = 'SM75_RTX2060.gpgpusim.config';

/** The SMs and L2 sub-partitions of a GPGPU-Sim config: the input FIFOs of each crossbar subnet. */
function crossbarShape(configPath: string): CrossbarShape {
  const c = loadConfig(configPath);
  return { sms: c.numSms, subPartitions: c.numMemChannels * c.subPartitionsPerChannel };
}

/** The Vulkan-Sim folder of the frame; a ManifestError naming it when it is absent. */
export function vulkanSimDir(dir = calibrationDir()): string {
  const v = join(dir, 'lumibench-wknd', 'vulkan-sim');
  if (!existsSync(join(v, 'SUMMARY.tsv'))) {
    throw new ManifestError([`calibrate: no Vulkan-Sim reference at ${v} (SUMMARY.tsv missing); ${calibrationDataHint(dir)}`]);
  }
  return v;
}

/** SUMMARY.tsv: one row per run (`wknd_pt_<W>x<H>_<S>spp`), columns named as Vulkan-Sim's stats. */
export function readReferenceRuns(dir = vulkanSimDir()): ReferenceRun[] {
  const [head, ...rows] = readFileSync(join(dir, 'SUMMARY.tsv'), 'utf8').trim().split(/\r?\n/).map((l) => l.split('\t'));
  const col = (name: string): number => head!.indexOf(name);
  const shape = crossbarShape(join(dir, REFERENCE_CONFIG));
  return rows.map((r) => {
    const run = r[col('run')]!;
    const size = /_(\d+)x(\d+)_(\d+)spp$/.exec(run);
    if (!size) throw new ManifestError([`${join(dir, 'SUMMARY.tsv')}: run "${run}" does not end in _<W>x<H>_<S>spp`]);
    const figures: Record<string, number> = {};
    const stats = statsFigures(join(dir, run, 'stats.txt'));
    const stat = (name: string): number => stats.get(name) ?? Number.NaN;
    for (const f of CALIBRATION_FIGURES) {
      figures[f.name] = f.fromReference ? f.fromReference(stat, shape) : f.fromStats ? stat(f.fromStats) : Number(r[col(f.name)]);
    }
    const [m, s] = (r[col('wall')] ?? '0:0').split(':').map(Number);
    return {
      run, width: Number(size[1]), height: Number(size[2]), spp: Number(size[3]), figures,
      wallSeconds: m! * 60 + s!, maxRssMb: Number(r[col('maxRSS_MB')]),
    };
  });
}

/** The last `name = number` of each name in a GPGPU-Sim stats.txt (empty when the file is absent). */
function statsFigures(path: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync(path)) return out;
  for (const m of readFileSync(path, 'utf8').matchAll(/^\s*([A-Za-z_][\w]*)\s*=\s*(-?[\d.]+(?:e[-+]?\d+)?)\s*$/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

export function withinTarget(target: Target, reference: number, ours: number): boolean {
  if (target.kind === 'factor') return ours <= reference * target.tolerance && ours >= reference / target.tolerance;
  return target.kind === 'absolute'
    ? Math.abs(ours - reference) <= target.tolerance
    : Math.abs(ours - reference) <= target.tolerance * Math.abs(reference);
}

/** Runs the frame at the reference run's size on `config` (default: Vulkan-Sim's own config file). */
export async function calibrateRun(
  reference: ReferenceRun, config?: string, overrides: string[] = [], onProgress?: SimulateOptions['onProgress'],
): Promise<CalibrationResult> {
  const cfg = config ?? join(vulkanSimDir(), REFERENCE_CONFIG);
  const cpu0 = cpuUsage();
  const t0 = performance.now();
  const r = await simulateWorkload('lumibench-wknd', {
    config: cfg, overrides, width: reference.width, height: reference.height, spp: reference.spp,
    ...(onProgress ? { onProgress } : {}),
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
  const out: CalibrationResult = {
    reference, rows, wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMb: resourceUsage().maxRSS / 1024,
  };
  const image = r.prepared.host.output;
  if (image) out.frame = compareWithReferenceFrame(image, reference);
  return out;
}

/**
 * Compares a frame with Vulkan-Sim's rendered frame of the run (`<run>/frame_<W>x<H>_x<S>.png`,
 * upscaled S times by pixel replication).
 */
export function compareWithReferenceFrame(image: SimImage, reference: ReferenceRun, dir = vulkanSimDir()): FrameAgreement | undefined {
  const runDir = join(dir, reference.run);
  const file = existsSync(runDir) ? readdirSync(runDir).find((f) => /^frame_\d+x\d+_x\d+\.png$/.test(f)) : undefined;
  if (!file) return undefined;
  const scale = Number(/_x(\d+)\.png$/.exec(file)![1]);
  const ref = PNG.sync.read(readFileSync(join(runDir, file)));
  const ours = PNG.sync.read(Buffer.from(imageToPng(image, { keepAlpha: true })));
  let differing = 0;
  let maxDifference = 0;
  for (let y = 0; y < ours.height; y++) {
    for (let x = 0; x < ours.width; x++) {
      const a = (y * ours.width + x) * 4;
      const b = (y * scale * ref.width + x * scale) * 4;
      let d = 0;
      for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(ours.data[a + c]! - ref.data[b + c]!));
      if (d > 2) differing++;
      maxDifference = Math.max(maxDifference, d);
    }
  }
  const pixels = ours.width * ours.height;
  return { pixels, differing, fraction: differing / pixels, maxDifference };
}
