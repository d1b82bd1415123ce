/**
 * The Slurm backend: the pending jobs of a list become one `sbatch --array` job whose task i runs
 * `vvision run-job --job-dir <store> <id i>` on any node that shares the job store's filesystem;
 * results land in the store as with the local backend. The batch folder
 * (`<store>/slurm/<batch>/`) holds the script, the id list, the tasks' logs and `batch.json` (the
 * command that made it, so `vvision collect <batch>` can finish that command later).
 *
 * Submitting waits for the array by polling the store and `squeue`; a task that leaves the queue
 * without a result (killed, node lost, out of time) is reported with its log. Running the same
 * command again submits only the jobs still without a result.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { JobBackend, JobProgressHooks } from './backend.js';
import { writeFileAtomic, type JobStore } from './job-store.js';
import type { LocalRunSummary } from './local-backend.js';

export interface SlurmBackendOptions {
  /** false: only write the script and the id list (`--no-submit`). */
  submit: boolean;
  /** Extra `#SBATCH` options, e.g. `--partition=gpu`, `--time=02:00:00`. */
  sbatchOptions: string[];
  /** The command line that made the batch (for `vvision collect`), and where it ran. */
  command: { argv: string[]; cwd: string };
  /** Poll interval while waiting (ms). */
  pollMs?: number;
}

export interface SlurmBatch {
  dir: string;
  script: string;
  ids: string[];
  slurmJobId?: string;
}

/** Raised instead of running when the batch was only written (`--no-submit`): not an error. */
export class JobsDeferred extends Error {
  constructor(readonly batch: SlurmBatch) {
    super(
      `wrote a Slurm array of ${batch.ids.length} job(s): ${batch.script}\n` +
        `submit it with: sbatch ${batch.script}\nthen finish with: vvision collect ${batch.dir}`,
    );
    this.name = 'JobsDeferred';
  }
}

export class SlurmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlurmError';
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `node [--import tsx] <vvision cli>`: the same vvision that is running now, from source or built. */
export function vvisionCommandLine(): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const cli = fileURLToPath(new URL(`../../cli/main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  return fromSource ? [process.execPath, '--import', import.meta.resolve('tsx'), cli] : [process.execPath, cli];
}

export function writeSlurmBatch(store: JobStore, ids: readonly string[], o: SlurmBackendOptions): SlurmBatch {
  const batchId = createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 12);
  const dir = join(store.dir, 'slurm', batchId);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileAtomic(join(dir, 'jobs.txt'), `${ids.join('\n')}\n`);
  const script = join(dir, 'array.sbatch');
  const run = [...vvisionCommandLine(), 'run-job', '--job-dir', store.dir].map(quote).join(' ');
  const lines = [
    '#!/bin/bash',
    `#SBATCH --job-name=vvision-${batchId}`,
    `#SBATCH --array=0-${ids.length - 1}`,
    `#SBATCH --output=${join(dir, 'logs', '%A_%a.out')}`,
    `#SBATCH --error=${join(dir, 'logs', '%A_%a.err')}`,
    '#SBATCH --cpus-per-task=1',
    ...o.sbatchOptions.map((x) => `#SBATCH ${x}`),
    '# One vvision job per array task; the job store is on a filesystem every node shares.',
    'set -euo pipefail',
    `ID=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" ${quote(join(dir, 'jobs.txt'))})`,
    `cd ${quote(o.command.cwd)}`,
    `exec ${run} "$ID"`,
  ];
  writeFileAtomic(script, `${lines.join('\n')}\n`);
  writeFileAtomic(join(dir, 'batch.json'), `${JSON.stringify({ command: o.command, jobStore: store.dir, ids }, null, 2)}\n`);
  return { dir, script, ids: [...ids] };
}

function sbatch(script: string): string {
  const r = spawnSync('sbatch', ['--parsable', script], { encoding: 'utf8' });
  if (r.error) throw new SlurmError(`cannot run sbatch (${r.error.message}); is Slurm installed here? --backend local runs on this machine`);
  if (r.status !== 0) throw new SlurmError(`sbatch ${script} failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout.trim().split(';')[0]!;
}

function inQueue(jobId: string): boolean {
  const r = spawnSync('squeue', ['-h', '-j', jobId, '-o', '%i'], { encoding: 'utf8' });
  if (r.status !== 0) return false; // squeue forgets finished jobs (and says so with an error)
  return r.stdout.trim().length > 0;
}

function logTail(batch: SlurmBatch, index: number): string {
  const base = join(batch.dir, 'logs', `${batch.slurmJobId}_${index}`);
  const parts: string[] = [];
  for (const ext of ['err', 'out']) {
    const p = `${base}.${ext}`;
    if (existsSync(p)) {
      const text = readFileSync(p, 'utf8').trim().split('\n').slice(-3).join(' | ');
      if (text) parts.push(`${p}: ${text}`);
    }
  }
  return parts.length > 0 ? parts.join('; ') : `no log at ${base}.err`;
}

export function slurmBackend(o: SlurmBackendOptions): JobBackend {
  return {
    name: 'slurm',
    async run(store: JobStore, ids: readonly string[], progress?: JobProgressHooks): Promise<LocalRunSummary> {
      const pending = store.pending(ids);
      const summary: LocalRunSummary = { ran: [], skipped: ids.filter((id) => !pending.includes(id)), failed: [] };
      if (pending.length === 0) return summary;
      const batch = writeSlurmBatch(store, pending, o);
      if (!o.submit) throw new JobsDeferred(batch);
      // Earlier failures of these jobs would read as this run's.
      for (const id of pending) store.clearFailure(id);
      batch.slurmJobId = sbatch(batch.script);
      writeFileAtomic(join(batch.dir, 'slurm-job-id'), `${batch.slurmJobId}\n`);
      const open = new Set(pending);
      for (const id of pending) progress?.onStart?.(id);
      for (;;) {
        for (const id of [...open]) {
          if (store.result(id)) {
            open.delete(id);
            summary.ran.push(id);
            progress?.onFinish?.(id);
          } else {
            const failure = store.failure(id);
            if (failure !== undefined) {
              open.delete(id);
              summary.failed.push({ id, error: `${failure} (${logTail(batch, batch.ids.indexOf(id))})` });
              progress?.onFinish?.(id, failure);
            }
          }
        }
        if (open.size === 0) break;
        if (!inQueue(batch.slurmJobId)) {
          // Gone from the queue: give the shared filesystem a moment, then look once more.
          await new Promise((r) => setTimeout(r, 1000));
          for (const id of [...open]) {
            if (store.result(id)) {
              summary.ran.push(id);
              progress?.onFinish?.(id);
            } else {
              const index = batch.ids.indexOf(id);
              summary.failed.push({ id, error: `Slurm task ${batch.slurmJobId}_${index} ended without a result (${logTail(batch, index)})` });
              progress?.onFinish?.(id, 'no result');
            }
          }
          break;
        }
        await new Promise((r) => setTimeout(r, o.pollMs ?? 1000));
      }
      return summary;
    },
  };
}
