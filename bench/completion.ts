/**
 * Issue 26.6: every built-in workload and the LumiBench WKND frame, at 256x256 and 512x512 with
 * 2 spp, on each preset (baseline, mobile, treelet, rtx2060), run to completion: a timing model
 * that deadlocks (or throws) on a standard run fails here. Prints cycles, wall and CPU time per
 * run as it finishes, then which runs completed. Each run is its own process (honest wall / CPU /
 * peak RSS, and one run's heap does not slow the next).
 *
 * Hours on two cores: `npm run bench` leaves it out (bench/main.ts runs it only by name). Each
 * finished run is kept as JSON under .bench/completion/<simulator commit>/ (the case studies' key:
 * the last commit that changed src/ or workloads/), so an interrupted sweep resumes where it
 * stopped, and `--docs` writes every case into docs/calibration.md's generated:completion block:
 * this commit's run, or the newest earlier one, each row naming its commit.
 *
 *   npm run bench -- completion                                  # everything
 *   npx tsx bench/completion.ts --workloads pt,ao --presets rtx2060 --sizes 256 [--spp 2] [--docs]
 *   ... --seed-from-doc   # first, on a fresh checkout: the doc block's rows back into the run store
 *   npx tsx bench/completion.ts --run WORKLOAD PRESET SIZE SPP   # one run, JSON on stdout (internal)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { cpuUsage, resourceUsage } from 'node:process';
import { fileURLToPath } from 'node:url';
import { simulateWorkload } from '../src/driver/simulate-workload.js';
import { calibrationDir, listBuiltinWorkloads, listCalibrationWorkloads } from '../src/sim/workload/load-manifest.js';
import { simulatorCommitKey } from './case-studies/cached-runs.js';
import { writeDocBlocks } from './case-studies/doc-blocks.js';
import { generatedBlockBody } from './docs/generated-blocks.js';
import { repoRoot } from './jobs/wknd-runs.js';

interface RunResult {
  cycles?: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  /** The first line of the error, when the run did not complete. */
  error?: string;
  /** 1-minute load average when the run ended (shared machines: wall time alone misleads). */
  load?: number;
}

interface StoredRun extends RunResult {
  workload: string;
  preset: string;
  size: number;
  spp: number;
}

const args = process.argv.slice(2);
if (args[0] === '--run') {
  const [, workload, preset, size, spp] = args as [string, string, string, string, string, string];
  const c0 = cpuUsage();
  const t0 = performance.now();
  let out: RunResult;
  try {
    const r = await simulateWorkload(workload, { config: preset, width: Number(size), height: Number(size), spp: Number(spp) });
    out = { cycles: r.stats.values.gpu_sim_cycle!, wallSeconds: 0, cpuSeconds: 0, peakRssMb: 0 };
  } catch (e) {
    out = { error: (e instanceof Error ? e.message : String(e)).split('\n')[0]!, wallSeconds: 0, cpuSeconds: 0, peakRssMb: 0 };
  }
  const cpu = cpuUsage(c0);
  out.wallSeconds = (performance.now() - t0) / 1000;
  out.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  out.peakRssMb = resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

function option(name: string, fallback: string[]): string[] {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]!.split(',').filter((s) => s !== '') : fallback;
}

const lumibench = existsSync(join(calibrationDir(), 'lumibench-wknd')) ? ['lumibench-wknd'] : [];
const workloads = option('workloads', [...listBuiltinWorkloads().map((w) => w.name), ...lumibench]);
const presets = option('presets', ['baseline', 'mobile', 'treelet', 'rtx2060']);
const sizes = option('sizes', ['256', '512']);
const spp = option('spp', ['2'])[0]!;
// A name that is no workload is the command's mistake, not a run that failed: refuse it before
// anything runs, so no error result is kept for it.
const known = new Set([...listBuiltinWorkloads(), ...listCalibrationWorkloads()].map((w) => w.name));
const unknown = workloads.filter((w) => !known.has(w) && !existsSync(w));
if (unknown.length > 0) {
  process.stderr.write(`completion: unknown workload ${unknown.join(', ')} (known: ${[...known].join(', ')}; or a manifest path)\n`);
  process.exit(2);
}
if (lumibench.length === 0 && !args.includes('--workloads')) {
  process.stdout.write(`LumiBench WKND: skipped (${join(calibrationDir(), 'lumibench-wknd')} not found)\n`);
}

const commit = simulatorCommitKey();
const cacheDir = join(repoRoot, '.bench', 'completion', commit);
const cachePath = (workload: string, preset: string, size: string): string => join(cacheDir, `${workload}-${preset}-${size}-${spp}.json`);
if (args.includes('--seed-from-doc')) process.stdout.write(`completion: seeded ${seedFromDoc()} earlier runs from docs/calibration.md\n`);

/**
 * A fresh checkout has no run store, and `--docs` writes only stored runs: `--seed-from-doc` reads
 * the rows of docs/calibration.md's completion block (each the stored result of an earlier sweep,
 * naming its simulator commit) back into the store under their commits, as the oldest entries, so
 * a partial rerun adds to them instead of dropping them. A run already stored is left alone.
 */
function seedFromDoc(): number {
  const text = readFileSync(join(repoRoot, 'docs', 'calibration.md'), 'utf8');
  const block = generatedBlockBody(text, 'completion') ?? '';
  const num = (x: string): number => (x === '—' ? Number.NaN : Number(x.replaceAll(',', '')));
  let size = 0;
  let runsSpp = 2;
  let seeded = 0;
  for (const line of block.split('\n')) {
    const head = /^\*\*(\d+)x\d+\*\*, (\d+) spp/.exec(line);
    if (head) {
      size = Number(head[1]);
      runsSpp = Number(head[2]);
      continue;
    }
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 9 || size === 0 || !/^[0-9a-f]{12}$/.test(cells[7]!)) continue;
    const [workload, preset, cycles, wall, cpu, rss, load, at, result] = cells as [string, string, string, string, string, string, string, string, string];
    const dir = join(repoRoot, '.bench', 'completion', at);
    const path = join(dir, `${workload}-${preset}-${size}-${runsSpp}.json`);
    if (existsSync(path)) continue;
    const stored: StoredRun = {
      workload, preset, size, spp: runsSpp, wallSeconds: num(wall), cpuSeconds: num(cpu), peakRssMb: num(rss),
      ...(Number.isFinite(num(load)) ? { load: num(load) } : {}),
      ...(result === 'completed' ? { cycles: num(cycles) } : { error: result }),
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, `${JSON.stringify(stored)}\n`);
    utimesSync(path, 0, 0);
    seeded++;
  }
  return seeded;
}

function run(workload: string, preset: string, size: string): RunResult {
  const cached = cachePath(workload, preset, size);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as RunResult;
  const r = runProcess(workload, preset, size);
  r.load = loadavg()[0];
  if (!Number.isFinite(r.wallSeconds)) return r; // the child broke (not the model): nothing to keep
  mkdirSync(cacheDir, { recursive: true });
  const stored: StoredRun = { workload, preset, size: Number(size), spp: Number(spp), ...r };
  writeFileSync(cached, `${JSON.stringify(stored)}\n`);
  return r;
}

function runProcess(workload: string, preset: string, size: string): RunResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--run', workload, preset, size, spp],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last) as RunResult;
  const why = r.signal !== null ? `killed by ${r.signal}` : `exit status ${r.status}`;
  return { error: `${why}: ${r.stderr.trim().split('\n').pop() ?? ''}`, wallSeconds: NaN, cpuSeconds: NaN, peakRssMb: NaN };
}

const fmt = (x: number): string => x.toLocaleString('en-US');
const done: string[] = [];
const failed: string[] = [];
process.stdout.write(`${workloads.length} workloads x ${presets.length} presets x sizes ${sizes.join(', ')} at ${spp} spp\n`);
for (const size of sizes) {
  for (const preset of presets) {
    for (const workload of workloads) {
      const name = `${workload} ${preset} ${size}x${size}`;
      const r = run(workload, preset, size);
      const cost = `wall ${r.wallSeconds.toFixed(1)} s, CPU ${r.cpuSeconds.toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB`;
      if (r.error === undefined) {
        done.push(name);
        process.stdout.write(`  ${name.padEnd(36)} ${fmt(r.cycles!).padStart(12)} cycles  ${cost}\n`);
      } else {
        failed.push(name);
        process.stdout.write(`  ${name.padEnd(36)} FAILED (${cost}): ${r.error}\n`);
      }
    }
  }
}
process.stdout.write(`completed ${done.length} of ${done.length + failed.length} runs${failed.length ? `; failed: ${failed.join('; ')}` : ''}\n`);
if (args.includes('--docs')) process.stdout.write(`completion: wrote ${writeDoc()} at ${commit}\n`);

/**
 * A table per size of every case stored: this commit's run of it, or else the newest run of it at
 * an earlier simulator commit (a sweep takes hours, so a partial rerun adds to the last full one
 * rather than hiding it). Each row names the commit it ran at; the block's marker names this one.
 */
function writeDoc(): string {
  const root = join(repoRoot, '.bench', 'completion');
  const latest = new Map<string, StoredRun & { at: string; mtime: number }>();
  for (const dir of readdirSync(root)) {
    for (const f of readdirSync(join(root, dir)).filter((x) => x.endsWith('.json'))) {
      const path = join(root, dir, f);
      const r = { ...(JSON.parse(readFileSync(path, 'utf8')) as StoredRun), at: dir, mtime: statSync(path).mtimeMs };
      const key = `${r.workload} ${r.preset} ${r.size} ${r.spp}`;
      const had = latest.get(key);
      const mine = r.at === commit;
      if (had === undefined || (mine && had.at !== commit) || (mine === (had.at === commit) && r.mtime > had.mtime)) latest.set(key, r);
    }
  }
  const runs = [...latest.values()].sort((a, b) => a.size - b.size || a.preset.localeCompare(b.preset) || a.workload.localeCompare(b.workload));
  const lines: string[] = [];
  for (const size of [...new Set(runs.map((r) => r.size))]) {
    const at = runs.filter((r) => r.size === size);
    const ok = at.filter((r) => r.error === undefined);
    const commits = [...new Set(at.map((r) => r.at))];
    lines.push(`**${size}x${size}**, ${at[0]!.spp} spp: ${ok.length} of ${at.length} runs completed, at simulator commit${commits.length > 1 ? 's' : ''} ${commits.join(', ')}.`, '',
      '| workload | preset | cycles | wall s | CPU s | peak RSS MB | load | simulator commit | result |', '|---|---|---|---|---|---|---|---|---|');
    for (const r of at) {
      lines.push(`| ${r.workload} | ${r.preset} | ${r.cycles === undefined ? '—' : fmt(r.cycles)} | ${r.wallSeconds.toFixed(0)} | ` +
        `${r.cpuSeconds.toFixed(0)} | ${r.peakRssMb.toFixed(0)} | ${r.load?.toFixed(1) ?? '—'} | ${r.at} | ${r.error === undefined ? 'completed' : r.error.replaceAll('|', '/')} |`);
    }
    lines.push('');
  }
  return writeDocBlocks('calibration.md', 'npm run bench -- completion --docs', commit, { completion: lines.join('\n') });
}
process.exit(failed.length > 0 ? 1 : 0);
