/**
 * Simulations for the case-study benches (predictor, treelets, zatel; issue 23 item 6), cached
 * like the WKND runs of the docs generator: each result is kept as JSON under
 * .bench/case-studies/ (ignored by git), keyed by the commit of the simulator (the last commit
 * that changed src/ or workloads/, `-dirty-<hash>` when the working tree's differ: editing a bench
 * script or a doc keeps the cache, any model change reruns everything), a hash of the workload
 * manifest's text (and its scene OBJ's), the config file's text, the overrides and the run size.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulateWorkload } from '../../src/driver/simulate-workload.js';
import { threadCpuSeconds } from '../../src/platform/thread-cpu.js';
import type { TimingStats as Stats } from '../../src/sim/timing/index.js';
import { configFile } from '../microbench/config-values.js';
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../jobs/wknd-runs.js';

const SIMULATOR = ['src', 'workloads', ':(exclude)src/sim/config/presets/ignored-effects.json'];

/** The last commit that changed the simulator (src/, workloads/), `-dirty-<hash>` when the working tree's differ. */
export function simulatorCommitKey(): string {
  const git = (...a: string[]): string => execFileSync('git', a, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
  const head = git('log', '-1', '--format=%H', 'HEAD', '--', ...SIMULATOR).slice(0, 12) || git('rev-parse', '--short=12', 'HEAD');
  const diff = git('diff', 'HEAD', '--', ...SIMULATOR);
  const untracked = git('ls-files', '--others', '--exclude-standard', '--', ...SIMULATOR);
  if (diff === '' && untracked === '') return head;
  return `${head}-dirty-${createHash('sha256').update(diff).update(untracked).digest('hex').slice(0, 8)}`;
}

export interface CaseRun {
  workload: string;
  config: string;
  overrides: string[];
  width: number;
  height: number;
  spp?: number;
  bounces?: number;
}

export interface CaseResult {
  run: CaseRun;
  commit: string;
  values: Record<string, number>;
  /** Figures a bench derives from the distributions (not in `values`), computed when it ran. */
  derived: Record<string, number | number[]>;
  params: { width: number; height: number; spp: number; bounces?: number };
  wallSeconds: number;
  cpuSeconds: number;
  /** sha256 of the output image's bytes (level 0), to check that a timing knob changed no result. */
  imageHash?: string;
  /** True when read from the cache (its wall / CPU are those of the run that made it). */
  cached?: boolean;
}

const commit = simulatorCommitKey();

function manifestText(workload: string): string {
  if (existsSync(workload)) {
    const text = readFileSync(workload, 'utf8');
    const obj = (JSON.parse(text) as { scene?: { obj?: string } }).scene?.obj;
    return obj && existsSync(obj) ? text + readFileSync(obj, 'utf8') : text;
  }
  const builtin = join(repoRoot, 'workloads', workload, 'workload.json');
  return existsSync(builtin) ? readFileSync(builtin, 'utf8') : workload;
}

export function caseKey(r: CaseRun): string {
  const file = configFile(r.config);
  const cfg = existsSync(file) ? readFileSync(file, 'utf8') : r.config;
  return createHash('sha256')
    .update(JSON.stringify({ ...r, workload: r.workload.replace(/^.*\//, '') }))
    .update('\0').update(manifestText(r.workload)).update('\0').update(cfg)
    .digest('hex').slice(0, 20);
}

/**
 * The run's stats, from the cache or by simulating now (in this process). `derive` computes
 * extra figures from the full Stats (distributions) when the run is simulated.
 */
export async function caseRun(r: CaseRun, derive?: (s: Stats) => Record<string, number | number[]>): Promise<CaseResult> {
  const dir = join(repoRoot, '.bench', 'case-studies', commit);
  const file = join(dir, `${caseKey(r)}.json`);
  const failedFile = join(dir, `${caseKey(r)}.failed.txt`);
  if (existsSync(file)) return { ...(JSON.parse(readFileSync(file, 'utf8')) as CaseResult), cached: true };
  // A run that failed at this commit fails again without being rerun (a deadlock costs a window).
  if (existsSync(failedFile)) throw new Error(readFileSync(failedFile, 'utf8'));
  const c0 = threadCpuSeconds();
  const t0 = performance.now();
  let sim;
  try {
    sim = await simulateWorkload(r.workload, {
      config: r.config, overrides: r.overrides, width: r.width, height: r.height,
      ...(r.spp !== undefined ? { spp: r.spp } : {}), ...(r.bounces !== undefined ? { bounces: r.bounces } : {}),
    });
  } catch (e) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(failedFile, (e as Error).message.split('\n')[0]!);
    throw e;
  }
  const values: Record<string, number> = {};
  for (const [k, v] of Object.entries(sim.stats.values)) if (typeof v === 'number') values[k] = v;
  const p = sim.prepared.params as { width: number; height: number; spp: number; bounces?: number };
  const out: CaseResult = {
    run: r, commit, values, derived: derive ? derive(sim.stats) : {},
    params: { width: p.width, height: p.height, spp: p.spp, ...(p.bounces !== undefined ? { bounces: p.bounces } : {}) },
    wallSeconds: (performance.now() - t0) / 1000, cpuSeconds: threadCpuSeconds() - c0,
  };
  const image = sim.prepared.host.output?.levels[0]?.data;
  if (image) out.imageHash = createHash('sha256').update(new Uint8Array(image.buffer, image.byteOffset, image.byteLength)).digest('hex').slice(0, 16);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(out)}\n`);
  return out;
}

export { commit as caseCommit };
