/**
 * `npm run fuzz -- [--count N] [--seed S] [--timeout MS]`: compiles N seeded mutants (cases S ..
 * S+N-1, see fuzz-cases.ts) in a worker thread and prints how many were accepted, rejected with
 * located diagnostics, ended in an internal error, or hung (no answer within the timeout: the
 * worker is then replaced). Exit 1 when any case is an internal error, unlocated or a hang.
 */
import { Worker } from 'node:worker_threads';
import type { CaseResult } from './fuzz-cases.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) {
    process.stderr.write(`fuzz: --${name} needs a non-negative integer, got '${process.argv[i + 1] ?? ''}'\n`);
    process.exit(1);
  }
  return v;
}

const count = option('count', 1000);
const firstSeed = option('seed', 1);
const timeoutMs = option('timeout', 10000);

let worker = new Worker(new URL('./case-worker.mjs', import.meta.url));

function runInWorker(seed: number): Promise<Omit<CaseResult, 'text'> | 'hang'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.removeAllListeners('message');
      void worker.terminate();
      worker = new Worker(new URL('./case-worker.mjs', import.meta.url));
      resolve('hang');
    }, timeoutMs);
    worker.once('message', (r: Omit<CaseResult, 'text'>) => {
      clearTimeout(timer);
      resolve(r);
    });
    worker.postMessage(seed);
  });
}

const counts = { accepted: 0, located: 0, internal: 0, unlocated: 0, hangs: 0 };
const failures: string[] = [];
let slowest = { ms: 0, seed: 0 };
const started = performance.now();
for (let i = 0; i < count; i++) {
  const seed = firstSeed + i;
  const r = await runInWorker(seed);
  if (r === 'hang') {
    counts.hangs++;
    failures.push(`seed ${seed}: no answer within ${timeoutMs} ms`);
    continue;
  }
  counts[r.verdict]++;
  if (r.ms > slowest.ms) slowest = { ms: r.ms, seed };
  if (r.verdict === 'internal' || r.verdict === 'unlocated') failures.push(`seed ${seed} (${r.shader}; ${r.edits.join(', ')}): ${r.verdict}: ${r.detail}`);
  if ((i + 1) % 1000 === 0) process.stderr.write(`fuzz: ${i + 1}/${count} cases\n`);
}
await worker.terminate();

const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `fuzz: ${count} cases, seeds ${firstSeed}..${firstSeed + count - 1}, ${seconds.toFixed(1)} s\n` +
    `  accepted:            ${counts.accepted}\n` +
    `  located diagnostics: ${counts.located}\n` +
    `  internal errors:     ${counts.internal}\n` +
    `  unlocated diagnostics: ${counts.unlocated}\n` +
    `  hangs (> ${timeoutMs} ms): ${counts.hangs}\n` +
    `  slowest case: ${slowest.ms.toFixed(0)} ms (seed ${slowest.seed})\n`,
);
for (const f of failures.slice(0, 20)) process.stdout.write(`  FAIL ${f}\n`);
process.exit(counts.internal + counts.unlocated + counts.hangs > 0 ? 1 : 0);
