/**
 * Inline data representation (paper 003, Fig. 7): the shader source with the data of each
 * instrumentation site as a comment above the line the site belongs to, indented like that line:
 *
 *   /* execution count = 22072 histo=32:22072 *\/
 *   if(gl_LaunchIDNV.z != 0){
 *
 * `simtLineData` gathers the SIMT-efficiency sites of one shader by source line (sites on the same
 * line add up), for one file: the shader's own source or one of its #included files.
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

/**
 * `file` is the path of the file whose lines are wanted: the shader's own file by default, or one
 * of its #included files (`ShaderMetadata.files`). A site belongs to the file of its location, so
 * lines of one file never receive data of another file's line with the same number.
 */
export function simtLineData(simt: SimtEfficiency, meta: InstrumentationMetadata, shader: number, file?: string): Map<number, LineAnnotation> {
  const own = meta.shaders[shader]?.sourcePath ?? '';
  const path = file ?? own;
  const out = new Map<number, { executionCount: number; histogram: number[] }>();
  for (const s of simt.perSite) {
    const site = meta.sites[s.site]!;
    // '' = location file unknown: taken to be the shader's own file.
    const siteFile = site.loc.file === '' ? own : site.loc.file;
    if (site.shader !== shader || site.loc.line <= 0 || siteFile !== path) continue;
    let a = out.get(site.loc.line);
    if (!a) out.set(site.loc.line, (a = { executionCount: 0, histogram: new Array<number>(s.histogram.length).fill(0) }));
    a.executionCount += s.executions;
    s.histogram.forEach((c, k) => (a!.histogram[k] = (a!.histogram[k] ?? 0) + c));
  }
  return out;
}

/** One file to show annotated: a shader's own source, or an #included file holding code it ran. */
export interface AnnotatedFile {
  /** Unique in the run: the shader name, or `<shader>+<included file name>`. */
  name: string;
  shader: number;
  path: string;
  text: string;
  /** True for an #included file (data of this shader only; the file may serve other shaders too). */
  included: boolean;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/**
 * Every shader's own file, each followed by the #included files in which that shader executed
 * code (an include whose code never ran, e.g. declarations only, has nothing to show).
 */
export function annotatedFiles(simt: SimtEfficiency | undefined, meta: InstrumentationMetadata): AnnotatedFile[] {
  const out: AnnotatedFile[] = [];
  for (const sh of meta.shaders) {
    out.push({ name: sh.name, shader: sh.index, path: sh.sourcePath, text: sh.sourceText, included: false });
    (sh.files ?? []).forEach((f, k) => {
      if (k === 0 || !simt) return;
      const data = simtLineData(simt, meta, sh.index, f.path);
      if (![...data.values()].some((a) => a.executionCount > 0)) return;
      let name = `${sh.name}+${baseName(f.path)}`;
      for (let n = 2; out.some((o) => o.name === name); n++) name = `${sh.name}+${baseName(f.path)}#${n}`;
      out.push({ name, shader: sh.index, path: f.path, text: f.text ?? '', included: true });
    });
  }
  return out;
}
