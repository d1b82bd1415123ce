/**
 * Zatel (paper 004) against the full timing simulation: for each case, every Table I metric's
 * error and the thread instructions', how many of all predicted metrics are off by more than 10%,
 * the waves each group's downscaled GPU runs, the warnings, and the speedup three ways: wall time
 * on this machine, CPU-seconds (every worker's summed: independent of the core count) and
 * simulated SM-cycles (independent of the host), beside the paper's figures.
 *
 *   npm run bench -- zatel [--cases a,b] [--docs]
 *
 * Cases: see CASES (default: all but the 256x256 LumiBench one). Jobs live in one job store per
 * simulator commit (.bench/zatel-jobs/<commit>, see bench/case-studies/cached-runs.ts), so the full
 * runs and heatmaps are shared between cases and a rerun at the same commit simulates nothing
 * (its wall speedups are then estimated from the jobs' recorded walls, and the table says so).
 * --docs writes the table into docs/zatel.md (generated blocks).
 */
import os from 'node:os';
import { join } from 'node:path';
import { localBackend } from '../src/driver/jobs/backend.js';
import { encodePixelMask, jobConfig, jobWorkload } from '../src/driver/jobs/job-spec.js';
import { JobStore } from '../src/driver/jobs/job-store.js';
import { TABLE_I_METRICS } from '../src/driver/zatel/combine.js';
import { divideImage, SECTION_BLOCK_WIDTH } from '../src/driver/zatel/division.js';
import { rowUniformity } from '../src/driver/zatel/representative-pixels.js';
import { runZatel, type ZatelResult } from '../src/driver/zatel/run-zatel.js';
import { pixelMaskWords } from '../src/passes/zatel/pixel-filter.js';
import { seededRandom } from '../src/sim/seeded-random.js';
import { simulatorCommitKey } from './case-studies/cached-runs.js';
import { fmt, pct, writeDocBlocks } from './case-studies/doc-blocks.js';
import { repoRoot } from './jobs/wknd-runs.js';

const GENERATOR = 'npm run bench -- zatel --docs';

interface Case {
  workload: string;
  size: number;
  fraction: 'auto' | number;
  config: string;
  /** The paper's own selection and accounting (random blocks, the filter's instructions extrapolated). */
  paperMethod?: boolean;
  /** Downscaling factor (default: the gcd, the paper's). */
  k?: number;
  /** The downscaled GPU's DRAM row layout (default 'target'; 'own' is the paper's downscaling). */
  dramRows?: 'own';
  /** The colour distribution of the chosen blocks (default 'uniform', the paper's choice). */
  distribution?: 'temperature5';
  /**
   * Also simulate the whole frame, every pixel, on one group's downscaled GPU (no pixel filter):
   * the scale model alone, without any pixel selection. Its cycles / K against the full run's
   * show how far the downscaled GPU itself is from 1/K of the target.
   */
  scaleCheck?: boolean;
  /**
   * Also simulate the full GPU tracing only Zatel's pixels (every group's selection at once), and
   * tracing as many whole section blocks drawn at random (SELECTION_SEEDS): the pixel selection
   * alone, without the downscaling, beside the sampling spread of a random selection.
   */
  selectionCheck?: boolean;
  /**
   * With selectionCheck: per group, the same pixels at other loads (GroupLoadRuns), and random
   * blocks of the group at the selection's size (one draw per SELECTION_SEEDS).
   */
  loadCheck?: boolean;
  note: string;
}

/** Seeds of the random block selections of a selection check. */
const SELECTION_SEEDS = [1, 2, 3];
const SELECTION_METRICS = ['rt_avg_efficiency', 'rt_avg_warp_latency', 'rt_avg_thread_latency'] as const;
/** The RT unit's figures of the load check. */
const LOAD_METRICS = ['rt_avg_efficiency', 'rt_avg_warp_ray_fraction', 'rt_avg_warp_latency_uniformity', 'rt_avg_warp_occupancy', 'rt_avg_warp_latency', 'rt_avg_active_rays'] as const;
/** A relative figure with its sign: +12.7%, -0.2%. */
const signedPct = (x: number): string => `${x >= 0 ? '+' : ''}${pct(x)}`;
/** ` (+12.7%)`: a against b, or nothing when either is missing. */
const errorNote = (a: number, b: number): string => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? ` (${signedPct(a / b - 1)})` : '');

const CASES: Record<string, Case> = {
  'pt-32': { workload: 'pt', size: 32, fraction: 'auto', config: 'mobile', note: 'issue 23: 54% off and slower than the full run, without a warning' },
  'pt-128-paper': { workload: 'pt', size: 128, fraction: 'auto', config: 'mobile', paperMethod: true, note: "the paper's random blocks, filter instructions extrapolated" },
  'pt-128': { workload: 'pt', size: 128, fraction: 'auto', config: 'mobile', scaleCheck: true, selectionCheck: true, loadCheck: true, note: 'cost- and row-balanced blocks, filter-only run subtracted' },
  'pt-128-own-rows': { workload: 'pt', size: 128, fraction: 'auto', config: 'mobile', dramRows: 'own', scaleCheck: true, note: "the paper's downscaling: the group's one channel decodes rows as its own (--dram-rows own)" },
  'pt-128-k2': { workload: 'pt', size: 128, fraction: 'auto', config: 'mobile', k: 2, note: 'K = 2 (a point of the paper\'s K sweep, Fig. 17): 2 partitions per group' },
  'pt-128-exptmp': { workload: 'pt', size: 128, fraction: 'auto', config: 'mobile', distribution: 'temperature5', note: "the paper's exptmp distribution (eq. 3), which Sec. IV-C (Table III) advises for the RT unit's metrics" },
  'pt-128-10': { workload: 'pt', size: 128, fraction: 0.1, config: 'mobile', note: "the paper's 'up to 10%'" },
  'pt-256': { workload: 'pt', size: 256, fraction: 'auto', config: 'mobile', scaleCheck: true, selectionCheck: true, note: 'cost- and row-balanced blocks, filter-only run subtracted' },
  'wknd-128': { workload: 'lumibench-wknd', size: 128, fraction: 'auto', config: 'mobile', scaleCheck: true, selectionCheck: true, loadCheck: true, note: 'cost- and row-balanced blocks, filter-only run subtracted' },
  'wknd-128-own-rows': { workload: 'lumibench-wknd', size: 128, fraction: 'auto', config: 'mobile', dramRows: 'own', scaleCheck: true, note: "the paper's downscaling (--dram-rows own)" },
  'wknd-256': { workload: 'lumibench-wknd', size: 256, fraction: 'auto', config: 'mobile', scaleCheck: true, note: 'cost- and row-balanced blocks, filter-only run subtracted' },
  'pt-512': { workload: 'pt', size: 512, fraction: 'auto', config: 'mobile', note: "the paper's resolution (512x512, 2 spp, Sec. IV)" },
  'wknd-512': { workload: 'lumibench-wknd', size: 512, fraction: 'auto', config: 'mobile', note: "the paper's resolution (512x512, 2 spp, Sec. IV)" },
};
const args = process.argv.slice(2);
let names = Object.keys(CASES).filter((n) => n !== 'wknd-256' && !n.endsWith('-512'));
let docs = false;
const positional: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--cases') names = args[++i]!.split(',');
  else if (a === '--docs') docs = true;
  else if (CASES[a]) positional.push(a);
  else throw new Error(`zatel: unknown argument ${a} (cases: ${Object.keys(CASES).join(', ')}; --cases a,b --docs)`);
}
if (positional.length > 0) names = positional;

const commit = simulatorCommitKey();
const jobDir = join(repoRoot, '.bench', 'zatel-jobs', commit);
const rows: string[] = [];
const byCase = new Map<string, ZatelResult>();
/** Per case with scaleCheck: the downscaled GPU's stats on the whole frame (cycles not yet divided by K). */
const scaleChecks = new Map<string, Record<string, number>>();
/** Per case with selectionCheck: the full GPU tracing Zatel's pixels, and random blocks of as many pixels. */
const selectionChecks = new Map<string, SelectionCheck>();
const warnings: string[] = [];
let cpuTotal = 0;

for (const name of names) {
  const c = CASES[name];
  if (!c) throw new Error(`unknown case ${name} (cases: ${Object.keys(CASES).join(', ')})`);
  const r: ZatelResult = await runZatel({
    workload: c.workload, config: c.config, overrides: [], run: { width: c.size, height: c.size, spp: 2 }, fraction: c.fraction,
    division: 'fine', distribution: c.distribution ?? 'uniform', extrapolation: 'linear', clusters: 5, seed: 1, jobDir, validate: true,
    ...(c.k ? { k: c.k } : {}),
    ...(c.dramRows ? { dramRows: c.dramRows } : {}),
    ...(c.paperMethod ? { balance: 'none' as const, filterCorrection: false } : {}),
  });
  byCase.set(name, r);
  if (c.scaleCheck) {
    const store = new JobStore(jobDir);
    const id = store.add({
      kind: 'sim', workload: jobWorkload(c.workload), config: jobConfig(c.config), run: { width: c.size, height: c.size, spp: 2 }, overrides: r.downscaling.overrides,
    });
    const done = await localBackend(1).run(store, [id]);
    if (done.failed.length > 0) throw new Error(`zatel: the scale-model check of ${name} failed`);
    scaleChecks.set(name, store.result(id)!.values);
  }
  if (c.selectionCheck) selectionChecks.set(name, await selectionCheck(c, r));
  const v = r.validation!;
  const err = (m: string) => {
    const x = v.metrics[m];
    return x ? x.predicted / x.full - 1 : Number.NaN;
  };
  const all = Object.values(v.metrics).filter((m) => Number.isFinite(m.relativeError));
  const over = all.filter((m) => m.relativeError > 0.1).length;
  const tableOver = TABLE_I_METRICS.filter((m) => Math.abs(err(m)) > 0.1).length;
  const mae = TABLE_I_METRICS.reduce((a, m) => a + Math.abs(err(m)), 0) / TABLE_I_METRICS.length;
  const cachedWall = r.timing.groupsTiming !== 'measured' ? '*' : '';
  cpuTotal += v.zatelCpuSeconds;
  rows.push(
    `| ${name} | \`${c.workload}\` ${c.size}x${c.size}${c.k ? `, K = ${c.k}` : ''}${c.dramRows ? ', own DRAM rows' : ''}${c.distribution ? `, ${c.distribution} distribution` : ''} | ${c.fraction === 'auto' ? 'auto' : c.fraction} | ${pct(r.traced.size / (c.size * c.size), 0)} | ${fmt(r.wavesPerGroup, 2)} | ` +
    `${[...TABLE_I_METRICS, 'gpu_sim_insn'].map((m) => `${err(m) >= 0 ? '+' : ''}${pct(err(m))}`).join(' | ')} | ${tableOver} of 7 | ${over} of ${all.length} | ${pct(mae)} | ` +
    `${fmt(v.speedup, 2)}x${cachedWall} | ${fmt(v.cpuSpeedup, 2)}x (${fmt(v.fullCpuSeconds, 0)} / ${fmt(v.zatelCpuSeconds, 0)} s) | ${fmt(v.smCycleSpeedup, 2)}x | ${r.warnings.length > 0 ? r.warnings.map((w) => w.split(':')[0]).join('; ') : '—'} |`,
  );
  for (const w of r.warnings) warnings.push(`- ${name}: ${w}`);
  process.stdout.write(`${rows[rows.length - 1]}\n`);
}

const header =
  `| case | frame (2 spp, \`mobile\`, K = 4 unless named) | fraction | traced | waves / group | ${[...TABLE_I_METRICS, 'gpu_sim_insn'].join(' | ')} | Table I over 10% | all metrics over 10% | MAE (Table I) | wall speedup | CPU speedup (full / Zatel CPU-s) | SM-cycle speedup | warnings |\n` +
  `|---|---|---|---|---|${[...TABLE_I_METRICS, 'gpu_sim_insn'].map(() => '---|').join('')}---|---|---|---|---|---|---|`;
const paper = `| paper, Mobile SoC (Fig. 10) | PARK 512x512 | auto | — | — | — | 0.7% | — | — | — | — | — | — | 0 of 7 | — | 4.5% | 9.2x | — | — | — |\n` +
  `| paper, Mobile SoC, up to 10% | PARK 512x512 | 0.1 | — | — | — | — | — | — | — | — | — | — | — | — | 5.2% | 50x | — | — | — |`;
const body =
  `Errors are predicted / full - 1. Wall speedup: the full run's wall over Zatel's (heatmap included) on this machine's ${os.cpus().length} cores` +
  ` (* = estimated from the jobs' recorded walls: the run came from the job store); CPU speedup: CPU-seconds of the full run over Zatel's, every worker's summed;` +
  ` SM-cycle speedup: simulated cycles x SMs of the full run over the groups' (and the filter-only run's). CPU-seconds of jobs that ran in this bench's workers are the process's CPU time over the group phase (worker start-up included); of jobs from the store, their recorded thread CPU time (start-up excluded), so a rerun from the store reports a somewhat higher CPU speedup. Zatel CPU-seconds over all cases: ${fmt(cpuTotal, 0)};` +
  ` load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} when written.\n\n${header}\n${rows.join('\n')}\n${paper}\n\n` +
  (warnings.length > 0 ? `Warnings printed:\n\n${warnings.join('\n')}` : 'No warnings.') + scaleTable() + selectionTable() + loadTable();
process.stdout.write(`\n${body}\n`);
const whyText = why();
process.stdout.write(`\n${whyText}\n`);
if (docs) {
  const path = writeDocBlocks('zatel.md', GENERATOR, commit, { 'zatel-measured': body, 'zatel-why': whyText });
  process.stdout.write(`zatel: wrote ${path} at ${commit}\n`);
}

/**
 * Whose error the cycles carry: the scale model's (the downscaled GPU on every pixel) against
 * Zatel's (with the pixel selection and the extrapolation on top).
 */
function selectionPart(scaleErr: number, zatelErr: number, waves: number): string {
  const rest = (1 + zatelErr) / (1 + scaleErr) - 1;
  if (Math.abs(scaleErr) <= 0.05) return `So the downscaled GPU itself keeps the target's pace (${signedPct(scaleErr)}); the cycle error comes from the pixel selection and extrapolation (${signedPct(rest)})`;
  if (Math.abs(rest) <= 0.05) return `So the cycle error is the downscaled GPU's own, not the representative pixels' (they add ${signedPct(rest)})`;
  return `So the downscaled GPU errs ${signedPct(scaleErr)} by itself and the pixel selection and extrapolation ${signedPct(rest)} on top of it (${fmt(waves, 2)} waves per group)${Math.sign(rest) !== Math.sign(scaleErr) ? ': the two partly cancel' : ''}`;
}

/** Activates per DRAM access: how often a request finds its row closed. */
function activatesPerAccess(v: Record<string, number>): number {
  return (v.dram_activates ?? Number.NaN) / ((v.dram_reads ?? 0) + (v.dram_writes ?? 0));
}

/** A scale-model check's figures, the full run's and Zatel's prediction, by metric. */
function scaleRows(name: string): { k: number; rows: { metric: string; scale: number; full: number; zatel: number }[] } | undefined {
  const r = byCase.get(name);
  const d = scaleChecks.get(name);
  if (!r || !d) return undefined;
  const k = r.downscaling.k;
  const m = r.validation!.metrics;
  // The downscaled GPU on every pixel stands for all K groups at once: its cycles / K are the
  // frame's on the target, its IPC x K the target's; rates are its own.
  const scaled: Record<string, number> = { ...d, gpu_sim_cycle: d.gpu_sim_cycle! / k, gpu_ipc: d.gpu_ipc! * k };
  const metrics = ['gpu_sim_cycle', 'gpu_ipc', 'dram_eff', 'bwutil', 'dram_row_buffer_hit_rate', 'dram_avg_read_latency', 'L2_total_cache_miss_rate', 'rt_avg_efficiency'];
  const rows = metrics.map((metric) => ({ metric, scale: scaled[metric]!, full: m[metric]?.full ?? Number.NaN, zatel: m[metric]?.predicted ?? Number.NaN }));
  const fullV = { dram_activates: 0, dram_reads: 0, dram_writes: 0 };
  for (const key of Object.keys(fullV) as (keyof typeof fullV)[]) fullV[key] = m[key]?.full ?? Number.NaN;
  rows.push({ metric: 'activates per DRAM access', scale: activatesPerAccess(d), full: activatesPerAccess(fullV), zatel: Number.NaN });
  // The whole frame's DRAM requests on both (not divided by K: the scale model ran every pixel).
  rows.push({ metric: 'DRAM requests (reads + writes)', scale: (d.dram_reads ?? 0) + (d.dram_writes ?? 0), full: fullV.dram_reads + fullV.dram_writes, zatel: Number.NaN });
  return { k, rows };
}

/** The full GPU on a subset of the pixels: its stats and the cost uniformity of its traced rows. */
interface SelectionRun {
  values: Record<string, number>;
  uniformity: number;
}

interface SelectionCheck {
  zatel: SelectionRun;
  random: SelectionRun[];
  /** The cost uniformity of every row of the frame. */
  uniformityAll: number;
  /** Per group, the same pixels at other loads (loadRuns; empty without Case.loadCheck). */
  load: GroupLoadRuns[];
}

/**
 * One group's pixels on both GPUs: the load check. Zatel's group run is the downscaled GPU on the
 * group's selection; the same selection on the full GPU runs at 1/K of the load, every pixel of
 * the group on the downscaled GPU at the target's waves, and random blocks of the group at the
 * selection's size, so the RT unit's figures can be followed with the pixels held fixed or drawn
 * at random.
 */
interface GroupLoadRuns {
  /** The downscaled GPU on the group's selection (Zatel's own group run). */
  zatel: Record<string, number>;
  /** The full GPU on the group's selection. */
  fullSelection: Record<string, number>;
  /** The downscaled GPU on every pixel of the group. */
  downscaledGroup: Record<string, number>;
  /** The downscaled GPU on as many of the group's blocks as its selection, drawn at random: one per SELECTION_SEEDS. */
  downscaledRandom: Record<string, number>[];
  /** Waves of the downscaled GPU's thread slots the selection and the whole group fill. */
  selectionWaves: number;
  groupWaves: number;
}

/**
 * Mean over the traced 32-pixel rows of the section blocks (blocks are traced whole) of mean / max
 * of their pixels' heatmap cost (instructions): 1 when every pixel of each row costs the same. A
 * row whose pixels end their paths at different bounces leaves RT lanes idle, which is what
 * `rt_avg_efficiency` (per warp, its rays' RT cycles / (32 x its RT latency)) counts.
 */
function tracedRowUniformity(r: ZatelResult, traced?: Set<number>): number {
  const { width, height } = r;
  const cost = r.heatmap.cost;
  let sum = 0;
  let rows = 0;
  for (let y = 0; y < height; y++) {
    for (let x0 = 0; x0 < width; x0 += SECTION_BLOCK_WIDTH) {
      if (traced && !traced.has(y * width + x0)) continue;
      const x1 = Math.min(width, x0 + SECTION_BLOCK_WIDTH);
      sum += rowUniformity(cost.subarray(y * width + x0, y * width + x1));
      rows++;
    }
  }
  return rows > 0 ? sum / rows : Number.NaN;
}

/** Whole section blocks of the frame drawn at random until they hold at least `pixels` pixels. */
function randomBlocks(width: number, height: number, pixels: number, seed: number): Set<number> {
  return randomBlocksOf(divideImage(width, height, 1, 'fine')[0]!.blocks, pixels, seed);
}

/** Whole blocks of `blocks` (not modified) drawn at random until they hold at least `pixels` pixels. */
function randomBlocksOf(from: number[][], pixels: number, seed: number): Set<number> {
  const blocks = from.slice();
  const random = seededRandom(seed);
  for (let i = blocks.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [blocks[i], blocks[j]] = [blocks[j]!, blocks[i]!];
  }
  const out = new Set<number>();
  for (const b of blocks) {
    if (out.size >= pixels) break;
    for (const p of b) out.add(p);
  }
  return out;
}

/** The full GPU tracing Zatel's pixels, and as many random whole blocks per seed (cached jobs). */
async function selectionCheck(c: Case, r: ZatelResult): Promise<SelectionCheck> {
  const store = new JobStore(jobDir);
  const threads = r.width * r.height;
  const sets = [r.traced, ...SELECTION_SEEDS.map((seed) => randomBlocks(r.width, r.height, r.traced.size, seed))];
  const ids = sets.map((pixels) => store.add({
    kind: 'sim', workload: jobWorkload(c.workload), config: jobConfig(c.config), run: { width: c.size, height: c.size, spp: 2 }, overrides: [],
    pixelMask: encodePixelMask(pixelMaskWords(pixels, threads)),
  }));
  const done = await localBackend(1).run(store, ids);
  if (done.failed.length > 0) throw new Error(`zatel: the selection check of ${c.workload} ${c.size}x${c.size} failed`);
  const run = (i: number): SelectionRun => ({ values: store.result(ids[i]!)!.values, uniformity: tracedRowUniformity(r, sets[i]) });
  return { zatel: run(0), random: SELECTION_SEEDS.map((_, k) => run(k + 1)), uniformityAll: tracedRowUniformity(r), load: c.loadCheck ? await loadRuns(c, r, store) : [] };
}

/** The load check of every group (GroupLoadRuns): (2 + seeds) K more simulations, cached in the job store. */
async function loadRuns(c: Case, r: ZatelResult, store: JobStore): Promise<GroupLoadRuns[]> {
  const threads = r.width * r.height;
  const spec = (pixels: Iterable<number>, overrides: string[]) => store.add({
    kind: 'sim', workload: jobWorkload(c.workload), config: jobConfig(c.config), run: { width: c.size, height: c.size, spp: 2 }, overrides,
    pixelMask: encodePixelMask(pixelMaskWords(new Set(pixels), threads)),
  });
  const division = divideImage(r.width, r.height, r.downscaling.k, 'fine');
  // A group's thread slots, from Zatel's own figure (the smallest group's traced pixels over its slots; depth 1 here).
  const slots = Math.min(...r.groups.map((g) => g.runs[0]!.selection.pixels.length)) / r.wavesPerGroup;
  const jobs = r.groups.map((g) => ({
    fullSelection: spec(g.runs[0]!.selection.pixels, []),
    downscaledGroup: spec(division[g.index]!.blocks.flat(), r.downscaling.overrides),
    downscaledRandom: SELECTION_SEEDS.map((seed) => spec(randomBlocksOf(division[g.index]!.blocks, g.runs[0]!.selection.pixels.length, seed), r.downscaling.overrides)),
  }));
  const done = await localBackend(1).run(store, jobs.flatMap((j) => [j.fullSelection, j.downscaledGroup, ...j.downscaledRandom]));
  if (done.failed.length > 0) throw new Error(`zatel: the load check of ${c.workload} ${c.size}x${c.size} failed`);
  return r.groups.map((g, i) => ({
    zatel: g.runs[0]!.values,
    fullSelection: store.result(jobs[i]!.fullSelection)!.values,
    downscaledGroup: store.result(jobs[i]!.downscaledGroup)!.values,
    downscaledRandom: jobs[i]!.downscaledRandom.map((id) => store.result(id)!.values),
    selectionWaves: g.runs[0]!.selection.pixels.length / slots,
    groupWaves: division[g.index]!.pixels / slots,
  }));
}

function selectionTable(): string {
  if (selectionChecks.size === 0) return '';
  const lines = [
    '',
    '',
    `Pixel selection alone: the full GPU (no downscaling) tracing only Zatel's pixels (every group's selection at once), and tracing as many whole section blocks drawn at random (seeds ${SELECTION_SEEDS.join(', ')}), beside the full GPU on every pixel, the scale model on every pixel and Zatel's prediction (error against the full GPU on every pixel in brackets). Row cost uniformity: the mean over the traced 32-pixel block rows of mean / max of their pixels' heatmap instructions.`,
    '',
    `| case | metric | full GPU, every pixel | full GPU, Zatel's pixels | full GPU, random blocks (${SELECTION_SEEDS.length} seeds) | scale model, every pixel | Zatel |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const [name, sc] of selectionChecks) {
    const r = byCase.get(name)!;
    const m = r.validation!.metrics;
    const scale = scaleChecks.get(name);
    for (const metric of SELECTION_METRICS) {
      const full = m[metric]?.full ?? Number.NaN;
      const randoms = sc.random.map((x) => `${fmt(x.values[metric]!)}${errorNote(x.values[metric]!, full)}`).join(', ');
      const scaled = scale?.[metric];
      lines.push(
        `| ${name} | \`${metric}\` | ${fmt(full)} | ${fmt(sc.zatel.values[metric]!)}${errorNote(sc.zatel.values[metric]!, full)} | ${randoms} | ` +
        `${scaled !== undefined ? `${fmt(scaled)}${errorNote(scaled, full)}` : '—'} | ${fmt(m[metric]?.predicted ?? Number.NaN)}${errorNote(m[metric]?.predicted ?? Number.NaN, full)} |`,
      );
    }
    lines.push(`| ${name} | row cost uniformity | ${fmt(sc.uniformityAll)} | ${fmt(sc.zatel.uniformity)} | ${sc.random.map((x) => fmt(x.uniformity)).join(', ')} | ${fmt(sc.uniformityAll)} | — |`);
  }
  return lines.join('\n');
}

/** A row of the load check: a run, the waves it ran, its LOAD_METRICS, and for random draws their range of rt_avg_efficiency. */
interface LoadRow {
  run: string;
  waves: number;
  values: Record<string, number>;
  range?: [number, number];
}

/** The load check's rows of one case: the same pixels at different loads, means over the groups as Zatel combines rates. */
function loadRows(name: string): LoadRow[] | undefined {
  const sc = selectionChecks.get(name);
  const r = byCase.get(name);
  if (!sc || !r || sc.load.length === 0) return undefined;
  const mean = (pick: (g: GroupLoadRuns) => number) => sc.load.reduce((a, g) => a + pick(g), 0) / sc.load.length;
  const means = (pick: (g: GroupLoadRuns) => Record<string, number>) =>
    Object.fromEntries(LOAD_METRICS.map((m) => [m, mean((g) => pick(g)[m]!)]));
  const m = r.validation!.metrics;
  // The target's waves: the frame over the K groups' slots, i.e. the mean of the groups' own waves.
  const rows: LoadRow[] = [
    { run: 'full GPU, every pixel (the target)', waves: mean((g) => g.groupWaves), values: Object.fromEntries(LOAD_METRICS.map((x) => [x, m[x]?.full ?? Number.NaN])) },
    { run: "full GPU, one group's selection", waves: mean((g) => g.selectionWaves) / r.downscaling.k, values: means((g) => g.fullSelection) },
    { run: "downscaled GPU, one group's selection (Zatel's group runs)", waves: mean((g) => g.selectionWaves), values: means((g) => g.zatel) },
    { run: 'downscaled GPU, every pixel of one group', waves: mean((g) => g.groupWaves), values: means((g) => g.downscaledGroup) },
  ];
  // Random blocks: the mean over the seeds of each draw's mean over the groups, and the draws' range of rt_avg_efficiency.
  const draws = SELECTION_SEEDS.map((_, k) => means((g) => g.downscaledRandom[k]!));
  const effs = draws.map((d) => d.rt_avg_efficiency!);
  rows.push({
    run: `downscaled GPU, random blocks of one group, as many as its selection (mean of ${draws.length} draws)`, waves: mean((g) => g.selectionWaves),
    values: Object.fromEntries(LOAD_METRICS.map((x) => [x, draws.reduce((a, d) => a + d[x]!, 0) / draws.length])), range: [Math.min(...effs), Math.max(...effs)],
  });
  const scale = scaleChecks.get(name);
  if (scale) rows.push({ run: 'downscaled GPU, every pixel of the frame (scale model)', waves: mean((g) => g.groupWaves) * r.downscaling.k, values: Object.fromEntries(LOAD_METRICS.map((x) => [x, scale[x]!])) });
  return rows;
}

function loadTable(): string {
  const names = [...selectionChecks.keys()].filter((n) => loadRows(n) !== undefined);
  if (names.length === 0) return '';
  const lines = [
    '',
    '',
    `Load check: Zatel's group runs beside the same pixels at other loads and random pixels at the same load. Each group's selection on the full GPU (1/K of the load Zatel's group run sees) and on the downscaled GPU (Zatel's group run); every pixel of the group on the downscaled GPU (the target's waves); as many random blocks of the group as its selection on the downscaled GPU (${SELECTION_SEEDS.length} draws); and, where the case has it, the scale model. Means over the K groups, as Zatel averages rates. Waves: traced threads over the thread slots of the GPU that runs them. Error against the full GPU on every pixel in brackets.`,
    '',
    `| case | run | waves | ${LOAD_METRICS.map((x) => `\`${x}\``).join(' | ')} |`,
    `|---|---|---|${LOAD_METRICS.map(() => '---|').join('')}`,
  ];
  for (const name of names) {
    const rows = loadRows(name)!;
    const target = rows[0]!.values;
    for (const row of rows) {
      const cells = LOAD_METRICS.map((x) => {
        const v = row.values[x]!;
        const cell = row === rows[0] ? fmt(v) : `${fmt(v)}${errorNote(v, target[x]!)}`;
        return x === 'rt_avg_efficiency' && row.range ? `${cell}, draws ${fmt(row.range[0])} to ${fmt(row.range[1])}` : cell;
      });
      lines.push(`| ${name} | ${row.run} | ${fmt(row.waves, 2)} | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/**
 * The why-bullet of a load check: Zatel's RT-efficiency error taken apart, target -> the
 * downscaled GPU on every pixel of a group (the target's waves) -> random blocks of the group
 * (the selection's waves) -> Zatel's own blocks, and the selection on the full GPU (a light load).
 */
function loadWhy(name: string): string | undefined {
  const rows = loadRows(name);
  if (!rows) return undefined;
  const [target, fullSel, zatel, group, random] = rows as [LoadRow, LoadRow, LoadRow, LoadRow, LoadRow];
  const eff = (x: LoadRow) => x.values.rt_avg_efficiency!;
  const occ = (x: LoadRow) => x.values.rt_avg_warp_occupancy!;
  const rel = (x: LoadRow) => eff(x) / eff(target) - 1;
  const at = (x: LoadRow) => `${fmt(x.waves, 2)} waves, RT warp buffers ${pct(occ(x), 0)} full`;
  const [lo, hi] = random.range!.map((v) => v / eff(target) - 1) as [number, number];
  const inSpread = rel(zatel) >= lo - 0.005 && rel(zatel) <= hi + 0.005;
  const sameLoad = Math.abs(occ(zatel) / occ(target) - 1) < 0.05;
  return `- **Zatel's \`rt_avg_efficiency\` error taken apart (${name}, the load check).** Against the target's ${fmt(eff(target))} (${at(target)}): ` +
    `the downscaled GPU on every pixel of a group, at the target's waves, ${signedPct(rel(group))} (${at(group)}); ` +
    `on random blocks of the group, as many as Zatel traces, ${signedPct(rel(random))} on average (draws ${signedPct(lo)} to ${signedPct(hi)}; ${at(random)}); on Zatel's own blocks ${signedPct(rel(zatel))} (${at(zatel)}). ` +
    `So of Zatel's ${signedPct(rel(zatel))}, the downscaled GPU itself carries ${signedPct(rel(group))}, running ${fmt(zatel.waves, 2)} instead of ${fmt(group.waves, 2)} waves ${signedPct(rel(random) - rel(group))} on average, ` +
    (inSpread ? `and Zatel's blocks are within the spread of random draws (${signedPct(rel(zatel) - rel(random))} from their mean): which blocks are drawn moves the metric by ${pct(hi - lo)} at this size. `
      : `and Zatel's blocks ${signedPct(rel(zatel) - rel(random))} beyond the random draws' mean, outside their spread. `) +
    (sameLoad
      ? `The RT units' warp buffers are as full in Zatel's group runs as on the target (${pct(occ(zatel), 0)} vs ${pct(occ(target), 0)}): the fewer waves do not act through the RT units' average load. `
      : `The RT units' warp buffers are ${pct(occ(zatel), 0)} full in Zatel's group runs against ${pct(occ(target), 0)} on the target. `) +
    factorsWhy(zatel, target) +
    `The metric does follow a light load: a group's selection on the full GPU (${at(fullSel)}) gives ${signedPct(rel(fullSel))}. ` +
    `More waves per group (a larger frame, a larger \`--fraction\` or a smaller \`--k\`, the warning's advice) bring a group's run toward the target's.`;
}

/**
 * Zatel's group runs against the target by the two factors of a warp's RT efficiency: the lanes
 * that trace together (the pixels' paths decide them) and how nearly together they finish (the
 * timing decides it).
 */
function factorsWhy(zatel: LoadRow, target: LoadRow): string {
  const f = (x: LoadRow) => x.values.rt_avg_warp_ray_fraction!;
  const u = (x: LoadRow) => x.values.rt_avg_warp_latency_uniformity!;
  const ef = f(zatel) / f(target) - 1;
  const eu = u(zatel) / u(target) - 1;
  return `A warp's efficiency is the product of the lanes that trace together (\`rt_avg_warp_ray_fraction\`: ${fmt(f(zatel))} in Zatel's group runs vs ${fmt(f(target))} on the target, ${signedPct(ef)}) ` +
    `and how nearly together its rays finish (\`rt_avg_warp_latency_uniformity\`: ${fmt(u(zatel))} vs ${fmt(u(target))}, ${signedPct(eu)}): ` +
    (Math.abs(ef) < Math.abs(eu)
      ? 'the traced pixels keep the target\'s mix of lanes per trace more closely than the timing keeps its rays\' spread, so most of the error is the group runs\' timing, not which pixels they trace. '
      : 'the traced pixels\' mix of lanes per trace differs more than the timing does, so most of the error is which pixels the group runs trace. ');
}

/** The why-bullet of a selection check: how much of Zatel's RT-efficiency error the pixel selection carries on its own. */
function selectionWhy(name: string): string | undefined {
  const sc = selectionChecks.get(name);
  const r = byCase.get(name);
  if (!sc || !r) return undefined;
  const metric = 'rt_avg_efficiency';
  const v = r.validation!.metrics[metric]!;
  const rel = (x: number) => x / v.full - 1;
  const zatelSel = rel(sc.zatel.values[metric]!);
  const randoms = sc.random.map((x) => rel(x.values[metric]!));
  const lo = Math.min(...randoms);
  const hi = Math.max(...randoms);
  const scale = scaleChecks.get(name)?.[metric];
  const inSpread = zatelSel >= lo - 0.005 && zatelSel <= hi + 0.005;
  return `- **The pixel selection alone at ${name}.** On the full GPU, tracing only Zatel's ${pct(r.traced.size / (r.width * r.height), 0)} of the pixels gives \`${metric}\` ${fmt(sc.zatel.values[metric]!)} against ${fmt(v.full)} for every pixel (${signedPct(zatelSel)}); ` +
    `as many whole blocks drawn at random give ${signedPct(lo)} to ${signedPct(hi)}${inSpread ? ', so Zatel\'s blocks are an ordinary sample' : `, so Zatel's blocks are ${zatelSel > hi ? 'more' : 'less'} efficient than a random sample${zatelSel > hi && sc.zatel.uniformity > Math.max(...sc.random.map((x) => x.uniformity)) ? ': their rows are more uniform in cost, so fewer lanes sit idle while a row\'s longest path finishes' : ''}`}. ` +
    (lo > 0.02 ? 'Tracing any subset of the blocks raises the metric by itself: a warp\'s efficiency is not a per-pixel quantity that a share of the pixels inherits. ' : '') +
    (hi - lo > 0.03 ? `Which blocks are drawn moves it by ${pct(hi - lo)}. ` : '') +
    `Row cost uniformity (mean / max instructions of a traced 32-pixel row): ${fmt(sc.zatel.uniformity)} for Zatel's rows, ${sc.random.map((x) => fmt(x.uniformity)).join(' / ')} for the random ones, ${fmt(sc.uniformityAll)} for the frame. ` +
    `${scale !== undefined ? `The scale model on every pixel gives ${signedPct(rel(scale))}, ` : ''}Zatel predicts ${signedPct(rel(v.predicted))}.`;
}

function scaleTable(): string {
  const names = [...scaleChecks.keys()];
  if (names.length === 0) return '';
  const lines: string[] = [
    '',
    '',
    "Scale model alone: the whole frame, every pixel, no pixel filter, on one group's downscaled GPU (K = 4: 2 SMs, 1 memory partition), its cycles divided by K and its IPC multiplied by K (it stands for all K groups at once), beside the full GPU and Zatel's prediction (error against the full run in brackets):",
    '',
    `| metric | ${names.map((n) => `${n}: scale model | ${n}: full GPU | ${n}: Zatel`).join(' | ')} |`,
    `|---|${names.map(() => '---|---|---|').join('')}`,
  ];
  const first = scaleRows(names[0]!)!;
  for (let i = 0; i < first.rows.length; i++) {
    const cells = names.map((n) => {
      const row = scaleRows(n)!.rows[i]!;
      return `${fmt(row.scale)}${errorNote(row.scale, row.full)} | ${fmt(row.full)} | ${Number.isFinite(row.zatel) ? `${fmt(row.zatel)}${errorNote(row.zatel, row.full)}` : '—'}`;
    });
    lines.push(`| \`${first.rows[i]!.metric}\` | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * The explanations docs/zatel.md gives, each with the figures that support it, worded from the
 * runs (a direction that flips after a model change flips the sentence).
 */
function why(): string {
  const e = (r: ZatelResult, m: string) => {
    const x = r.validation!.metrics[m];
    return x ? x.predicted / x.full - 1 : Number.NaN;
  };
  const out: string[] = [];
  const paper = byCase.get('pt-128-paper');
  const ours = byCase.get('pt-128');
  if (paper && ours) {
    const cancel = Math.abs(e(paper, 'gpu_sim_cycle')) < Math.abs(e(paper, 'gpu_sim_insn'));
    out.push(
      `- **Cancelling errors (the paper's method, \`pt\` 128x128).** Random blocks carry ${pct(paper.costRatios.reduce((a, b) => a + b, 0) / paper.costRatios.length)} of their pixel share of the heatmap's instructions (mean over groups), ` +
      `so instructions come out ${signedPct(e(paper, 'gpu_sim_insn'))} and IPC ${signedPct(e(paper, 'gpu_ipc'))}, while cycles are ${signedPct(e(paper, 'gpu_sim_cycle'))}` +
      `${cancel ? ': cycles look right only because the two errors cancel.' : '.'}`,
      `- **Cost-balanced blocks and the filter-only run (\`pt\` 128x128).** The chosen blocks' instruction share is within ${pct(Math.max(...ours.costRatios.map((c) => Math.abs(c - 1))))} of their pixel share, ` +
      `the filter-only run's ${fmt(ours.filterInstructions)} instructions are subtracted, and instructions come out ${signedPct(e(ours, 'gpu_sim_insn'))}. ` +
      `What remains is the cycles' own error: ${signedPct(e(ours, 'gpu_sim_cycle'))} (IPC ${signedPct(e(ours, 'gpu_ipc'))}), with ${fmt(ours.wavesPerGroup, 2)} waves per group.`,
    );
  }
  const big = byCase.get('pt-256');
  if (big) {
    const over = (r: ZatelResult) => TABLE_I_METRICS.filter((m) => Math.abs(e(r, m)) > 0.1);
    out.push(
      `- **Frame size.** At 256x256 each group runs ${fmt(big.wavesPerGroup, 2)} waves: cycles ${signedPct(e(big, 'gpu_sim_cycle'))}, instructions ${signedPct(e(big, 'gpu_sim_insn'))}, ` +
      `IPC ${signedPct(e(big, 'gpu_ipc'))}; Table I metrics over 10%: ${over(big).length === 0 ? 'none' : over(big).join(', ')}.`,
    );
  }
  for (const n of ['pt-512', 'wknd-512']) {
    const r = byCase.get(n);
    if (!r) continue;
    const over = TABLE_I_METRICS.filter((m) => Math.abs(e(r, m)) > 0.1);
    out.push(
      `- **The paper's resolution (${n}: 512x512, 2 spp).** Each group runs ${fmt(r.wavesPerGroup, 2)} waves: cycles ${signedPct(e(r, 'gpu_sim_cycle'))}, instructions ${signedPct(e(r, 'gpu_sim_insn'))}, ` +
      `IPC ${signedPct(e(r, 'gpu_ipc'))}, \`rt_avg_efficiency\` ${signedPct(e(r, 'rt_avg_efficiency'))}; Table I metrics over 10%: ${over.length === 0 ? 'none' : over.join(', ')}.`,
    );
  }
  // The cycles' own error: the scale model alone (the downscaled GPU on every pixel) against the
  // full GPU, so that what the pixel selection adds is told apart from what the downscaling does.
  for (const n of ['pt-256', 'pt-128', 'wknd-256', 'wknd-128']) {
    const r = byCase.get(n);
    const rows = scaleRows(n);
    if (!r || !rows) continue;
    const row = (metric: string) => rows.rows.find((x) => x.metric === metric)!;
    const vs = (metric: string, label = `\`${metric}\``) => `${label} ${fmt(row(metric).scale)} vs ${fmt(row(metric).full)}`;
    const scaleErr = (metric: string) => row(metric).scale / row(metric).full - 1;
    const pending = (x: { dram_eff: number; bwutil: number }) => x.bwutil / x.dram_eff;
    const fullPending = pending({ dram_eff: row('dram_eff').full, bwutil: row('bwutil').full });
    out.push(
      `- **The scale model at ${n}.** The downscaled GPU (${r.downscaling.sms} SMs, ${r.downscaling.partitions} partition) running every pixel, with no pixel selection at all, ` +
      `takes ${signedPct(scaleErr('gpu_sim_cycle'))} cycles against 1/${rows.k} of the full GPU's (IPC ${signedPct(scaleErr('gpu_ipc'))}, \`dram_eff\` ${signedPct(scaleErr('dram_eff'))}, \`bwutil\` ${signedPct(scaleErr('bwutil'))}); ` +
      `Zatel's prediction errs ${signedPct(e(r, 'gpu_sim_cycle'))} in cycles, IPC ${signedPct(e(r, 'gpu_ipc'))}, \`dram_eff\` ${signedPct(e(r, 'dram_eff'))}. ` +
      `${selectionPart(scaleErr('gpu_sim_cycle'), e(r, 'gpu_sim_cycle'), r.wavesPerGroup)}. Scale model vs full GPU: ` +
      `${vs('dram_row_buffer_hit_rate')}, ${vs('activates per DRAM access', 'activates per DRAM access')}, ${vs('dram_eff')}, ${vs('dram_avg_read_latency')}, ${vs('L2_total_cache_miss_rate')}. ` +
      `The full GPU's channels have requests pending in ${pct(fullPending, 0)} of its cycles${fullPending >= 0.8 ? ', so the frame is DRAM-bound there' : ''}; ` +
      (Math.abs(scaleErr('dram_eff')) <= 0.1
        ? `the scale model's DRAM efficiency is within 10% of the target's (${signedPct(scaleErr('dram_eff'))}).`
        : `the scale model's ${scaleErr('dram_eff') > 0 ? 'more' : 'less'} efficient DRAM (${signedPct(scaleErr('dram_eff'))}) ${scaleErr('dram_eff') > 0 ? 'shortens' : 'lengthens'} its cycles.`),
    );
  }
  for (const n of ['pt-128', 'pt-256', 'wknd-128']) {
    const bullet = selectionWhy(n);
    if (bullet) out.push(bullet);
    const load = loadWhy(n);
    if (load) out.push(load);
  }
  if (scaleChecks.size > 0) {
    const cancel = [...scaleChecks.keys()].filter((n) => {
      const rows = scaleRows(n)!;
      const c = rows.rows.find((x) => x.metric === 'gpu_sim_cycle')!;
      const z = e(byCase.get(n)!, 'gpu_sim_cycle');
      return Math.abs(z) < Math.abs(c.scale / c.full - 1) - 0.05;
    });
    if (cancel.length > 0) {
      const part = (n: string) => {
        const c = scaleRows(n)!.rows.find((x) => x.metric === 'gpu_sim_cycle')!;
        const r = byCase.get(n)!;
        const rest = (1 + e(r, 'gpu_sim_cycle')) / (c.scale / c.full) - 1;
        return `${n}: scale model ${signedPct(c.scale / c.full - 1)}, selection and extrapolation ${signedPct(rest)} at ${fmt(r.wavesPerGroup, 2)} waves per group`;
      };
      out.push(`- **Right for the wrong reason** (${cancel.map(part).join('; ')}): Zatel's cycles come out closer than its own scale model's because the error of the pixel selection and extrapolation has the other sign and partly cancels the downscaled GPU's; the first shrinks with more waves per group, so a larger frame shows more of the scale model's own error.`);
    }
  }
  // The paper's downscaling (own DRAM rows) against the default (the target's rows), scale model alone.
  const pairs = [['pt-128', 'pt-128-own-rows'], ['wknd-128', 'wknd-128-own-rows']].filter(([t, o]) => scaleChecks.has(t!) && scaleChecks.has(o!)) as [string, string][];
  if (pairs.length > 0) {
    const fig = (n: string) => {
      const rows = scaleRows(n)!.rows;
      const row = (metric: string) => rows.find((x) => x.metric === metric)!;
      const err = (metric: string) => row(metric).scale / row(metric).full - 1;
      return `row-buffer hit rate ${fmt(row('dram_row_buffer_hit_rate').scale)}, activates per access ${fmt(row('activates per DRAM access').scale)}, ` +
        `\`dram_eff\` ${fmt(row('dram_eff').scale)}, read latency ${fmt(row('dram_avg_read_latency').scale)}, cycles / K ${signedPct(err('gpu_sim_cycle'))}`;
    };
    const full = (n: string) => {
      const rows = scaleRows(n)!.rows;
      const row = (metric: string) => rows.find((x) => x.metric === metric)!;
      return `row-buffer hit rate ${fmt(row('dram_row_buffer_hit_rate').full)}, activates per access ${fmt(row('activates per DRAM access').full)}, \`dram_eff\` ${fmt(row('dram_eff').full)}, read latency ${fmt(row('dram_avg_read_latency').full)}`;
    };
    const imbalance = pairs.map(([t]) => `${t} ${fmt(byCase.get(t)!.validation!.metrics.dram_channel_imbalance?.full ?? Number.NaN, 3)}`);
    const requests = pairs.map(([t]) => {
      const r = scaleRows(t)!.rows.find((x) => x.metric === 'DRAM requests (reads + writes)')!;
      const l2 = scaleRows(t)!.rows.find((x) => x.metric === 'L2_total_cache_miss_rate')!;
      return `${t} ${signedPct(r.scale / r.full - 1)} DRAM requests (L2 miss rate ${fmt(l2.scale)} vs ${fmt(l2.full)})`;
    });
    out.push(
      "- **Why the paper's one partition is faster, and what fixes it.** The paper divides the SMs and the memory partitions by K and nothing else (Sec. III-C; its scripts change `gpgpu_n_clusters` and `gpgpu_n_mem` only), " +
      "and Vulkan-Sim's addrdec.cc then decodes addresses for the group's one channel: `gpgpu_mem_addr_mapping dramid@8` deals consecutive 256-byte chunks over the target's 4 channels, so a 2 KB DRAM row of the target holds 128 bytes of every fourth chunk over 16 KB of addresses (bit 7 picks the bank), " +
      "while the one channel takes every chunk and its row holds 128 bytes of each of 16 consecutive chunks (4 KB). A warp's neighbouring lines then find their row open far more often than on the target: the scale model runs its DRAM as a target with 4 KB interleaving would. " +
      `The scale model alone, ${pairs.map(([t, o]) => `${t}: full GPU ${full(t)}; the paper's downscaling (\`--dram-rows own\`) ${fig(o)}; with the target's row layout (\`zatel_target_n_mem\`, the default) ${fig(t)}`).join('. ')}. ` +
      `It is not partition camping: the full GPU's busiest channel takes ${imbalance.join(', ')} times the mean requests per channel (\`dram_channel_imbalance\`; stats.txt lists each channel's requests, row-buffer hit rate and efficiency, \`dram_channel_*\`). ` +
      `What the target's row layout leaves is the L2 the paper names (Sec. III-G): a group's one slice keeps its own copy of lines the target's slices hold once, so the scale model running the whole frame sends ${requests.join(', ')} against the full GPU's.`,
    );
  }
  const k2 = byCase.get('pt-128-k2');
  const k4 = byCase.get('pt-128');
  if (k2 && k4) {
    const trio = (r: ZatelResult) => `cycles ${signedPct(e(r, 'gpu_sim_cycle'))}, IPC ${signedPct(e(r, 'gpu_ipc'))}, \`dram_eff\` ${signedPct(e(r, 'dram_eff'))}, \`bwutil\` ${signedPct(e(r, 'bwutil'))}`;
    out.push(
      `- **Fewer groups, more partitions each (\`pt\` 128x128).** K = ${k4.downscaling.k} (${k4.downscaling.partitions} partition per group): ${trio(k4)}; K = ${k2.downscaling.k} (${k2.downscaling.partitions} partitions per group, addresses interleaved over ${k2.downscaling.partitions} channels): ${trio(k2)}. ` +
      `${Math.abs(e(k2, 'dram_eff')) < Math.abs(e(k4, 'dram_eff')) ? 'The DRAM error shrinks as each group keeps more of the target\'s partitions' : 'The DRAM error does not shrink with more partitions per group here'}; the paper saw the same cost of dividing the partitions (Sec. IV-E: DRAM efficiency's MAE rose to 20% with the partitions reduced, against under 8% when only pixels were reduced). K stays the gcd by default, as the paper chooses.`,
    );
  }
  const small = byCase.get('pt-32');
  if (small) {
    out.push(
      `- **Too small a frame.** 32x32 leaves ${fmt(small.wavesPerGroup, 2)} waves per group: cycles ${signedPct(e(small, 'gpu_sim_cycle'))}, wall speedup ${fmt(small.validation!.speedup, 2)}x; ` +
      `Zatel now says so (${small.warnings.some((w) => w.startsWith('frame too small')) ? 'the warning above' : 'no warning: check MIN_WAVES_PER_GROUP'}).`,
    );
  }
  const ten = byCase.get('pt-128-10');
  if (ten) {
    out.push(`- **Up to 10% of the pixels at 128x128**: ${fmt(ten.wavesPerGroup, 2)} waves per group, cycles ${signedPct(e(ten, 'gpu_sim_cycle'))}; the paper's 10% ran on 512x512 frames (its GPU stays full).`);
  }
  const dram = [...byCase.entries()].filter(([n]) => n !== 'pt-32').map(([n, r]) => `${n} ${signedPct(e(r, 'dram_eff'))} (read latency ${signedPct(e(r, 'dram_avg_read_latency'))})`);
  // The default downscaling's cases (the own-rows ones are the paper's, discussed above).
  const targetRows = [...byCase.entries()].filter(([n]) => n !== 'pt-32' && !CASES[n]!.dramRows);
  const overTen = targetRows.filter(([, r]) => Math.abs(e(r, 'dram_eff')) > 0.1);
  const below = targetRows.filter(([, r]) => e(r, 'dram_eff') < 0).length;
  const ownRows = [...byCase.entries()].filter(([n]) => CASES[n]!.dramRows === 'own');
  out.push(
    `- **DRAM efficiency** (\`dram_eff\`, with \`dram_avg_read_latency\`): ${dram.join(', ')}. ` +
    `With the target's DRAM rows ${targetRows.length - overTen.length} of ${targetRows.length} cases are within 10%` +
    `${overTen.length > 0 ? ` (over: ${overTen.map(([n, r]) => `${n} ${signedPct(e(r, 'dram_eff'))} at ${fmt(r.wavesPerGroup, 2)} waves per group`).join(', ')})` : ''}, ` +
    `${below} of ${targetRows.length} below the full GPU's, the direction the paper found ("frequently underestimated", Sec. III-G)` +
    `${ownRows.length > 0 ? `; with the paper's own rows ${ownRows.filter(([, r]) => e(r, 'dram_eff') > 0).length} of ${ownRows.length} are above it (${ownRows.map(([n, r]) => `${n} ${signedPct(e(r, 'dram_eff'))}`).join(', ')})` : ''}.`,
  );
  // Table I, metric by metric, per case: within the paper's 10% or not.
  for (const [n, r] of byCase) {
    if (n === 'pt-32') continue;
    const over = TABLE_I_METRICS.filter((m) => Math.abs(e(r, m)) > 0.1);
    const within = TABLE_I_METRICS.filter((m) => Math.abs(e(r, m)) <= 0.1);
    out.push(`- **Table I at ${n}**: within 10%: ${within.length > 0 ? within.map((m) => `\`${m}\` ${signedPct(e(r, m))}`).join(', ') : 'none'}; over 10%: ${over.length > 0 ? over.map((m) => `\`${m}\` ${signedPct(e(r, m))}`).join(', ') : 'none'}.`);
  }
  const cpu = [...byCase.entries()].map(([n, r]) => `${n} ${fmt(r.validation!.cpuSpeedup, 2)}x CPU / ${fmt(r.validation!.smCycleSpeedup, 2)}x SM-cycles (1 / traced fraction: ${fmt(1 / (r.traced.size / (r.width * r.height)), 2)})`);
  out.push(`- **Speedup without this machine in it**: ${cpu.join(', ')}. With cycles that scale linearly the SM-cycle speedup is 1 / the traced fraction (each group simulates its traced pixels on its share of the SMs); it is higher where the groups run faster than the full GPU (cycles predicted low). The CPU speedup adds the heatmap's functional run and the per-launch costs of K + 1 simulations.`);
  return out.join('\n');
}
