/**
 * `vvision zatel [workload] --config <preset|file> [--k N] [--fraction auto|P] [--division
 * fine|coarse] [--distribution uniform|temperature|temperature5] [--extrapolation
 * linear|exponential] [--jobs N] [--validate]`: Zatel's scale-model prediction of a full timing
 * simulation (paper 004), printed and written as predicted.json, the heatmaps, the chosen pixels,
 * an HTML page, and with --validate the full simulation beside it (validation.json).
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { Extrapolation } from '../../driver/zatel/combine.js';
import type { Division } from '../../driver/zatel/division.js';
import type { DramRows } from '../../driver/zatel/downscale.js';
import type { Balance, Distribution } from '../../driver/zatel/representative-pixels.js';
import type { MetricValidation, ZatelResult } from '../../driver/zatel/run-zatel.js';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import { checkOutputTarget, OutputDir } from '../output-dir.js';
import { progressReporter } from '../progress.js';
import { addBackendOptions, parseBackend, parseJobs, type RawBackendOptions } from '../backend-options.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';
import { CliUsageError } from '../user-errors.js';

interface RawZatelOptions extends RawRunOptions, RawBackendOptions {
  config: string;
  set: string[];
  k?: string;
  dramRows: string;
  fraction: string;
  division: string;
  distribution: string;
  balance: string;
  filterCorrection: boolean;
  extrapolation: string;
  clusters: string;
  selectSeed: string;
  jobDir: string;
  validate?: boolean;
}

function oneOf<T extends string>(name: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new CliUsageError(`--${name}: expected ${allowed.join(', ')}, got '${v}'`);
  return v as T;
}

function positiveInt(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`--${name}: expected a positive integer, got '${v}'`);
  return n;
}

export function registerZatelCommand(program: Command): void {
  addBackendOptions(addRunOptions(
    program
      .command('zatel')
      .description("Zatel scale-model simulation (paper 004): predict a full timing simulation from K downscaled runs of representative pixels, in parallel")
      .option('--config <preset|file>', 'target GPU configuration: baseline, mobile, treelet, predictor, rtx2060, or a gpgpusim.config file', 'mobile')
      .option('--set <key=value>', 'override one configuration knob of the target (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
      .option('--k <n>', 'downscaling factor and number of groups (default: gcd of SMs and memory partitions)')
      .option('--dram-rows <target|own>', "DRAM row layout of the downscaled GPU: target (default) decodes bank and row as the target's channels do (zatel_target_n_mem), so a row holds what a target row holds; own: the paper's downscaling (only the SM and partition counts change), whose fewer channels each take more neighbouring address chunks into a row", 'target')
      .option('--fraction <auto|P>', "traced pixels per group: auto = eq. 1 bounded to [0.3, 0.6]; a number P in (0, 1] caps it (the paper's 'up to 10%' is 0.1)", 'auto')
      .option('--division <fine|coarse>', 'fine: 32x2 chunks dealt round-robin (default); coarse: K rectangles', 'fine')
      .option('--distribution <uniform|temperature|temperature5>', 'colour distribution of the chosen blocks: uniform (default), eq. 2, or eq. 3 (fifth power)', 'uniform')
      .option('--balance <rows|cost|none>', "rows (default): swap section blocks until the chosen pixels' heatmap cost share is within 1% of their pixel share, so instruction counts extrapolate exactly, then until their 32-pixel rows are as uniform in cost as the group's (within 1%), so the traced warps' RT efficiency is the group's; cost: the cost balance alone; none: the paper's random draw", 'rows')
      .option('--no-filter-correction', "extrapolate the groups' counts with the pixel filter's own instructions in them (the paper's accounting); by default a filter-only run's counts are subtracted first")
      .option('--extrapolation <linear|exponential>', 'linear (default) or exponential regression over three runs at 20/30/40% (Sec. III-G)', 'linear')
      .option('--clusters <n>', 'K-means colours of the quantised heatmap', '5')
      .option('--select-seed <n>', 'seed of the section-block selection and K-means', '1')
      .option('--job-dir <dir>', 'job store: finished simulations are kept here and reused', 'vvision-out/jobs')
      .option('--validate', 'also simulate the full frame and report the error per metric and the speedup (validation.json)')
      .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD),
  )).action(async (workload: string, raw: RawZatelOptions) => {
    // The options first, in the order they were always checked: a bad one fails before the
    // simulator and the report writer are loaded.
    if (raw.out !== undefined) checkOutputTarget(raw.out);
    const run = parseRunOptions(raw);
    const fraction = raw.fraction === 'auto' ? 'auto' as const : Number(raw.fraction);
    if (fraction !== 'auto' && !(fraction > 0 && fraction <= 1)) throw new CliUsageError(`--fraction: expected auto or a number in (0, 1], got '${raw.fraction}'`);
    const clusters = positiveInt('clusters', raw.clusters);
    if (clusters > 255) throw new CliUsageError(`--clusters: at most 255, got ${clusters}`);
    const options = {
      ...(raw.k !== undefined ? { k: positiveInt('k', raw.k) } : {}),
      dramRows: oneOf<DramRows>('dram-rows', raw.dramRows, ['target', 'own']),
      fraction,
      division: oneOf<Division>('division', raw.division, ['fine', 'coarse']),
      distribution: oneOf<Distribution>('distribution', raw.distribution, ['uniform', 'temperature', 'temperature5']),
      balance: oneOf<Balance>('balance', raw.balance, ['rows', 'cost', 'none']),
      filterCorrection: raw.filterCorrection,
      extrapolation: oneOf<Extrapolation>('extrapolation', raw.extrapolation, ['linear', 'exponential']),
      clusters, seed: positiveInt('select-seed', raw.selectSeed),
      ...(parseJobs(raw) !== undefined ? { jobs: parseJobs(raw)! } : {}),
    };
    const { jobRunOptions } = await import('../../driver/jobs/job-spec.js');
    const { TABLE_I_METRICS } = await import('../../driver/zatel/combine.js');
    const { chosenPixelsPng, heatmapPng, quantisedHeatmapPng } = await import('../../driver/zatel/heatmap.js');
    const { runZatel, validationJson } = await import('../../driver/zatel/run-zatel.js');
    const { writeZatelReport } = await import('../../report/write-zatel-report.js');
    const { STAT_META } = await import('../../sim/timing/index.js');
    const { jobProgressDisplay } = await import('../job-progress.js');
    const phase = progressReporter();
    // Bars are labelled by what each job simulates (`group 3 (12%)`), not by the job's hash.
    const labels = new Map<string, string>();
    const bars = jobProgressDisplay(0, (id) => labels.get(id) ?? id.slice(0, 8));
    let r: ZatelResult;
    try {
      r = await runZatel({
        workload, config: raw.config, overrides: raw.set, run: jobRunOptions(run as Record<string, unknown>),
        ...options, backend: await parseBackend(raw),
        jobDir: raw.jobDir, validate: raw.validate === true, progress: bars, labels,
        onPhase: (text) => phase.message(text),
      });
    } finally {
      bars.stop();
      phase.done();
    }
    const configName = basename(raw.config).replace(/(\.gpgpusim)?\.config$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const name = basename(workload).replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const out = new OutputDir(raw.out ?? `vvision-out/${name}-zatel-${configName}`);
    const { portablePath } = await import('../../report/portable-path.js');
    const shownWorkload = portablePath(workload, process.cwd()); // the report names no machine's absolute path
    try {
      out.write('heatmap.png', heatmapPng(r.heatmap));
      out.write('heatmap-quantised.png', quantisedHeatmapPng(r.heatmap));
      out.write('chosen-pixels.png', chosenPixelsPng(r.heatmap, r.traced));
      out.write('predicted.json', `${JSON.stringify({ workload: shownWorkload, config: raw.config, k: r.downscaling.k, metrics: r.predicted, timing: r.timing, wavesPerGroup: r.wavesPerGroup, costRatios: r.costRatios, uniformityRatios: r.uniformityRatios, warnings: r.warnings }, null, 2)}\n`);
      if (raw.json) for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
      out.write('groups.csv', `group,pixels,traced_fraction,job\n${r.groups.flatMap((g) => g.runs.map((x) => `${g.index},${g.pixels},${x.selection.fraction.toFixed(6)},${x.jobId}`)).join('\n')}\n`);
      if (r.validation) out.write('validation.json', validationJson(r.validation));
      writeZatelReport(out, {
        workload: shownWorkload, config: raw.config, params: { width: r.width, height: r.height, spp: run.spp ?? 1 }, k: r.downscaling.k,
        downscaled: { sms: r.downscaling.sms, partitions: r.downscaling.partitions },
        settings: {
          k: r.downscaling.k, 'DRAM rows': raw.dramRows, fraction: String(fraction), division: raw.division, distribution: raw.distribution,
          extrapolation: raw.extrapolation, balance: raw.balance, clusters, 'select seed': raw.selectSeed,
        },
        tableI: TABLE_I_METRICS, predicted: r.predicted,
        groups: r.groups.map((g) => ({ index: g.index, pixels: g.pixels, fractions: g.runs.map((x) => x.selection.fraction), cycles: g.estimate.gpu_sim_cycle ?? 0 })),
        timing: r.timing, meta: STAT_META,
        ...(r.validation ? { validation: r.validation } : {}),
      });
      const dir = out.commit();
      if (raw.json) {
        process.stdout.write(`${JSON.stringify({
          workload, config: raw.config, k: r.downscaling.k, sms: r.downscaling.sms, partitions: r.downscaling.partitions,
          tracedFraction: r.traced.size / (r.width * r.height), predicted: r.predicted, timing: r.timing, warnings: r.warnings,
          ...(r.validation ? { validation: JSON.parse(validationJson(r.validation)) as unknown } : {}), out: dir, report: `${dir}/index.html`,
        }, null, 2)}\n`);
        return;
      }
      process.stdout.write(formatZatel(r, TABLE_I_METRICS) + `report: ${dir}/index.html\n`);
    } catch (e) {
      out.abandon();
      throw e;
    }
  });
}

export function formatZatel(r: ZatelResult, tableI: readonly string[]): string {
  const v = r.validation;
  const fmt = (x: number) => (Number.isInteger(x) ? x.toLocaleString('en-US') : Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(4));
  const lines = [
    `Zatel: K = ${r.downscaling.k} groups on ${r.downscaling.sms} SMs / ${r.downscaling.partitions} partition(s) each, ` +
      `traced ${(100 * r.traced.size / (r.width * r.height)).toFixed(1)}% of ${r.width}x${r.height} pixels`,
    `  ${'metric'.padEnd(27)} ${'predicted'.padStart(14)}${v ? ` ${'full'.padStart(14)} ${'error'.padStart(8)}` : ''}`,
  ];
  for (const n of tableI) {
    const p = r.predicted[n];
    if (p === undefined) continue;
    const m = v?.metrics[n];
    lines.push(`  ${n.padEnd(27)} ${fmt(p).padStart(14)}${m ? ` ${fmt(m.full).padStart(14)} ${`${(100 * m.relativeError).toFixed(2)}%`.padStart(8)}` : ''}`);
  }
  const t = r.timing;
  lines.push(`  wall: heatmap ${t.heatmapSeconds.toFixed(1)} s + groups ${t.groupsSeconds.toFixed(1)} s = ${t.totalSeconds.toFixed(1)} s${t.groupsTiming === 'measured' ? '' : ` (${t.groupsTiming})`}`);
  lines.push(`  CPU: heatmap ${t.heatmapCpuSeconds.toFixed(1)} s + groups ${t.groupsCpuSeconds.toFixed(1)} s (summed over workers); simulated ${t.groupsSmCycles.toLocaleString('en-US')} SM-cycles`);
  if (v) {
    lines.push(`  full simulation ${v.fullWallSeconds.toFixed(1)} s: speedup ${v.speedup.toFixed(2)}x (${v.speedupExcludingHeatmap.toFixed(2)}x without the heatmap)`);
    lines.push(`  machine-independent: CPU ${v.fullCpuSeconds.toFixed(1)} s / ${v.zatelCpuSeconds.toFixed(1)} s = ${v.cpuSpeedup.toFixed(2)}x (${v.cpuSpeedupExcludingHeatmap.toFixed(2)}x without the heatmap); ` +
      `SM-cycles ${v.fullSmCycles.toLocaleString('en-US')} / ${v.zatelSmCycles.toLocaleString('en-US')} = ${v.smCycleSpeedup.toFixed(2)}x`);
  }
  const factors = efficiencyFactors(r.validation?.metrics);
  if (factors !== undefined) lines.push(factors);
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Where rt_avg_efficiency is predicted more than 10% off: its error by the two factors of a warp's
 * efficiency, the lanes that trace together (which pixels are traced) and how nearly together
 * they finish (the group runs' timing).
 */
export function efficiencyFactors(m: Readonly<Record<string, MetricValidation>> | undefined): string | undefined {
  const eff = m?.rt_avg_efficiency;
  const f = m?.rt_avg_warp_ray_fraction;
  const u = m?.rt_avg_warp_latency_uniformity;
  if (eff === undefined || f === undefined || u === undefined || !(eff.relativeError > 0.1) || f.full === 0 || u.full === 0) return undefined;
  const signed = (x: MetricValidation) => {
    const e = 100 * (x.predicted / x.full - 1);
    return `${e >= 0 ? '+' : ''}${e.toFixed(1)}%`;
  };
  return `  rt_avg_efficiency ${signed(eff)} by its factors: rt_avg_warp_ray_fraction ${signed(f)} (the lanes per trace: which pixels are traced), ` +
    `rt_avg_warp_latency_uniformity ${signed(u)} (how nearly together a trace's rays finish: the group runs' timing)`;
}
