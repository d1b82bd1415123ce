/**
 * `vvision sim [workload|manifest] --config <preset|file> [--set key=value]...`: the workload on
 * the cycle-level timing model; writes stats.json, stats.txt (Vulkan-Sim `name = value` dump),
 * image.png and an HTML page of the Vulkan-Sim figures.
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { SimulationResult } from '../../driver/simulate-workload.js';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import { checkOutputTarget, OutputDir } from '../output-dir.js';
import { progressReporter } from '../progress.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';
import { addTimelineOptions, parseTimelineOptions, writeTimeline, writeTimelineOfFailedRun, type PendingTimeline, type RawTimelineOptions } from '../timeline-output.js';

interface RawSimOptions extends RawRunOptions, RawTimelineOptions {
  keepAlpha?: boolean;
  config: string;
  set: string[];
  treelets?: boolean;
  predictor?: boolean;
}

/** `--treelets`: paper 001's virtualized treelet queues with the paper's defaults (params.ts `rt_treelet_*`). */
export const TREELET_OVERRIDES = ['rt_ray_virtualization=1', 'rt_treelet_queues=1'] as const;

export function registerSimCommand(program: Command): void {
  addTimelineOptions(addRunOptions(
    program
      .command('sim')
      .description('simulate a workload on the cycle-level GPU + RT-unit timing model')
      .option('--config <preset|file>', 'GPU configuration: baseline, mobile, treelet, predictor, rtx2060, or a gpgpusim.config file', 'mobile')
      .option('--set <key=value>', 'override one configuration knob (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
      .option('--treelets', 'virtualized treelet queues (Treelet Accelerated Ray Tracing, paper 001) with the paper\'s defaults: rt_ray_virtualization=1 rt_treelet_queues=1 (--set overrides any rt_treelet_* knob)')
      .option('--predictor', 'ray intersection predictor with the paper\'s defaults (paper 002; same as --set gpgpu_rt_predictor=1, tune with --set gpgpu_rt_predictor_*; with --treelets add --set gpgpu_rt_predictor_repack=0: the treelet controller forms the warps)')
      .option('--keep-alpha', 'write the shader\'s alpha into image.png (default: opaque)')
      .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD),
  )).action(async (workload: string, raw: RawSimOptions) => {
    const { simulateWorkload, timelineOfFailedRun } = await import('../../driver/simulate-workload.js');
    const { imageToPng } = await import('../../sim/host/image-png.js');
    const { formatStats, STAT_META } = await import('../../sim/timing/index.js');
    const { writeSimReport } = await import('../../report/write-sim-report.js');
    const { formatConfigIgnored, loadIgnoredEffects } = await import('../../sim/config/ignored-effects.js');
    if (raw.out !== undefined) checkOutputTarget(raw.out);
    const timelineOpts = parseTimelineOptions(raw);
    const progress = progressReporter();
    let r: SimulationResult;
    try {
      r = await simulateWorkload(workload, {
        ...parseRunOptions(raw), config: raw.config, overrides: [...(raw.treelets ? TREELET_OVERRIDES : []), ...(raw.predictor ? ['gpgpu_rt_predictor=1'] : []), ...raw.set],
        ...(timelineOpts !== undefined ? { timeline: timelineOpts } : {}),
        onProgress: (cycle, done, total, frame, frames) => progress.message(
          `${frames > 1 ? `frame ${frame}/${frames - 1}, ` : ''}cycle ${cycle.toLocaleString('en-US')}: ${done}/${total} warps done`,
        ),
      });
    } catch (e) {
      // A deadlocked run has no outputs, but its timeline shows where each warp was stuck.
      const stuck = timelineOfFailedRun(e);
      if (stuck !== undefined) {
        progress.done();
        process.stderr.write(writeTimelineOfFailedRun(raw.timeline!, stuck, { workload, config: raw.config }));
      }
      throw e;
    }
    progress.done();
    const p = r.prepared;
    // A config file names the folder by its base name (SM75_RTX2060.gpgpusim.config -> SM75_RTX2060).
    const configName = basename(raw.config).replace(/(\.gpgpusim)?\.config$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const out = new OutputDir(raw.out ?? `vvision-out/${p.manifest.name}-sim-${configName}`);
    let timeline: PendingTimeline | undefined;
    try {
      const image = p.host.output;
      if (image) out.write('image.png', imageToPng(image, { keepAlpha: raw.keepAlpha === true }));
      out.write('stats.txt', formatStats(r.stats));
      if (r.config.ignored.length > 0) {
        out.write('config-ignored.txt', formatConfigIgnored(raw.config, r.config.ignored, loadIgnoredEffects()));
      }
      const perFrame = r.frames.length > 1 ? { per_frame: r.frames.map((f) => ({ frame: f.frame, ...(f.flush ? { flush: f.flush } : {}), values: f.stats.values })) } : {};
      out.write('stats.json', `${JSON.stringify({ workload: p.manifest.name, params: p.params, ...r.stats, ...perFrame }, null, 2)}\n`);
      // Multi-frame runs: stats.txt is the whole run; each frame's own dump beside it.
      if (r.frames.length > 1) for (const f of r.frames) out.write(`frames/frame-${String(f.frame).padStart(3, '0')}.stats.txt`, formatStats(f.stats));
      writeSimReport(out, {
        workload: p.manifest.name, params: p.params, stats: r.stats, meta: STAT_META, hasImage: image !== undefined,
        ...(r.frames.length > 1 ? { frames: r.frames.map((f) => f.stats.values) } : {}),
      });
      if (r.timeline !== undefined) timeline = writeTimeline(raw.timeline!, r.timeline, { workload: p.manifest.name, config: r.stats.config, params: p.params }, out);
      const dir = out.commit();
      const timelinePath = timeline?.commit();
      const v = r.stats.values;
      if (raw.json) {
        process.stdout.write(`${JSON.stringify({
          workload: p.manifest.name, config: raw.config, params: p.params, out: dir, report: `${dir}/index.html`, wallSeconds: r.wallMs / 1000,
          configIgnored: r.config.ignored, ...(timelinePath !== undefined ? { timeline: timelinePath } : {}), stats: r.stats.values,
          ...(r.frames.length > 1 ? { perFrame: r.frames.map((f) => ({ frame: f.frame, stats: f.stats.values })) } : {}),
        }, null, 2)}\n`);
        return;
      }
      if (r.frames.length > 1) {
        process.stdout.write(r.frames.map((f) => `frame ${f.frame}: ${f.stats.values.gpu_sim_cycle} cycles, IPC ${f.stats.values.gpu_ipc?.toFixed(2)}, ` +
          `L1D miss rate ${f.stats.values.L1D_total_cache_miss_rate?.toFixed(4)}, L2 miss rate ${f.stats.values.L2_total_cache_miss_rate?.toFixed(4)}\n`).join(''));
      }
      process.stdout.write(
        `${p.manifest.name}${r.frames.length > 1 ? ` (${r.frames.length} frames)` : ''} on ${raw.config}: ${v.gpu_sim_cycle} cycles, IPC ${v.gpu_ipc?.toFixed(2)}, ${v.gpu_sim_insn} thread instructions, ` +
          `${(r.wallMs / 1000).toFixed(1)} s (${Math.round((v.gpu_sim_cycle ?? 0) / (r.wallMs / 1000)).toLocaleString('en-US')} cycles/s)\n` +
          (r.config.ignored.length > 0 ? `config: ${r.config.ignored.length} GPGPU-Sim options not modelled, listed with their measured effect and reason in ${dir}/config-ignored.txt\n` : '') +
          `report: ${dir}/index.html\n`,
      );
      if (timeline !== undefined) {
        const msg = timeline.report(timelinePath!);
        process.stdout.write(msg.stdout);
        process.stderr.write(msg.stderr);
      }
    } catch (e) {
      out.abandon();
      timeline?.abandon();
      throw e;
    }
  });
}
