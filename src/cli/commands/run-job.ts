/**
 * `vvision run-job --job-dir DIR ID`: runs one job of a job store in this process and leaves its
 * result (or its error) beside its spec. What a Slurm array task runs; usable by hand to rerun a
 * single sweep point or Zatel group.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliUsageError } from '../user-errors.js';

export function registerRunJobCommand(program: Command): void {
  program
    .command('run-job')
    .description('run one job of a job store (what each Slurm array task runs)')
    .requiredOption('--job-dir <dir>', 'the job store')
    .argument('<id>', 'job id (a folder under <job-dir>/jobs)')
    .option('--json', 'print the job\'s result (what it leaves in the store) as JSON')
    .action(async (id: string, raw: { jobDir: string; json?: boolean }) => {
      const { JobStore } = await import('../../driver/jobs/job-store.js');
      const { runSimJob } = await import('../../driver/jobs/run-job.js');
      const store = new JobStore(raw.jobDir);
      if (!/^[0-9a-f]{16}$/.test(id) || !existsSync(join(store.jobDir(id), 'spec.json'))) {
        throw new CliUsageError(`run-job: no job '${id}' in ${store.dir}/jobs`);
      }
      store.clearFailure(id);
      try {
        const result = await runSimJob(store.spec(id));
        store.writeResult(result);
        if (raw.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else process.stdout.write(`job ${id}: ${result.values.gpu_sim_cycle} cycles in ${result.wallSeconds.toFixed(1)} s\n`);
      } catch (e) {
        store.writeFailure(id, e instanceof Error ? e.message : String(e));
        throw e;
      }
    });
}
