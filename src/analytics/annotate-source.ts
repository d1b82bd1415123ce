/**
 * Inline data representation (paper 003, Fig. 7): the shader source with the data of each
 * instrumentation site as a comment above the line the site belongs to, indented like that line:
 *
 *   /* execution count = 22072 histo=32:22072 *\/
 *   if(gl_LaunchIDNV.z != 0){
 *
 * `simtLineData` gathers the SIMT-efficiency sites of one shader by source line (sites on the same
 * line add up); only sites located in the shader's own source file are placed (not #includes).
 */
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { formatHistogram, type SimtEfficiency } from './simt-efficiency.js';

export interface LineAnnotation {
  executionCount: number;
  /** Active-lane histogram (index = active lanes). */
  histogram?: ArrayLike<number>;
  /** Extra text appended inside the comment. */
  note?: string;
}

export function annotationComment(a: LineAnnotation): string {
  let text = `execution count = ${a.executionCount}`;
  // A site that never ran has no histogram to show (Fig. 7 prints one only for executed code).
  const histo = a.histogram ? formatHistogram(a.histogram) : '';
  if (histo !== '') text += ` histo=${histo}`;
  if (a.note) text += ` ${a.note}`;
  return `/* ${text} */`;
}

/** `lineData` is keyed by 1-based line number; lines past the end of the text are ignored. */
export function annotateSource(sourceText: string, lineData: ReadonlyMap<number, LineAnnotation>): string {
  const lines = sourceText.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const a = lineData.get(i + 1);
    if (a) out.push(`${/^\s*/.exec(line)![0]}${annotationComment(a)}`);
    out.push(line);
  });
  return out.join('\n');
}

export function simtLineData(simt: SimtEfficiency, meta: InstrumentationMetadata, shader: number): Map<number, LineAnnotation> {
  const path = meta.shaders[shader]?.sourcePath;
  const out = new Map<number, { executionCount: number; histogram: number[] }>();
  for (const s of simt.perSite) {
    const site = meta.sites[s.site]!;
    if (site.shader !== shader || site.loc.line <= 0 || (site.loc.file !== '' && site.loc.file !== path)) continue;
    let a = out.get(site.loc.line);
    if (!a) out.set(site.loc.line, (a = { executionCount: 0, histogram: new Array<number>(s.histogram.length).fill(0) }));
    a.executionCount += s.executions;
    s.histogram.forEach((c, k) => (a!.histogram[k] = (a!.histogram[k] ?? 0) + c));
  }
  return out;
}
