/**
 * `vvision sweep [workload] --config <preset|file> --vary knob=v1,v2,... [--vary ...]`: the grid
 * of timing simulations in parallel worker threads, resumable (finished points come from the job
 * store), written as sweep.csv and an HTML page of charts against the first varied knob.
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import { checkOutputTarget, OutputDir } from '../output-dir.js';
import { addBackendOptions, parseBackend, type RawBackendOptions } from '../backend-options.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';
import { CliUsageError } from '../user-errors.js';

interface RawSweepOptions extends RawRunOptions, RawBackendOptions {
  json?: boolean;
  config: string;
  set: string[];
  vary: string[];
  jobDir: string;
}

export function registerSweepCommand(program: Command): void {
  addBackendOptions(addRunOptions(
    program
      .command('sweep')
      .description('a grid of timing simulations over configuration knobs, in parallel and resumable: sweep.csv and charts')
      .option('--config <preset|file>', 'base GPU configuration: baseline, mobile, treelet, predictor, rtx2060, or a gpgpusim.config file', 'mobile')
      .option('--set <key=value>', 'override one knob of the base configuration (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
      .option('--vary <knob=v1,v2,...>', "a dimension of the grid (repeatable): a configuration knob, limit=baseline,rt-cache,perfect-bvh,perfect-mem (Vulkan-Sim Fig. 15's limit studies), predictor=baseline,default,repack,repack-4,oracle-lookup,oracle-training,oracle-update (paper 002 Fig. 15 and Fig. 2), or treelets=baseline,virtualization,naive,no-repack,repack-16,repack-22,free-state (paper 001 Fig. 12, 13a)", (v: string, prev: string[]) => [...prev, v], [] as string[])
      .option('--job-dir <dir>', 'job store: finished points are kept here and not rerun', 'vvision-out/jobs')
      .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD),
  )).action(async (workload: string, raw: RawSweepOptions) => {
    const { jobRunOptions } = await import('../../driver/jobs/job-spec.js');
    const { runSweep, sweepCsv, sweepLabel } = await import('../../driver/sweep/run-sweep.js');
    const { STUDY_BUNDLES } = await import('../../driver/sweep/study-bundles.js');
    const { parseVary } = await import('../../driver/sweep/sweep-grid.js');
    const { writeSweepReport } = await import('../../report/write-sweep-report.js');
    const { STAT_META } = await import('../../sim/timing/index.js');
    const { jobProgressDisplay } = await import('../job-progress.js');
    if (raw.out !== undefined) checkOutputTarget(raw.out);
    if (raw.vary.length === 0) throw new CliUsageError('sweep: give at least one --vary knob=v1,v2,...');
    const dims = raw.vary.map(parseVary);
    const backend = await parseBackend(raw);
    const run = parseRunOptions(raw);
    const total = dims.reduce((n, d) => n * d.values.length, 1);
    // Bars are labelled by the point (`gpgpu_rt_max_warps=4`), not by the job's hash.
    const labels = new Map<string, string>();
    const bars = jobProgressDisplay(total, (id) => labels.get(id) ?? id.slice(0, 8));
    let r;
    try {
      r = await runSweep({
        workload, config: raw.config, overrides: raw.set, run: jobRunOptions(run as Record<string, unknown>), dims,
        backend, jobDir: raw.jobDir, progress: bars, labels,
      });
    } finally {
      bars.stop();
    }
    const configName = basename(raw.config).replace(/(\.gpgpusim)?\.config$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const name = basename(workload).replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const out = new OutputDir(raw.out ?? `vvision-out/${name}-sweep-${configName}`);
    try {
      out.write('sweep.csv', sweepCsv(r));
      const { portablePath } = await import('../../report/portable-path.js');
      writeSweepReport(out, {
        workload: portablePath(workload, process.cwd()), config: raw.config, params: r.params, dims: r.dims,
        rows: r.rows.map((x) => ({ values: x.point.values, metrics: x.values, speedup: x.speedup, wallSeconds: x.wallSeconds })), meta: STAT_META, barKnobs: Object.keys(STUDY_BUNDLES),
      });
      const dir = out.commit();
      if (raw.json) {
        process.stdout.write(`${JSON.stringify({
          workload, config: raw.config, params: r.params, ran: r.ran, reused: r.reused, out: dir,
          points: r.rows.map((x) => ({ label: sweepLabel(r.dims, x.point), values: Object.fromEntries(r.dims.map((d, i) => [d.knob, x.point.values[i]])), speedup: x.speedup, wallSeconds: x.wallSeconds, metrics: x.values })),
        }, null, 2)}\n`);
        return;
      }
      const lines = r.rows.map((x) => `  ${sweepLabel(r.dims, x.point).padEnd(40)} ${String(x.values.gpu_sim_cycle ?? '').padStart(10)} cycles  IPC ${(x.values.gpu_ipc ?? 0).toFixed(2).padStart(7)}  DRAM eff ${(100 * (x.values.dram_eff ?? 0)).toFixed(1).padStart(5)}%  util ${(100 * (x.values.bwutil ?? 0)).toFixed(1).padStart(5)}%  speedup ${x.speedup.toFixed(3)}`);
      process.stdout.write(`sweep of ${workload} on ${raw.config}: ${r.rows.length} points (${r.ran} simulated${backend.name === 'local' ? '' : ` on ${backend.name}`}, ${r.reused} reused from ${raw.jobDir})\n${lines.join('\n')}\nreport: ${dir}/index.html\n`);
    } catch (e) {
      out.abandon();
      throw e;
    }
  });
}
