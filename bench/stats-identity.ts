/**
 * Issue 25.2's guard for speed work on the timing model, and issue 23.5's for the RT-unit refactor:
 * the simulated statistics stay bit-identical. Runs `sim pt --config rtx2060 --width 32 --height
 * 32`, `sim ao`, `sim cornell --width 32 --height 32` and the LumiBench WKND 32x32 1 spp frame on
 * Vulkan-Sim's SM75_RTX2060 file (when ../shared/calibration is present); the RT unit's policies:
 * `sim ao --predictor` (with repacking, the paper's Table 3 default; without it; with four extra
 * warps), ray virtualization alone and `--treelets` (with and without repacking) on `pt --config
 * treelet`, `--treelets` on a 16x16 WKND frame, and the predictor's lookup in front of the treelet
 * queues on a 16x16 `ao` frame (a configuration only since the one RT unit). Each case runs in its
 * own process; every statistic is compared at full precision (stats.json's values, not stats.txt's 4 digits) except
 * the wall-clock ones, and the image bytes.
 *
 *   npx tsx bench/stats-identity.ts --record DIR   # before a change: write DIR/<case>.json
 *   npx tsx bench/stats-identity.ts --check DIR    # after it: rerun, list every difference, exit 1 if any
 *   npx tsx bench/stats-identity.ts                # (npm run bench) run them: cycles, wall, CPU
 *   ... --only NAME[,NAME...]                      # any of the above on some cases (a prefix selects all it starts)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simulateWorkload, type SimulateOptions } from '../src/driver/simulate-workload.js';
import { calibrationDir } from '../src/sim/workload/load-manifest.js';
import { wallCpuNote } from './machine-load.js';

/** Statistics of the wall clock: the only ones a speed change may move. */
const WALL_CLOCK = new Set(['gpu_total_sim_rate', 'gpu_sim_cycle_rate', 'gpu_warp_insn_rate', 'gpu_sim_wall_seconds']);

const wknd = join(calibrationDir(), 'lumibench-wknd', 'vulkan-sim', 'SM75_RTX2060.gpgpusim.config');
/** `sim --predictor` and `sim --treelets` (src/cli/commands/sim.ts). */
const PREDICTOR = ['gpgpu_rt_predictor=1'];
const TREELETS = ['rt_ray_virtualization=1', 'rt_treelet_queues=1'];
const CASES: Record<string, [string, SimulateOptions]> = {
  'pt-rtx2060-32x32': ['pt', { config: 'rtx2060', width: 32, height: 32 }],
  'ao-mobile': ['ao', { config: 'mobile' }],
  'cornell-mobile-32x32': ['cornell', { config: 'mobile', width: 32, height: 32 }],
  ...(existsSync(wknd) ? { 'wknd-sm75-32x32-1spp': ['lumibench-wknd', { config: wknd, width: 32, height: 32, spp: 1 }] as [string, SimulateOptions] } : {}),
  'ao-mobile-predictor': ['ao', { config: 'mobile', overrides: PREDICTOR }],
  'ao-mobile-predictor-norepack': ['ao', { config: 'mobile', overrides: [...PREDICTOR, 'gpgpu_rt_predictor_repack=0'] }],
  'ao-mobile-predictor-repack4': ['ao', { config: 'mobile', overrides: [...PREDICTOR, 'gpgpu_rt_predictor_extra_warps=4'] }],
  'pt-treelet-virtualization-32x32': ['pt', { config: 'treelet', width: 32, height: 32, overrides: ['rt_ray_virtualization=1'] }],
  'pt-treelet-treelets-32x32': ['pt', { config: 'treelet', width: 32, height: 32, overrides: TREELETS }],
  'pt-treelet-treelets-norepack-32x32': ['pt', { config: 'treelet', width: 32, height: 32, overrides: [...TREELETS, 'rt_treelet_repack_threshold=0'] }],
  'ao-treelet-treelets-predictor-16x16': ['ao', { config: 'treelet', width: 16, height: 16, overrides: [...TREELETS, ...PREDICTOR, 'gpgpu_rt_predictor_repack=0'] }],
  ...(existsSync(wknd) ? { 'wknd-treelet-treelets-16x16-1spp': ['lumibench-wknd', { config: 'treelet', width: 16, height: 16, spp: 1, overrides: TREELETS }] as [string, SimulateOptions] } : {}),
};

interface Fingerprint {
  values: Record<string, unknown>;
  image: string | null;
}

interface CaseRun {
  fingerprint: Fingerprint;
  wallSeconds: number;
  cpuSeconds: number;
}

const args = process.argv.slice(2);
if (args[0] === '--case') {
  // One case in this process: its fingerprint and cost as JSON on stdout.
  const [workload, opts] = CASES[args[1]!]!;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await simulateWorkload(workload, opts);
  const wallSeconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const values = Object.fromEntries(Object.entries(r.stats.values).filter(([k]) => !WALL_CLOCK.has(k)));
  const image = r.prepared.host.output;
  const run: CaseRun = {
    fingerprint: { values, image: image ? createHash('sha256').update(image.levels[0]!.data).digest('hex') : null },
    wallSeconds, cpuSeconds: (c.user + c.system) / 1e6,
  };
  process.stdout.write(`${JSON.stringify(run)}\n`);
  process.exit(0);
}

function runCase(name: string): CaseRun {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--case', name], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${name} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as CaseRun;
}

/** Every difference between two fingerprints, one line each. */
function differences(a: Fingerprint, b: Fingerprint): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a.values), ...Object.keys(b.values)])) {
    const x = JSON.stringify(a.values[k]);
    const y = JSON.stringify(b.values[k]);
    if (x !== y) out.push(`${k}: ${x} -> ${y}`);
  }
  if (a.image !== b.image) out.push(`image: ${a.image} -> ${b.image}`);
  return out;
}

const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1]!.split(',') : null;
const [mode, dir] = args;
let failed = 0;
if (mode === '--record' || mode === '--check') {
  if (dir === undefined) throw new Error(`${mode} needs a directory`);
  mkdirSync(dir, { recursive: true });
}
for (const name of Object.keys(CASES)) {
  if (only !== null && !only.some((o) => name.startsWith(o))) continue;
  const r = runCase(name);
  const cycles = r.fingerprint.values.gpu_sim_cycle;
  const cost = wallCpuNote(r.wallSeconds, r.cpuSeconds, 1);
  if (mode === '--record') {
    writeFileSync(join(dir!, `${name}.json`), `${JSON.stringify(r.fingerprint, null, 1)}\n`);
    console.log(`${name.padEnd(34)} recorded: ${cycles} cycles (${cost})`);
  } else if (mode === '--check') {
    const before = JSON.parse(readFileSync(join(dir!, `${name}.json`), 'utf8')) as Fingerprint;
    const diff = differences(before, r.fingerprint);
    if (diff.length > 0) failed++;
    console.log(`${name.padEnd(34)} ${diff.length === 0 ? 'identical' : `${diff.length} DIFFERENCES`}: ${cycles} cycles (${cost})`);
    for (const d of diff.slice(0, 20)) console.log(`    ${d}`);
  } else {
    console.log(`${name.padEnd(34)} ${cycles} cycles (${cost})`);
  }
}
if (!existsSync(wknd)) console.log(`(LumiBench WKND skipped: ${wknd} not found)`);
process.exit(failed > 0 ? 1 : 0);
