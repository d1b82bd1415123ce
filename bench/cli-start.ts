/**
 * CLI start (issue 25.4): `vvision --help` and `vvision compile empty.rgen -o x.spv`, each a fresh
 * process, from the built CLI (build/cli/main.js, when `npm run build` has made it) and through
 * tsx (src/cli/main.ts); median wall and CPU time of RUNS starts, peak RSS. Target: <= 0.3 s.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuSeconds, loadNote } from './machine-load.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'vvision-cli-start-'));
const shader = join(dir, 'empty.rgen');
writeFileSync(shader, '#version 460\n#extension GL_EXT_ray_tracing : require\nvoid main() {}\n');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function start(prefix: string[], args: string[]): { wall: number; cpu: number } {
  const c0 = childrenCpuSeconds() ?? 0;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...prefix, ...args], { cwd: ROOT, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`vvision ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return { wall, cpu: (childrenCpuSeconds() ?? 0) - c0 };
}

try {
  const ways: [string, string[]][] = [];
  if (existsSync(join(ROOT, 'build/cli/main.js'))) ways.push(['built', [join(ROOT, 'build/cli/main.js')]]);
  else console.log('(no build/cli/main.js: run `npm run build` for the built CLI\'s figures)');
  ways.push(['tsx', ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')]]);
  const commands: [string, string[]][] = [['--help', ['--help']], ['compile empty.rgen', ['compile', shader, '-o', join(dir, 'empty.spv')]]];
  for (const [way, prefix] of ways) {
    for (const [label, args] of commands) {
      const runs = Array.from({ length: RUNS }, () => start(prefix, args));
      console.log(`${`${way} vvision ${label}`.padEnd(32)} median of ${RUNS}: wall ${median(runs.map((r) => r.wall)).toFixed(2)} s, CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s (target 0.3 s), ${loadNote()}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
