/**
 * `npm run bench`: runs every benchmark script in bench/ (each in its own process, so one
 * benchmark's heap does not skew the next) and prints their figures. `npm run bench -- NAME...`
 * runs only the named ones (file names without .ts). Each script's own figures are followed by
 * its wall and CPU time and the machine's load average before and after it (issue 25.6): a figure
 * taken on a busy machine shows as such.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuSeconds, loadNote } from './machine-load.js';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'main.ts' && f !== 'machine-load.ts')
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.ts$/, '')))
  .sort();
let failed = 0;
for (const f of scripts) {
  process.stdout.write(`\n=== ${f.replace(/\.ts$/, '')} === (${loadNote()})\n`);
  const c0 = childrenCpuSeconds();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: 'inherit' });
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
