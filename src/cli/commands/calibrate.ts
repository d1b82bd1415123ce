/**
 * `vvision calibrate [--config FILE] [--set k=v]... [--json]`: runs the LumiBench WKND frame at
 * each size Vulkan-Sim measured and prints every SUMMARY.tsv figure beside Vulkan-Sim's, with the
 * ratio and whether it meets the calibration target.
 */
import type { Command } from 'commander';
import { progressReporter } from '../progress.js';
import type { CalibrationResult } from '../../driver/calibrate.js';

interface RawCalibrateOptions {
  config?: string;
  set: string[];
  json?: boolean;
}

export function registerCalibrateCommand(program: Command): void {
  program
    .command('calibrate')
    .description("the LumiBench WKND frame at Vulkan-Sim's measured sizes, each figure beside Vulkan-Sim's with the ratio")
    .option('--config <preset|file>', "GPU configuration (default: Vulkan-Sim's SM75_RTX2060.gpgpusim.config beside its results)")
    .option('--set <key=value>', 'override one configuration knob (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--json', 'print the results as JSON')
    .action(async (raw: RawCalibrateOptions) => {
      const { calibrateRun, FRAME_BAR, readReferenceRuns } = await import('../../driver/calibrate.js');
      const results: CalibrationResult[] = [];
      const progress = progressReporter();
      for (const ref of readReferenceRuns()) {
        const r = await calibrateRun(ref, raw.config, raw.set, (cycle, done, total) => {
          progress.message(`${ref.run}: cycle ${cycle.toLocaleString('en-US')}, ${done}/${total} warps done`);
        });
        progress.done();
        results.push(r);
        if (!raw.json) process.stdout.write(formatCalibration(r, FRAME_BAR));
      }
      if (raw.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    });
}

/** `frameBar`: the fraction of differing pixels the frame may have (driver/calibrate.ts FRAME_BAR). */
export function formatCalibration(r: CalibrationResult, frameBar: number): string {
  const ref = r.reference;
  const fmt = (x: number): string => (Number.isInteger(x) ? x.toLocaleString('en-US') : x.toFixed(4));
  const lines = [`${ref.run} (${ref.width}x${ref.height}, ${ref.spp} spp)`];
  lines.push(`  ${'figure'.padEnd(27)} ${'Vulkan-Sim'.padStart(12)} ${'vvision'.padStart(12)} ${'ratio'.padStart(7)}  target`);
  for (const row of r.rows) {
    const target = row.target
      ? `${row.target.kind === 'absolute' ? `±${row.target.tolerance} abs` : row.target.kind === 'factor' ? `within ${row.target.tolerance}x` : `±${row.target.tolerance * 100}%`} ${row.withinTarget ? 'met' : 'MISSED'}`
      : '';
    lines.push(`  ${row.figure.padEnd(27)} ${fmt(row.vulkanSim).padStart(12)} ${fmt(row.vvision).padStart(12)} ${row.ratio.toFixed(3).padStart(7)}  ${target}`);
  }
  if (r.frame) {
    lines.push(`  frame: ${r.frame.differing} of ${r.frame.pixels} pixels differ from Vulkan-Sim's by more than 2/255 (${(100 * r.frame.fraction).toFixed(2)}%; bar ${(100 * frameBar).toFixed(1)}%: ${r.frame.fraction <= frameBar ? 'met' : 'MISSED'})`);
  }
  lines.push(`  wall ${r.wallSeconds.toFixed(1)} s (Vulkan-Sim ${ref.wallSeconds.toFixed(0)} s), CPU ${r.cpuSeconds.toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB (Vulkan-Sim ${ref.maxRssMb} MB)`);
  return `${lines.join('\n')}\n\n`;
}
