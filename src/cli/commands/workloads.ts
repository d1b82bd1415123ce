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
    .description('list the built-in workloads and the calibration workloads (real applications read from ../shared/calibration)')
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
      for (const w of list) {
        process.stdout.write(`${w.name.padEnd(width)}  ${w.description}${w.name === DEFAULT_WORKLOAD ? ' (default)' : ''}\n`);
      }
    });
}
