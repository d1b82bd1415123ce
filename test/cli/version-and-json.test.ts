// CLI conventions: --version, --json on the commands that print results, and the warning for a
// run option the manifest does not use (two small spawns: main.ts runs on import).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VVISION } from './vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

function vvision(args: string[]) {
  const r = spawnSync(process.execPath, [...VVISION, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--version prints the package version', (t) => {
  const r = vvision(['--version']);
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout.trim(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
});

test('run --json prints the summary as JSON; an unused --spp is a warning on stderr', (t) => {
  const out = join(mkdtempSync(join(tmpdir(), 'vv-json-')), 'run');
  const r = vvision(['run', 'examples/apps/sascha-raytracingreflections', '--width', '8', '--height', '8', '--spp', '2', '--json', '--out', out]);
  t.is(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as { workload: string; out: string; params: { width: number }; stats: { rays: number } };
  t.is(json.workload, 'sascha-raytracingreflections');
  t.is(json.out, out);
  t.is(json.params.width, 8);
  t.true(json.stats.rays >= 64);
  t.regex(r.stderr, /warning: .*--spp 2 is not used/);
});

test('every command that prints results offers --json', async (t) => {
  const { Command } = await import('commander');
  const program = new Command();
  const modules = ['compile', 'workloads', 'run', 'instrument', 'annotate', 'report', 'sim', 'calibrate', 'sweep', 'zatel', 'collect', 'run-job', 'device', 'compare'];
  for (const m of modules) {
    const exports = await import(`../../src/cli/commands/${m}.js`) as Record<string, unknown>;
    for (const f of Object.values(exports)) if (typeof f === 'function' && f.name.startsWith('register')) (f as (p: typeof program) => void)(program);
  }
  const leaves: import('commander').Command[] = [];
  const walk = (c: import('commander').Command): void => {
    if (c.commands.length === 0) leaves.push(c);
    c.commands.forEach(walk);
  };
  program.commands.forEach(walk);
  t.true(leaves.length >= 16);
  const without = leaves.filter((c) => !c.options.some((o) => o.long === '--json')).map((c) => c.name());
  t.deepEqual(without, []);
});
