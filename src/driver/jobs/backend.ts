/**
 * Where a job list runs. Sweeps and Zatel hand their jobs to a backend and read the results from
 * the job store afterwards, whatever ran them:
 * - local: worker threads on this machine (local-backend.ts, the default);
 * - slurm: one `sbatch --array` over the pending jobs on a cluster sharing the job store's
 *   filesystem (slurm-backend.ts);
 * - collect: runs nothing, reports which jobs have no result yet (`vvision collect`).
 */
import type { JobStore } from './job-store.js';
import { runJobsLocally, type LocalRunOptions, type LocalRunSummary } from './local-backend.js';

export type JobProgressHooks = Pick<LocalRunOptions, 'onStart' | 'onProgress' | 'onFinish'>;

export interface JobBackend {
  readonly name: 'local' | 'slurm' | 'collect';
  run(store: JobStore, ids: readonly string[], progress?: JobProgressHooks): Promise<LocalRunSummary>;
}

export function localBackend(jobs?: number): JobBackend {
  return {
    name: 'local',
    run: (store, ids, progress) => runJobsLocally(store, ids, { ...(jobs !== undefined ? { jobs } : {}), ...progress }),
  };
}

/** Runs nothing: a job without a result is reported as failed with its error, or as not finished. */
export function collectBackend(
  describeMissing: (id: string) => string = () => 'not finished: no result and no error yet (still queued or running, or killed; see the batch\'s logs/)',
): JobBackend {
  return {
    name: 'collect',
    async run(store, ids) {
      const pending = store.pending(ids);
      return {
        ran: [],
        skipped: ids.filter((id) => !pending.includes(id)),
        failed: pending.map((id) => ({ id, error: store.failure(id) ?? describeMissing(id) })),
      };
    },
  };
}
