/**
 * The top entries of a V8 CPU profile (`node --cpu-prof`) by self time, as docs/performance.md
 * lists them: function, file:line, self milliseconds and share of the samples; then the share of
 * each source file. Idle and program time (the sampler's own entries) are left out of neither
 * figure, so the shares add up to the profiled wall time.
 *
 *   npx tsx bench/profile/cpuprofile-top.ts FILE.cpuprofile [entries=20]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, entriesArg] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: cpuprofile-top FILE.cpuprofile [entries]\n');
  process.exit(2);
}
const entries = Number(entriesArg ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** Microseconds of samples per node id (each sample is charged the delta that follows it). */
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + dt);
}
let total = 0;
for (const us of selfUs.values()) total += us;

const shortUrl = (url: string): string => url.replace(/^file:\/\//, '').replace(/^.*?\/(src|build|node_modules|bench)\//, '$1/');
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const f = byId.get(id)!.callFrame;
  const where = f.url === '' ? '' : `${shortUrl(f.url)}:${f.lineNumber + 1}`;
  const key = `${f.functionName || '(anonymous)'}\t${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const fileKey = f.url === '' ? `(${f.functionName})` : shortUrl(f.url);
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
}

const pct = (us: number): string => `${((100 * us) / total).toFixed(1)}%`;
process.stdout.write(`${(total / 1e6).toFixed(2)} s sampled\n\n| function | file:line | self |\n|---|---|---|\n`);
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, entries)) {
  const [fn, where] = key.split('\t');
  process.stdout.write(`| ${fn} | ${where} | ${(us / 1000).toFixed(0)} ms (${pct(us)}) |\n`);
}
process.stdout.write(`\nBy file: ${[...byFile].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([f, us]) => `${f} ${pct(us)}`).join(', ')}\n`);
