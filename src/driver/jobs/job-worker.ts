/**
 * Worker-thread entry of the local backend: takes job ids from the parent one at a time, runs
 * each (run-job.ts), writes its result or its error into the job store, and reports progress.
 *
 * Messages in:  { id } to run a job, { stop: true } to exit.
 * Messages out: { id, progress } while running, { id, ok: true } or { id, ok: false, error } when done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runSimJob } from './run-job.js';
import { JobStore } from './job-store.js';

const store = new JobStore((workerData as { dir: string }).dir);
const port = parentPort!;

port.on('message', (msg: { id?: string; stop?: boolean }) => {
  if (msg.stop) {
    port.close();
    return;
  }
  const id = msg.id!;
  let last = -1;
  runSimJob(store.spec(id), (f) => {
    const pct = Math.floor(f * 100);
    if (pct !== last) {
      last = pct;
      port.postMessage({ id, progress: f });
    }
  }).then(
    (result) => {
      store.writeResult(result);
      port.postMessage({ id, ok: true });
    },
    (e: unknown) => {
      const error = e instanceof Error ? e.message : String(e);
      store.writeFailure(id, error);
      port.postMessage({ id, ok: false, error });
    },
  );
});
