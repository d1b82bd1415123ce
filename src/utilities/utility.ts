/**
 * An instrumentation utility (V-Vision Sec. III ⑤): where to probe and what each entry records
 * (`place`, on the ProbeContext of src/passes/instrument/probe-context.ts), and how the dump
 * becomes results (`analyse`: dump + metadata in, rows + chart specs + images out). The built-in
 * five (src/utilities/builtin.ts) and user utilities (`vvision instrument --utility file.ts`)
 * have exactly this shape and run through the same driver, dump format and report.
 *
 * A utility's `analyse` reads only its input (the dump, the metadata written beside it, the
 * launch size): a saved run directory can be re-analysed without simulating again.
 */
import type { Dump, VVisionResults, WorkHeatmap } from '../analytics/index.js';
import type { Placement, ProbeContext } from '../passes/instrument/probe-context.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { ReportSection } from '../report/utility-page.js';

export interface UtilityInput {
  /** The instrumentation buffer dump of the run (src/analytics/dump-reader.ts). */
  dump: Dump;
  /** Its static metadata: shaders, CFGs and one site per probe. */
  metadata: InstrumentationMetadata;
  /** The launch grid; thread-work id = x + width * (y + height * z). */
  launch: { width: number; height: number };
  /** The workload's name. */
  workload: string;
}

/**
 * What an analysis produces: report material (summary, tables, charts, images), JSON-able
 * `data` saved as `runs/<utility>/analysis.json`, and for the built-ins their typed results.
 */
export interface UtilityAnalysis extends ReportSection {
  data?: unknown;
  /** Built-in utilities: their fields of the run's VVisionResults (data files, dedicated pages). */
  results?: Partial<VVisionResults>;
  /** Built-in `trace`: the per-pixel work heatmap. */
  heatmap?: WorkHeatmap;
}

export interface Utility extends Placement {
  /** kebab-case name: `runs/<name>/`, the report page, the metadata's `modes` entry. */
  readonly name: string;
  /** One line: what the utility measures. */
  readonly description: string;
  /** Places the probes in one stage module (called once per module of the pipeline). */
  place(ctx: ProbeContext): void;
  /** Turns the dump into results. */
  analyse(input: UtilityInput): UtilityAnalysis;
}

/** Identity function that gives a utility object literal its type (and editor help). */
export function defineUtility(u: Utility): Utility {
  return u;
}
