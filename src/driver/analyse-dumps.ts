/**
 * Runs each utility's analysis on its dump: the built-ins' typed results are merged into one
 * VVisionResults (data files, the report's dedicated pages), the trace heatmap is kept, and user
 * utilities' analyses are returned as they are (their report pages). Shared by
 * `vvision instrument` (fresh dumps) and `vvision report` (saved ones).
 */
import type { Dump, VVisionResults, WorkHeatmap } from '../analytics/index.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from '../utilities/builtin.js';
import type { Utility, UtilityAnalysis } from '../utilities/utility.js';
import { runUtilityCode } from '../utilities/utility-error.js';
import { checkUtilityAnalysis } from '../utilities/check-analysis.js';

export interface ModeDump {
  /** The utility's name (a built-in mode or a user utility). */
  mode: string;
  dump: Dump;
  metadata: InstrumentationMetadata;
  /** The utility; built-ins are found by name when absent. */
  utility?: Utility;
}

export interface AnalysedDumps {
  results: VVisionResults;
  heatmap?: WorkHeatmap;
  /** Every utility's analysis, in run order (built-ins included). */
  analyses: { utility: Utility; analysis: UtilityAnalysis }[];
}

export class UnknownUtilityError extends Error {
  constructor(readonly utilityName: string) {
    super(`no utility named '${utilityName}': not a built-in (${Object.keys(BUILTIN_UTILITIES).join(', ')}); give its file with --utility`);
    this.name = 'UnknownUtilityError';
  }
}

export function utilityOf(r: ModeDump): Utility {
  const u = r.utility ?? (BUILTIN_UTILITIES as Record<string, Utility | undefined>)[r.mode];
  if (!u) throw new UnknownUtilityError(r.mode);
  return u;
}

export function analyseDumps(workload: string, runs: readonly ModeDump[], launch: { width: number; height: number }): AnalysedDumps {
  const results: VVisionResults = { workload };
  let heatmap: WorkHeatmap | undefined;
  const analyses: AnalysedDumps['analyses'] = [];
  for (const r of runs) {
    const utility = utilityOf(r);
    const input = { dump: r.dump, metadata: r.metadata, launch: { width: launch.width, height: launch.height }, workload };
    const builtin = (BUILTIN_UTILITIES as Record<string, Utility | undefined>)[utility.name] === utility;
    // Built-ins throw their own typed errors; a user utility's failure is reported against its file.
    const analysis = builtin ? utility.analyse(input) : checkUtilityAnalysis(utility.name, runUtilityCode(utility, 'analyse', () => utility.analyse(input)));
    if (analysis.results) Object.assign(results, analysis.results);
    if (analysis.heatmap) heatmap = analysis.heatmap;
    analyses.push({ utility, analysis });
  }
  const out: AnalysedDumps = { results, analyses };
  if (heatmap) out.heatmap = heatmap;
  return out;
}
