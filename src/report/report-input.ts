/**
 * What a report is made from: plain data — the run record, the analytics results and the
 * instrumentation metadata. The report layer reads only this (and analytics types); it never
 * reaches back into the simulator or the driver (DESIGN.md data flow).
 */
import type { VVisionResults, WorkHeatmap } from '../analytics/index.js';
import type { InstrumentationMetadata, InstrumentationMode } from '../primitives/buffer-layout.js';

export interface ReportModeFigures {
  mode: InstrumentationMode;
  bufferWords: number;
  rerunFrom?: number;
  simulateMs: number;
  warpInsts: number;
  threadInsts: number;
  /** The simulator's own SIMT efficiency of the whole (instrumented) run. */
  simtEfficiency: number;
  rays: number;
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
  };
  results: VVisionResults;
  heatmap?: WorkHeatmap;
  metadata: Partial<Record<InstrumentationMode, InstrumentationMetadata>>;
  hasImage: boolean;
}
