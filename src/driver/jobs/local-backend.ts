/**
 * The local backend: runs a job list on this machine in `node:worker_threads`, one job per worker
 * at a time, `jobs` workers (one per core by default). Jobs whose result already exists are
 * skipped (a resumed sweep reruns only what is missing); a failed job records its error and the
 * others go on.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../../platform/module-worker.js';
import type { JobStore } from './job-store.js';

export interface LocalRunOptions {
  /** Concurrent workers; default: one per core. */
  jobs?: number;
  onStart?: (id: string) => void;
  onProgress?: (id: string, fraction: number) => void;
  onFinish?: (id: string, error?: string) => void;
}

/** Jobs that failed, each with its own message (the job's error.txt keeps it too). */
export class JobFailedError extends Error {
  constructor(what: string, readonly failures: { id: string; error: string }[], store: JobStore) {
    super(`${what}: ${failures.length} job(s) without a result: ${failures.map((f) => `${f.error} (job ${store.jobDir(f.id)})`).join('; ')}`);
    this.name = 'JobFailedError';
  }
}

export interface LocalRunSummary {
  ran: string[];
  skipped: string[];
  failed: { id: string; error: string }[];
}

function startWorker(dir: string): Worker {
  return startModuleWorker(siblingModule('./job-worker', import.meta.url), { workerData: { dir } });
}

export function defaultJobCount(): number {
  return Math.max(1, availableParallelism());
}

export async function runJobsLocally(store: JobStore, ids: readonly string[], opts: LocalRunOptions = {}): Promise<LocalRunSummary> {
  const pending = store.pending(ids);
  const summary: LocalRunSummary = { ran: [], skipped: ids.filter((id) => !pending.includes(id)), failed: [] };
  if (pending.length === 0) return summary;
  const queue = [...pending];
  const workerCount = Math.max(1, Math.min(opts.jobs ?? defaultJobCount(), queue.length));
  const runWorker = () =>
    new Promise<void>((resolveWorker) => {
      const w = startWorker(store.dir);
      let current: string | undefined;
      const next = () => {
        current = queue.shift();
        if (current === undefined) {
          void w.terminate().then(() => resolveWorker());
          return;
        }
        opts.onStart?.(current);
        w.postMessage({ id: current });
      };
      w.on('message', (msg: { id: string; progress?: number; ok?: boolean; error?: string }) => {
        if (msg.progress !== undefined) {
          opts.onProgress?.(msg.id, msg.progress);
          return;
        }
        if (msg.ok) summary.ran.push(msg.id);
        else summary.failed.push({ id: msg.id, error: msg.error ?? 'failed' });
        opts.onFinish?.(msg.id, msg.ok ? undefined : (msg.error ?? 'failed'));
        next();
      });
      w.on('error', (e) => {
        // The worker died (out of memory, a crash in the loader): its current job fails, and
        // the remaining queue goes on in the other workers (or a fresh one).
        if (current !== undefined) {
          const error = `worker failed: ${e.message}`;
          store.writeFailure(current, error);
          summary.failed.push({ id: current, error });
          opts.onFinish?.(current, error);
          current = undefined;
        }
        resolveWorker(queue.length > 0 ? runWorker() : undefined);
      });
      next();
    });
  await Promise.all(Array.from({ length: workerCount }, runWorker));
  return summary;
}
