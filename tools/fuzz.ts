/**
 * `npm run fuzz -- [--count N] [--seed S]`: seeded mutation fuzzing of the GLSL front end
 * (tools/glsl-fuzz.ts); prints the counts (accepted / located diagnostics / internal errors /
 * unlocated diagnostics / slow cases over 5 s) and every failing case; exit 1 when any failed.
 */
import { fuzzCases, fuzzSources, type FuzzCase } from './glsl-fuzz.js';

const args = process.argv.slice(2);
const opt = (name: string, def: number): number => {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : def;
  if (!Number.isInteger(v) || v < 0) {
    process.stderr.write(`fuzz: ${name} expects a non-negative integer\n`);
    process.exit(2);
  }
  return v;
};
const count = opt('--count', 1000);
const seed = opt('--seed', 1);
const sources = fuzzSources();
const counts = { accepted: 0, located: 0, internal: 0, unlocated: 0, slow: 0 };
const failures: FuzzCase[] = [];
const t0 = performance.now();
let done = 0;
for (const c of fuzzCases(sources, count, seed)) {
  counts[c.outcome]++;
  if (c.ms > 5000) counts.slow++;
  if (c.outcome === 'internal' || c.outcome === 'unlocated' || c.ms > 5000) failures.push(c);
  if (process.stderr.isTTY && ++done % 100 === 0) process.stderr.write(`\r${done}/${count}`);
}
if (process.stderr.isTTY) process.stderr.write('\r');
process.stdout.write(`${count} cases (seed ${seed}, ${sources.length} shaders) in ${((performance.now() - t0) / 1000).toFixed(1)} s: `
  + `${counts.accepted} accepted, ${counts.located} located diagnostics, ${counts.internal} internal errors, `
  + `${counts.unlocated} unlocated diagnostics, ${counts.slow} over 5 s\n`);
for (const f of failures.slice(0, 20)) process.stdout.write(`  ${f.outcome}: ${f.source} [${f.mutation}] ${f.message ?? ''} (${f.ms.toFixed(0)} ms)\n`);
process.exit(failures.length > 0 ? 1 : 0);
