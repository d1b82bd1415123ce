/**
 * Starting vvision's own modules in `node:worker_threads`, from the TypeScript sources (tests,
 * `tsx`) as from the built package: from source, the worker registers tsx's loader before it
 * imports the module.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

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
