/**
 * `npm run bench`: runs every benchmark script in bench/ (each in its own process, so one
 * benchmark's heap does not skew the next) and prints their figures. `npm run bench -- NAME...`
 * runs only the named ones (file names without .ts); arguments from the first one starting with
 * `-` on are handed to each named script (`npm run bench -- microbench --config X`).
 * Benchmarks that take long or rewrite docs run only when named (ON_REQUEST): `sensitivity`,
 * `docs` (rewrites docs/), `device` (runs every workload on the local Vulkan device, rewrites docs/device.md) and `completion` (every workload x preset at 256x256 and 512x512, hours).
 * Each script's own figures are followed by its wall and CPU time and the machine's load average
 * before and after it (issue 25.6): a figure taken on a busy machine shows as such.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuSeconds, loadNote } from './machine-load.js';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const firstOption = argv.findIndex((a) => a.startsWith('-'));
const wanted = firstOption < 0 ? argv : argv.slice(0, firstOption);
const passed = firstOption < 0 ? [] : argv.slice(firstOption);
const ON_REQUEST = new Set(['sensitivity', 'docs', 'device', 'completion']);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'main.ts' && f !== 'machine-load.ts')
  .filter((f) => (wanted.length === 0 ? !ON_REQUEST.has(f.replace(/\.ts$/, '')) : wanted.includes(f.replace(/\.ts$/, ''))))
  .sort();
const unknown = wanted.filter((w) => !scripts.some((f) => f === `${w}.ts`));
if (unknown.length > 0) {
  process.stderr.write(`bench: no benchmark named ${unknown.join(', ')}\n`);
  process.exit(2);
}
let failed = 0;
for (const f of scripts) {
  process.stdout.write(`\n=== ${f.replace(/\.ts$/, '')} === (${loadNote()})\n`);
  const c0 = childrenCpuSeconds();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f), ...passed], { stdio: 'inherit' });
  const wall = (performance.now() - t0) / 1000;
  const c1 = childrenCpuSeconds();
  const cpu = c0 !== undefined && c1 !== undefined ? `, CPU ${(c1 - c0).toFixed(1)} s` : '';
  process.stdout.write(`--- ${f.replace(/\.ts$/, '')}: wall ${wall.toFixed(1)} s${cpu}, ${loadNote()} after it\n`);
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`(${f} exited with status ${r.status})\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
