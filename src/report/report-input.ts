/**
 * What a report is made from: plain data — the run record, the analytics results and the
 * instrumentation metadata. The report layer reads only this (and analytics types); it never
 * reaches back into the simulator or the driver (DESIGN.md data flow).
 */
import type { VVisionResults, WorkHeatmap } from '../analytics/index.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { ReportUtilityPage } from './utility-page.js';

export interface ReportModeFigures {
  /** The utility's name: a built-in mode or a user utility. */
  mode: string;
  /** A user utility: the absolute path of its .ts file (`vvision report` loads it again from there). */
  utilityFile?: string;
  bufferWords: number;
  rerunFrom?: number;
  simulateMs: number;
  warpInsts: number;
  threadInsts: number;
  /** The simulator's own SIMT efficiency of the whole (instrumented) run. */
  simtEfficiency: number;
  rays: number;
  /** With a GPU configuration: the timing model's headline stats of this instrumented run. */
  timing?: ReportTimingFigures;
  /** gpu_sim_cycle of this run minus that of the uninstrumented run (same configuration). */
  overheadCycles?: number;
  /** Multi-frame runs: the frame the analyses read (its dump is runs/<mode>/dump.bin), and every frame's figures. */
  analysedFrame?: number;
  perFrame?: ReportFrameFigures[];
}

/** One frame of a multi-frame instrumented run (the report's per-frame series). */
export interface ReportFrameFigures {
  frame: number;
  warpInsts: number;
  threadInsts: number;
  /** The simulator's SIMT efficiency of this frame. */
  simtEfficiency: number;
  /** SIMT efficiency of this frame as the dump measures it (utilities with block sites: simt, divergence). */
  dumpSimtEfficiency?: number;
  rays: number;
  /** Entry words the frame wrote to the instrumentation buffer. */
  dumpWords: number;
  /** With a GPU configuration: this frame's cycles. */
  cycles?: number;
  /** A device run: the frame's trace dispatch time (ms); the simulator's counters above are not measured there (0). */
  deviceTraceMs?: number;
}

/** Headline timing-model stats by their Vulkan-Sim names (TIMING_HEADLINE_STATS). */
export type ReportTimingFigures = Record<string, number>;

/**
 * The timing stats shown beside the overhead: cycles and instructions, then where extra cycles
 * can come from (issue rate, caches and DRAM taking the instrumentation's atomics and stores, RT unit).
 */
export const TIMING_HEADLINE_STATS: readonly string[] = [
  'gpu_sim_cycle', 'gpu_sim_insn', 'gpu_ipc', 'gpu_simt_efficiency', 'L1D_total_cache_accesses', 'L1D_total_cache_miss_rate',
  'L2_total_cache_accesses', 'L2_total_cache_miss_rate', 'dram_writes', 'dram_eff', 'bwutil', 'rt_avg_efficiency', 'rt_avg_warp_latency',
];

/** The headline subset of a timing model's flat stat values (missing names are left out). */
export function timingHeadline(values: Readonly<Record<string, number>>): ReportTimingFigures {
  const out: ReportTimingFigures = {};
  for (const k of TIMING_HEADLINE_STATS) if (typeof values[k] === 'number') out[k] = values[k];
  return out;
}

/** The uninstrumented run on the timing model, which every mode's overhead is measured against. */
export interface ReportTimingBaseline {
  config: string;
  timing: ReportTimingFigures;
}

export interface ReportFidelity {
  fromDump: number;
  fromSimulator: number;
  sitesCompared: number;
  mismatches: readonly unknown[];
  holds: boolean;
}

export interface ReportInput {
  record: {
    workload: string;
    manifest: string;
    params: { width: number; height: number; spp: number; bounces: number; seed: number };
    modes: ReportModeFigures[];
    fidelity?: ReportFidelity;
    analyticsMs: number;
    /** Present when the run used a GPU configuration (`--config`). */
    uninstrumented?: ReportTimingBaseline;
    /** A run on a real Vulkan device: the simulator's own figures of its modes are not measured. */
    device?: { name: string; driver: string; subgroupSize: number; medianTraceMs: number };
  };
  results: VVisionResults;
  heatmap?: WorkHeatmap;
  /** Metadata by utility name. */
  metadata: Partial<Record<string, InstrumentationMetadata>>;
  hasImage: boolean;
  /** One page per user utility, from its analysis. */
  utilityPages?: ReportUtilityPage[];
  /** The manifest's absolute folder when the metadata holds absolute paths (a run made in this process): pages name files relative to it. */
  manifestDir?: string;
}
