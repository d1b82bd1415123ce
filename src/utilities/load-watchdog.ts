/**
 * A deadline on loading user utilities (their modules' top-level code), for the CLI. The hooks'
 * watchdog (utility-error.ts) cannot cover this: module evaluation starts inside Node's ES module
 * loader, not inside a call vm's timeout could wrap, and a synchronous endless loop there blocks
 * the event loop, so no timer of the main thread fires again. A second thread can still act: a
 * tiny worker (no tsx, no vvision code) waits on a shared flag with Atomics.wait; when loading
 * ends the main thread sets the flag, and when the deadline passes first the worker writes one
 * error line to stderr and ends the process with SIGTERM (exit status 143). Loading happens before
 * any output is written, so nothing is left half-written. A library caller is never killed: only
 * the CLI uses this.
 */
import { Worker } from 'node:worker_threads';
import { utilityTimeoutMs } from './utility-error.js';

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
if (Atomics.wait(workerData.flag, 0, 0, workerData.timeoutMs) === 'timed-out') {
  require('node:fs').writeSync(2, workerData.message);
  process.kill(process.pid, 'SIGTERM');
}`;

export async function withLoadWatchdog<T>(file: string, load: () => Promise<T>, timeoutMs = utilityTimeoutMs()): Promise<T> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const message = `vvision: error: ${file}: loading the utility did not finish within ${timeoutMs / 1000} s (an endless loop in its top-level code?); VVISION_UTILITY_TIMEOUT_S=<seconds> allows longer\n`;
  // execArgv: [] keeps loader hooks (tsx's --import) out of the watchdog: they may wait on the main thread.
  const worker = new Worker(WATCHDOG, { eval: true, execArgv: [], workerData: { flag, timeoutMs, message } });
  worker.unref();
  try {
    return await load();
  } finally {
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
}
