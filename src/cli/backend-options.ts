/**
 * The options that choose where a job list runs, shared by `sweep` and `zatel`: `--backend
 * local|slurm|collect`, `--jobs N` (local workers), and for Slurm `--no-submit` (only write the
 * array script) and `--sbatch <option>` (extra #SBATCH lines, repeatable).
 */
import type { Command } from 'commander';
import type { JobBackend } from '../driver/jobs/backend.js';
import { CliUsageError } from './user-errors.js';

export interface RawBackendOptions {
  backend: string;
  jobs?: string;
  submit: boolean;
  sbatch: string[];
}

export function addBackendOptions(cmd: Command): Command {
  return cmd
    .option('--backend <local|slurm|collect>', 'local: worker threads here (default); slurm: one sbatch --array over the pending jobs, results through the shared job store; collect: run nothing, use finished results only', 'local')
    .option('--jobs <n>', 'local backend: simulations run at once (default: one per core)')
    .option('--no-submit', 'slurm backend: only write the array script and the job list (submit it yourself, then vvision collect)')
    .option('--sbatch <option>', 'slurm backend: an extra #SBATCH option, e.g. --sbatch=--partition=gpu (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[]);
}

export function parseJobs(raw: RawBackendOptions): number | undefined {
  if (raw.jobs === undefined) return undefined;
  const n = Number(raw.jobs);
  if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`--jobs: expected a positive integer, got '${raw.jobs}'`);
  return n;
}

/** The job backend the options name; its module is imported here, not at the CLI's start (issue 25). */
export async function parseBackend(raw: RawBackendOptions): Promise<JobBackend> {
  const jobs = parseJobs(raw);
  switch (raw.backend) {
    case 'local':
      return (await import('../driver/jobs/backend.js')).localBackend(jobs);
    case 'slurm':
      return (await import('../driver/jobs/slurm-backend.js')).slurmBackend({ submit: raw.submit, sbatchOptions: raw.sbatch, command: { argv: process.argv.slice(2), cwd: process.cwd() } });
    case 'collect':
      return (await import('../driver/jobs/backend.js')).collectBackend();
    default:
      throw new CliUsageError(`--backend: expected local, slurm or collect, got '${raw.backend}'`);
  }
}
