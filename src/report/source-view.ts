/**
 * The annotated-source view of one file of one shader (V-Vision Fig. 7, as a page): every source
 * line with its block-entry execution count and active-lane histogram from the `simt` dump, the
 * thread-level executions of the instructions on that line (from the hotspots analysis), and a heat
 * colour proportional to those executions relative to the hottest line of the run.
 *
 * Invariant: a line receives only data of instructions located in the file shown (a shader's own
 * file, or an #included file with its own line numbers), never of another file's same-numbered line.
 */
import { annotatedFiles, formatHistogram, simtLineData, type VVisionResults } from '../analytics/index.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';

export interface SourceLineView {
  number: number;
  text: string;
  /** CSS background, '' for lines without executed code. */
  heat: string;
  executions?: number;
  histogram?: string;
  threadExecutions?: number;
  /** Active lanes / (32 * executions) of the block entries on this line, in percent. */
  simt?: string;
  /** Hover text. */
  title: string;
}

export interface SourceView {
  /** Unique page name: the shader name, or `<shader>+<included file>`. */
  name: string;
  /** The shader whose execution the data describes. */
  shader: string;
  stage: string;
  path: string;
  /** An #included file: the data is that of `shader` only. */
  included: boolean;
  lines: SourceLineView[];
  hottestLine?: number;
  /** Thread-level instruction executions in this file. */
  threadExecutions: number;
  /** The Fig. 7 text form, for copy / download. */
  annotatedText: string;
}

export function sourceViews(results: VVisionResults, meta: InstrumentationMetadata, annotated: Record<string, string>): SourceView[] {
  const perLineThreads = new Map<string, number>();
  let hottest = 0;
  const key = (shader: number, file: string, line: number) => `${shader}\u0000${file}\u0000${line}`;
  for (const h of results.hotspots?.rows ?? []) {
    const k = key(h.shader, h.file, h.line);
    const v = (perLineThreads.get(k) ?? 0) + h.threadCount;
    perLineThreads.set(k, v);
    if (v > hottest) hottest = v;
  }
  return annotatedFiles(results.simt, meta).map((file) => {
    const shader = meta.shaders[file.shader]!;
    const lineData = results.simt ? simtLineData(results.simt, meta, file.shader, file.path) : new Map();
    let hottestLine: number | undefined;
    let hottestHere = 0;
    let total = 0;
    const lines = file.text.split('\n').map((text, k): SourceLineView => {
      const number = k + 1;
      const d = lineData.get(number);
      const threads = perLineThreads.get(key(file.shader, file.path, number));
      const view: SourceLineView = { number, text, heat: '', title: '' };
      const notes: string[] = [];
      if (d) {
        view.executions = d.executionCount;
        view.histogram = formatHistogram(d.histogram!);
        let active = 0;
        for (let n = 0; n < d.histogram!.length; n++) active += n * (d.histogram![n] ?? 0);
        view.simt = d.executionCount === 0 ? '0' : ((100 * active) / (meta.warpSize * d.executionCount)).toFixed(1);
        notes.push(`warp block entries: ${d.executionCount}`, `active lanes histogram: ${view.histogram}`, `SIMT efficiency: ${view.simt}%`);
      }
      if (threads !== undefined) {
        view.threadExecutions = threads;
        total += threads;
        const t = hottest === 0 ? 0 : threads / hottest;
        view.heat = `rgba(224, 80, 40, ${(0.08 + 0.62 * t).toFixed(3)})`;
        notes.push(`thread-level instruction executions: ${threads} (${(100 * t).toFixed(1)}% of the hottest line)`);
        if (threads > hottestHere) {
          hottestHere = threads;
          hottestLine = number;
        }
      }
      view.title = notes.join('\n');
      return view;
    });
    const view: SourceView = {
      name: file.name, shader: shader.name, stage: shader.stage, path: file.path, included: file.included, lines,
      threadExecutions: total, annotatedText: annotated[file.name] ?? file.text,
    };
    if (hottestLine !== undefined) view.hottestLine = hottestLine;
    return view;
  });
}
