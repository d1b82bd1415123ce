/**
 * `npm run bench`: runs every benchmark script in bench/ (each in its own process, so one
 * benchmark's heap does not skew the next) and prints their figures. `npm run bench -- NAME...`
 * runs only the named ones (file names without .ts). Benchmarks that take hours run only when
 * named (ON_REQUEST).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
/** Run only when named: completion (every workload x preset at 256x256 and 512x512, hours). */
const ON_REQUEST = new Set(['completion']);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'main.ts')
  .filter((f) => (wanted.length === 0 ? !ON_REQUEST.has(f.replace(/\.ts$/, '')) : wanted.includes(f.replace(/\.ts$/, ''))))
  .sort();
let failed = 0;
for (const f of scripts) {
  process.stdout.write(`\n=== ${f.replace(/\.ts$/, '')} ===\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`(${f} exited with status ${r.status})\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
