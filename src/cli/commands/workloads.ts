/** `vvision workloads`: lists the built-in workloads (name, description). */
import type { Command } from 'commander';
import { DEFAULT_WORKLOAD, listBuiltinWorkloads } from '../../sim/workload/load-manifest.js';

export function registerWorkloadsCommand(program: Command): void {
  program
    .command('workloads')
    .description('list the built-in workloads')
    .option('--json', 'print as JSON')
    .action((opts: { json?: boolean }) => {
      const list = listBuiltinWorkloads();
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
