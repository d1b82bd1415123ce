/**
 * `npm run fuzz -- [--count N] [--seed S] [--spirv M] [--jobs J] [--timeout MS]`: compiles N seeded
 * GLSL mutants (cases S .. S+N-1, see fuzz-cases.ts) and reads M seeded operand-level SPIR-V
 * mutants (cases S .. S+M-1, see spirv-mutants.ts) in J worker threads (default 1), and prints, for
 * each kind, how many were accepted, rejected with located diagnostics, ended in an internal error,
 * gave an unlocated diagnostic, or hung (no answer within the timeout, twice: the worker is replaced
 * and the case run once more, so a case slowed down by a loaded machine is not taken for a hang).
 * A case's timer starts when it is handed to a worker that has finished loading (the worker says
 * `ready`), so a slow start on a loaded machine is not a hang. Exit 1 when any case is an internal
 * error, unlocated or a hang.
 */
import { Worker } from 'node:worker_threads';
import type { CaseRequest } from './case-worker.js';
import type { Verdict } from './fuzz-cases.js';

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
const spirvCount = option('spirv', 0);
const firstSeed = option('seed', 1);
const jobs = Math.max(1, option('jobs', 1));
const timeoutMs = option('timeout', 10000);
/** Loading a worker (tsx, the front end, compiling the workloads for SPIR-V seeds) is not timed as a case; this only catches a worker that never starts. */
const LOAD_TIMEOUT_MS = 10 * 60 * 1000;

interface CaseAnswer {
  seed: number;
  verdict: Verdict;
  ms: number;
  detail?: string;
  shader?: string;
  module?: string;
  edits: string[];
}

/** A worker that has said `ready`. */
function startWorker(): Promise<Worker> {
  const w = new Worker(new URL('./case-worker.mjs', import.meta.url), { workerData: { spirv: spirvCount > 0 } });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void w.terminate();
      reject(new Error(`a fuzz worker did not load within ${LOAD_TIMEOUT_MS / 1000} s`));
    }, LOAD_TIMEOUT_MS);
    w.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    w.once('message', (m: unknown) => {
      clearTimeout(timer);
      if (m === 'ready') resolve(w);
      else reject(new Error(`a fuzz worker sent ${JSON.stringify(m)} before 'ready'`));
    });
  });
}

/** Runs `req` on a ready worker; 'hang' when no answer comes within the timeout (the worker is then stopped). */
function runOn(w: Worker, req: CaseRequest): Promise<CaseAnswer | 'hang'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      w.removeAllListeners('message');
      void w.terminate();
      resolve('hang');
    }, timeoutMs);
    w.once('message', (r: CaseAnswer) => {
      clearTimeout(timer);
      resolve(r);
    });
    w.postMessage(req);
  });
}

type Counts = Record<Verdict | 'hangs', number>;
const zero = (): Counts => ({ accepted: 0, located: 0, internal: 0, unlocated: 0, hangs: 0 });
const counts = { glsl: zero(), spirv: zero() };
const slowest = { glsl: { ms: 0, seed: 0 }, spirv: { ms: 0, seed: 0 } };
const failures: string[] = [];
/** Cases that timed out once and were run again (a hang only if the second run timed out too). */
const retried: string[] = [];
const queue: CaseRequest[] = [
  ...Array.from({ length: count }, (_, i) => ({ kind: 'glsl' as const, seed: firstSeed + i })),
  ...Array.from({ length: spirvCount }, (_, i) => ({ kind: 'spirv' as const, seed: firstSeed + i })),
];
const total = queue.length;
let done = 0;
const started = performance.now();

async function drain(): Promise<void> {
  let w = await startWorker();
  for (let req = queue.shift(); req !== undefined; req = queue.shift()) {
    let r = await runOn(w, req);
    if (r === 'hang') {
      // Once more on a fresh worker: a case that really hangs hangs again, while one that only
      // ran slow on a loaded machine (load averages of 20 on 2 cores happen here) now answers.
      retried.push(`${req.kind} seed ${req.seed}`);
      w = await startWorker();
      r = await runOn(w, req);
    }
    if (r === 'hang') {
      counts[req.kind].hangs++;
      failures.push(`${req.kind} seed ${req.seed}: no answer within ${timeoutMs} ms`);
      w = await startWorker();
    } else {
      counts[req.kind][r.verdict]++;
      if (r.ms > slowest[req.kind].ms) slowest[req.kind] = { ms: r.ms, seed: req.seed };
      if (r.verdict === 'internal' || r.verdict === 'unlocated') failures.push(`${req.kind} seed ${req.seed} (${r.shader ?? r.module}; ${r.edits.join(', ')}): ${r.verdict}: ${r.detail}`);
    }
    if (++done % 1000 === 0) process.stderr.write(`fuzz: ${done}/${total} cases\n`);
  }
  await w.terminate();
}

await Promise.all(Array.from({ length: jobs }, () => drain()));

const seconds = (performance.now() - started) / 1000;
const section = (name: string, n: number, c: Counts, s: { ms: number; seed: number }) =>
  `${name}: ${n} cases, seeds ${firstSeed}..${firstSeed + n - 1}\n` +
  `  accepted:              ${c.accepted}\n` +
  `  located diagnostics:   ${c.located}\n` +
  `  internal errors:       ${c.internal}\n` +
  `  unlocated diagnostics: ${c.unlocated}\n` +
  `  hangs (> ${timeoutMs} ms):    ${c.hangs}\n` +
  `  slowest case: ${s.ms.toFixed(0)} ms (seed ${s.seed})\n`;
process.stdout.write(
  `fuzz: ${total} cases in ${seconds.toFixed(1)} s on ${jobs} worker${jobs === 1 ? '' : 's'}\n` +
    (count > 0 ? section('GLSL mutants', count, counts.glsl, slowest.glsl) : '') +
    (spirvCount > 0 ? section('SPIR-V operand mutants', spirvCount, counts.spirv, slowest.spirv) : ''),
);
if (retried.length > 0) process.stdout.write(`timed out once and run again on a fresh worker: ${retried.join(', ')}\n`);
for (const f of failures.slice(0, 20)) process.stdout.write(`  FAIL ${f}\n`);
const bad = (c: Counts) => c.internal + c.unlocated + c.hangs;
process.exit(bad(counts.glsl) + bad(counts.spirv) > 0 ? 1 : 0);
