/**
 * The front-end fuzzer's cases and verdicts: every workload shader and every LumiBench WKND
 * calibration shader (`../shared/calibration/lumibench-wknd/shaders`, when present) is mutated
 * with a seeded edit list (mutate.ts) and compiled in-process at its own path (so #include still
 * resolves). A case is `accepted` (compiles), `located` (rejected with every diagnostic at
 * file:line:col), or a failure: `internal` (an internal error, a thrown exception) or
 * `unlocated` (a diagnostic without a file, line or column).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { compileGlsl } from '../src/frontend/glsl/compile.js';
import { STAGE_BY_EXTENSION } from '../src/ir/module.js';
import { calibrationDir } from '../src/sim/workload/load-manifest.js';
import { mutate, type MutationKind } from './mutate.js';

export const ROOT = join(import.meta.dirname, '..');
/** The LumiBench shaders of the calibration data (../shared/calibration or VVISION_CALIBRATION_DIR). */
export const CALIBRATION_SHADERS = join(calibrationDir(), 'lumibench-wknd', 'shaders');

export interface SeedShader {
  path: string;
  text: string;
  /** From the workload manifest beside it, as the driver compiles it. */
  includeDirs: string[];
  defines: Record<string, string>;
}

function shaderFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...shaderFiles(p));
    else if (STAGE_BY_EXTENSION[name.split('.').pop() ?? ''] !== undefined) out.push(p);
  }
  return out;
}

/** Include directories and defines of the workload manifest in `dir`, if there is one. */
function manifestOptions(dir: string): Pick<SeedShader, 'includeDirs' | 'defines'> {
  const manifest = join(dir, 'workload.json');
  if (!existsSync(manifest)) return { includeDirs: [], defines: {} };
  const m = JSON.parse(readFileSync(manifest, 'utf8')) as { includeDirs?: string[]; defines?: Record<string, string | number> };
  const defines: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.defines ?? {})) defines[k] = String(v);
  return { includeDirs: (m.includeDirs ?? []).map((d) => join(dir, d)), defines };
}

/** The shaders mutated: workloads/ and, when shared/ is beside the project, the calibration shaders. */
export function seedShaders(): SeedShader[] {
  const paths = shaderFiles(join(ROOT, 'workloads'));
  if (existsSync(CALIBRATION_SHADERS)) paths.push(...shaderFiles(CALIBRATION_SHADERS));
  return paths.map((path) => ({ path, text: readFileSync(path, 'utf8'), ...manifestOptions(dirname(path)) }));
}

export type Verdict = 'accepted' | 'located' | 'internal' | 'unlocated';

export interface CaseResult {
  seed: number;
  shader: string;
  edits: MutationKind[];
  verdict: Verdict;
  ms: number;
  /** The offending diagnostic or exception, for failures. */
  detail?: string;
  text: string;
}

/** Case `seed`: which shader and which edits both follow from the seed. */
export function runCase(shaders: readonly SeedShader[], seed: number): CaseResult {
  const shader = shaders[seed % shaders.length]!;
  const m = mutate(shader.text, seed);
  const base = { seed, shader: relative(ROOT, shader.path), edits: m.edits, text: m.text };
  const t0 = performance.now();
  let diagnostics;
  try {
    diagnostics = compileGlsl(shader.path, m.text, { includeDirs: shader.includeDirs, defines: shader.defines }).diagnostics;
  } catch (e) {
    return { ...base, verdict: 'internal', ms: performance.now() - t0, detail: `threw: ${e instanceof Error ? e.stack : String(e)}` };
  }
  const ms = performance.now() - t0;
  const internal = diagnostics.find((d) => /internal/i.test(d.message));
  if (internal) return { ...base, verdict: 'internal', ms, detail: `${internal.file}:${internal.line}:${internal.column}: ${internal.message}` };
  const unlocated = diagnostics.find((d) => !d.file || !(d.line >= 1) || !(d.column >= 1));
  if (unlocated) return { ...base, verdict: 'unlocated', ms, detail: `${unlocated.file}:${unlocated.line}:${unlocated.column}: ${unlocated.message}` };
  return { ...base, verdict: diagnostics.some((d) => d.severity === 'error') ? 'located' : 'accepted', ms };
}
