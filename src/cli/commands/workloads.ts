/**
 * `vvision workloads`: lists the built-in workloads (name, description) and the calibration
 * workloads generated from the shared folder; `--manifest NAME` prints the manifest a workload
 * name stands for (for a generated one, the manifest its generator writes).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';

export function registerWorkloadsCommand(program: Command): void {
  program
    .command('workloads')
    .description('list the built-in workloads and the calibration workloads (real applications whose data is read from ../shared/calibration or VVISION_CALIBRATION_DIR)')
    .option('--json', 'print as JSON')
    .option('--manifest <name>', 'print the workload.json a workload name stands for')
    .action(async (opts: { json?: boolean; manifest?: string }) => {
      const { listBuiltinWorkloads, listCalibrationWorkloads, resolveWorkload } = await import('../../sim/workload/load-manifest.js');
      if (opts.manifest !== undefined) {
        process.stdout.write(readFileSync(resolveWorkload(opts.manifest), 'utf8'));
        return;
      }
      const list = [...listBuiltinWorkloads().map(({ name, description }) => ({ name, description })), ...listCalibrationWorkloads()];
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const width = Math.max(...list.map((w) => w.name.length));
      const missing = list.filter((w) => 'installed' in w && !w.installed);
      for (const w of list) {
        // Where the calibration data is missing, how to get it is said once, below the list.
        const description = missing.includes(w) ? `${w.description.replace(/ \(data not installed: .*\)$/s, '')} (data not installed)` : w.description;
        process.stdout.write(`${w.name.padEnd(width)}  ${description}${w.name === DEFAULT_WORKLOAD ? ' (default)' : ''}\n`);
      }
      if (missing.length > 0) {
        const { calibrationDataHint } = await import('../../sim/workload/lumibench-wknd.js');
        const { calibrationDir } = await import('../../sim/workload/load-manifest.js');
        process.stdout.write(`\ncalibration data not installed: ${calibrationDataHint(calibrationDir())}\n`);
      }
    });
}
