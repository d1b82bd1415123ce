/**
 * Seeded mutation fuzzing of the GLSL front end (issue 14): every workload shader and the
 * LumiBench shaders of ../shared/calibration, mutated by line and token edits, nesting and random
 * bytes, compiled in-process. A case fails when the compiler reports an internal error or an
 * error diagnostic without a file:line:col. Deterministic for a seed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileGlsl } from '../src/frontend/glsl/compile.js';
import { seededRandom } from '../src/sim/seeded-random.js';
import { builtinWorkloadsDir, calibrationDir } from '../src/sim/workload/load-manifest.js';

export interface FuzzSource {
  path: string;
  text: string;
  /** As the workload's manifest gives them. */
  includeDirs: string[];
}

export type FuzzOutcome = 'accepted' | 'located' | 'internal' | 'unlocated';

export interface FuzzCase {
  source: string;
  mutation: string;
  outcome: FuzzOutcome;
  message?: string;
  ms: number;
}

const SHADER = /\.(rgen|rchit|rmiss|rahit|rint|rcall|comp)$/;

/** Every shader of the built-in workloads and of the calibration folder, if it is there. */
export function fuzzSources(): FuzzSource[] {
  const out: FuzzSource[] = [];
  const walk = (dir: string, includeDirs: string[]): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'invalid') walk(p, includeDirs);
      } else if (SHADER.test(e.name)) out.push({ path: p, text: readFileSync(p, 'utf8'), includeDirs });
    }
  };
  walk(builtinWorkloadsDir(), [join(builtinWorkloadsDir(), 'common')]);
  walk(join(calibrationDir(), 'lumibench-wknd', 'shaders'), []);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const TOKEN = /[A-Za-z_]\w*|\d+(\.\d*)?([eE][+-]?\d+)?[uUfF]?|&&|\|\||[<>=!]=|\+\+|--|<<|>>|\S/g;

/** One seeded edit of `text`; returns the new text and what was done. */
export function mutate(text: string, rand: () => number): { text: string; mutation: string } {
  const pick = (n: number): number => Math.floor(rand() * n);
  const lines = text.split('\n');
  const kind = pick(8);
  const i = pick(lines.length);
  const j = pick(lines.length);
  switch (kind) {
    case 0:
      lines.splice(i, 1);
      return { text: lines.join('\n'), mutation: `delete line ${i + 1}` };
    case 1:
      lines.splice(i, 0, lines[i]!);
      return { text: lines.join('\n'), mutation: `duplicate line ${i + 1}` };
    case 2:
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return { text: lines.join('\n'), mutation: `swap lines ${i + 1} and ${j + 1}` };
    case 3: {
      const a = Math.min(i, j);
      const b = Math.max(i, j);
      const depth = 1 + pick(40);
      lines.splice(b + 1, 0, '}'.repeat(depth));
      lines.splice(a, 0, 'if (true) {'.repeat(depth));
      return { text: lines.join('\n'), mutation: `nest lines ${a + 1}-${b + 1} in ${depth} ifs` };
    }
    case 4: {
      const bytes = Array.from({ length: 1 + pick(16) }, () => String.fromCharCode(pick(256))).join('');
      const at = pick(text.length + 1);
      return { text: text.slice(0, at) + bytes + text.slice(at), mutation: `insert ${bytes.length} random bytes at ${at}` };
    }
    default: {
      const tokens = [...text.matchAll(TOKEN)];
      if (tokens.length < 2) return { text, mutation: 'none' };
      const x = tokens[pick(tokens.length)]!;
      const y = tokens[pick(tokens.length)]!;
      const xs = x.index!;
      const xe = xs + x[0].length;
      if (kind === 5) return { text: text.slice(0, xs) + text.slice(xe), mutation: `delete token '${x[0]}' at ${xs}` };
      if (kind === 6) return { text: text.slice(0, xe) + x[0] + text.slice(xe), mutation: `duplicate token '${x[0]}' at ${xs}` };
      const ys = y.index!;
      if (ys === xs) return { text, mutation: 'none' };
      const [f, s] = xs < ys ? [x, y] : [y, x];
      const fs = f.index!;
      const ss = s.index!;
      return {
        text: text.slice(0, fs) + s[0] + text.slice(fs + f[0].length, ss) + f[0] + text.slice(ss + s[0].length),
        mutation: `swap tokens '${f[0]}' and '${s[0]}'`,
      };
    }
  }
}

/** Compiles one mutated case and classifies the result. */
export function runCase(src: FuzzSource, text: string, mutation: string): FuzzCase {
  const t0 = performance.now();
  let outcome: FuzzOutcome = 'accepted';
  let message: string | undefined;
  try {
    const r = compileGlsl(src.path, text, { includeDirs: src.includeDirs });
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    const internal = errors.find((d) => /internal/i.test(d.message));
    const unlocated = errors.find((d) => !d.file || !(d.line >= 1) || !(d.column >= 1));
    if (internal) {
      outcome = 'internal';
      message = `${internal.file}:${internal.line}:${internal.column}: ${internal.message}`;
    } else if (unlocated) {
      outcome = 'unlocated';
      message = `${unlocated.file}:${unlocated.line}:${unlocated.column}: ${unlocated.message}`;
    } else if (errors.length > 0) outcome = 'located';
  } catch (e) {
    outcome = 'internal';
    message = `threw: ${(e as Error).message}`;
  }
  return { source: src.path, mutation, outcome, ...(message ? { message } : {}), ms: performance.now() - t0 };
}

/** `count` seeded cases over the sources, round robin, 1-3 edits each. */
export function* fuzzCases(sources: FuzzSource[], count: number, seed: number): Generator<FuzzCase> {
  const rand = seededRandom(seed);
  for (let k = 0; k < count; k++) {
    const src = sources[k % sources.length]!;
    let text = src.text;
    const edits: string[] = [];
    const n = 1 + Math.floor(rand() * 3);
    for (let e = 0; e < n; e++) {
      const m = mutate(text, rand);
      text = m.text;
      edits.push(m.mutation);
    }
    yield runCase(src, text, edits.join('; '));
  }
}
