/**
 * WKND frame runs for the generated figures (sensitivity study, docs): each run in its own
 * process (`node --import tsx bench/jobs/wknd-runs.ts --run <json>`), up to `workers` at a time,
 * its stats cached as JSON in a job directory (default .bench/jobs, ignored by git) keyed by the
 * commit it ran at, a hash of the effective config (the config file's text and the overrides) and
 * the frame size, so an interrupted study resumes and a rerun at the same commit costs nothing.
 *
 * The commit key is the last commit that changed the code (src/, bench/, workloads/; not the
 * generated src/sim/config/presets/ignored-effects.json, which no run reads), with
 * `-dirty-<hash of the diff>` when the working tree's code differs from it, so a result never
 * outlives the code that produced it and committing generated docs does not invalidate the cache.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFile } from '../microbench/config-values.js';

export interface WkndRun {
  config: string;
  overrides: string[];
  width: number;
  height: number;
  spp: number;
}

export interface WkndResult {
  run: WkndRun;
  commit: string;
  values: Record<string, number>;
  wallSeconds: number;
}

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');

const CODE = ['src', 'bench', 'workloads', ':(exclude)src/sim/config/presets/ignored-effects.json'];

/** The last commit that changed the code, `-dirty-<hash>` when the working tree's code differs from it. */
export function commitKey(): string {
  const git = (...a: string[]): string => execFileSync('git', a, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
  const head = git('log', '-1', '--format=%H', 'HEAD', '--', ...CODE).slice(0, 12) || git('rev-parse', '--short=12', 'HEAD');
  const diff = git('diff', 'HEAD', '--', ...CODE);
  const untracked = git('ls-files', '--others', '--exclude-standard', '--', ...CODE);
  if (diff === '' && untracked === '') return head;
  return `${head}-dirty-${createHash('sha256').update(diff).update(untracked).digest('hex').slice(0, 8)}`;
}

export function runKey(r: WkndRun): string {
  const file = configFile(r.config);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : r.config;
  const h = createHash('sha256').update(text).update('\0').update(r.overrides.join('\n')).digest('hex').slice(0, 16);
  return `${h}-${r.width}x${r.height}-${r.spp}spp`;
}

/**
 * Runs (or takes from the cache) every run, `workers` processes at a time; results in input order.
 * `log` hears one line per run as it completes.
 */
export async function runWknd(runs: readonly WkndRun[], opts: { workers: number; jobDir?: string; log?: (s: string) => void }): Promise<WkndResult[]> {
  const commit = commitKey();
  const dir = join(opts.jobDir ?? join(repoRoot, '.bench', 'jobs'), commit);
  mkdirSync(dir, { recursive: true });
  const out: WkndResult[] = new Array(runs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runs.length) {
      const i = next++;
      const r = runs[i]!;
      const file = join(dir, `${runKey(r)}.json`);
      if (existsSync(file)) {
        out[i] = JSON.parse(readFileSync(file, 'utf8')) as WkndResult;
        opts.log?.(`cached  ${describe(r)}: ${out[i].values.gpu_sim_cycle} cycles`);
        continue;
      }
      const t0 = performance.now();
      const values = await runInChild(r);
      const res: WkndResult = { run: r, commit, values, wallSeconds: (performance.now() - t0) / 1000 };
      writeFileSync(`${file}.tmp`, JSON.stringify(res));
      renameSync(`${file}.tmp`, file);
      out[i] = res;
      opts.log?.(`ran     ${describe(r)}: ${values.gpu_sim_cycle} cycles (${res.wallSeconds.toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.workers) }, worker));
  return out;
}

export function describe(r: WkndRun): string {
  return `${r.width}x${r.height} ${r.spp} spp${r.overrides.length ? ` --set ${r.overrides.join(' --set ')}` : ''}`;
}

function runInChild(r: WkndRun): Promise<Record<string, number>> {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--run', JSON.stringify(r)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => {
      if (code !== 0) fail(new Error(`WKND run ${describe(r)} failed (exit ${code}):\n${stderr.slice(-2000)}`));
      else ok(JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>);
    });
  });
}

// The child entry only when this file is the script (the case-study and completion benches import
// it for repoRoot and have their own `--run`).
if (process.argv[2] === '--run' && process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = JSON.parse(process.argv[3]!) as WkndRun;
  const { simulateWorkload } = await import('../../src/driver/simulate-workload.js');
  const s = await simulateWorkload('lumibench-wknd', { config: r.config, overrides: r.overrides, width: r.width, height: r.height, spp: r.spp });
  process.stdout.write(`${JSON.stringify(s.stats.values)}\n`);
}
