/**
 * Starting vvision's own modules in `node:worker_threads`, from the TypeScript sources (tests,
 * `tsx`) as from the built package: from source, the worker registers tsx's loader before it
 * imports the module.
 *
 * `callInWorkerSync` runs one exported function of a module on a fresh thread and blocks until it
 * answers (Atomics.wait on a shared flag, the answer read with receiveMessageOnPort): for work that
 * needs what only a thread can be given, such as a larger stack, behind a synchronous API.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type WorkerOptions } from 'node:worker_threads';

/** The module beside `base` named `name` (no extension): `.ts` when running from source, else `.js`. */
export function siblingModule(name: string, base: string): URL {
  return new URL(`${name}.${base.endsWith('.ts') ? 'ts' : 'js'}`, base);
}

const tsxLoader = (entry: URL): string | undefined => (entry.pathname.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : undefined);

/** A worker running `entry` (a module that reads `workerData` itself). */
export function startModuleWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const tsx = tsxLoader(entry);
  if (tsx === undefined) return new Worker(entry, options);
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

export class WorkerCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCallError';
  }
}

export interface SyncCallOptions {
  /** The thread's stack (MB); V8's default for workers is 4. */
  stackSizeMb?: number;
  /** Give up after this long (ms). */
  timeoutMs?: number;
}

/**
 * `entry[fn](input)` on a new thread, synchronously. `input` and the answer go by structured
 * clone. A throw in the worker (or a failure to load it) is rethrown here as a WorkerCallError
 * carrying the worker's message.
 */
export function callInWorkerSync<T>(entry: URL, fn: string, input: unknown, opts: SyncCallOptions = {}): T {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const tsx = tsxLoader(entry);
  const boot = `
    const { workerData: { entry, fn, input, signal, port, tsx } } = require('node:worker_threads');
    const done = (answer) => {
      try { port.postMessage(answer); } catch (e) { port.postMessage({ error: 'the answer could not be sent: ' + e.message }); }
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    };
    (tsx ? import(tsx).then(({ register }) => register()) : Promise.resolve())
      .then(() => import(entry))
      .then((m) => m[fn](input))
      .then((result) => done({ result }), (e) => done({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }));`;
  const worker = new Worker(boot, {
    eval: true,
    workerData: { entry: entry.href, fn, input, signal, port: port2, tsx },
    transferList: [port2],
    ...(opts.stackSizeMb !== undefined ? { resourceLimits: { stackSizeMb: opts.stackSizeMb } } : {}),
  });
  try {
    const waited = Atomics.wait(signal, 0, 0, opts.timeoutMs ?? 120_000);
    if (waited === 'timed-out') throw new WorkerCallError(`${entry.pathname}: ${fn} did not answer within ${opts.timeoutMs ?? 120_000} ms`);
    const answer = receiveMessageOnPort(port1)?.message as { result?: T; error?: string } | undefined;
    if (answer === undefined) throw new WorkerCallError(`${entry.pathname}: ${fn} ended without an answer`);
    if (answer.error !== undefined) throw new WorkerCallError(answer.error);
    return answer.result as T;
  } finally {
    port1.close();
    void worker.terminate();
  }
}
