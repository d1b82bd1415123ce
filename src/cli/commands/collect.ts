/**
 * `vvision collect DIR`: finishes a command whose jobs ran elsewhere (a Slurm batch written or
 * submitted by `--backend slurm`): reruns the command recorded in DIR/batch.json with `--backend
 * collect`, which simulates nothing and uses the finished results in the job store. Missing or
 * failed jobs are listed with their error and Slurm log, and the command exits 1 without output.
 */
import type { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliUsageError } from '../user-errors.js';

/** The recorded argv with the backend set to collect and the Slurm-only options dropped. */
export function collectArgv(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--backend' || a === '--sbatch') {
      i++;
      continue;
    }
    if (a.startsWith('--backend=') || a.startsWith('--sbatch=') || a === '--no-submit') continue;
    out.push(a);
  }
  return [...out, '--backend', 'collect'];
}

export function registerCollectCommand(program: Command): void {
  program
    .command('collect')
    .description('finish a sweep or Zatel run whose jobs ran on Slurm, from the results in its job store')
    .argument('<dir>', 'a Slurm batch folder (<job-dir>/slurm/<batch>, printed by --backend slurm)')
    .option('--json', 'print the results as JSON (as the recorded command\'s --json does)')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const { vvisionCommandLine } = await import('../../driver/jobs/slurm-backend.js');
      const file = join(resolve(dir), 'batch.json');
      if (!existsSync(file)) throw new CliUsageError(`collect: ${file} does not exist (give the batch folder --backend slurm printed)`);
      let batch: { command?: { argv?: unknown; cwd?: unknown } };
      try {
        batch = JSON.parse(readFileSync(file, 'utf8')) as typeof batch;
      } catch (e) {
        throw new CliUsageError(`collect: ${file} is not valid JSON (${(e as Error).message})`);
      }
      const argv = batch.command?.argv;
      const cwd = batch.command?.cwd;
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string') || typeof cwd !== 'string') {
        throw new CliUsageError(`collect: ${file}: 'command' must have 'argv' (strings) and 'cwd'`);
      }
      const [node, ...rest] = vvisionCommandLine();
      const args = collectArgv(argv);
      if (opts.json && !args.includes('--json')) args.push('--json');
      const r = spawnSync(node!, [...rest, ...args], { cwd, stdio: 'inherit' });
      process.exitCode = r.status ?? 1;
    });
}
