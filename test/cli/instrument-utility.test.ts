/**
 * `vvision instrument --utility file.ts` and `vvision report` of such a run, through the real
 * command: a type error is `file:line:col: error:` with exit 2 and no output directory; a good
 * utility writes its page, heatmap and rows; `report` loads the recorded file again.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VVISION } from './vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

function vvision(args: string[]) {
  const r = spawnSync(process.execPath, [...VVISION, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test.serial('a utility with a type error: located diagnostics, exit 2, nothing written', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-cli-utility-'));
  const bad = join(dir, 'bad.ts');
  writeFileSync(bad, "import { defineUtility } from 'vvision';\nexport default defineUtility({ name: 'bad', description: 1, place() {}, analyse() { return {}; } });\n");
  const out = join(dir, 'run');
  const r = vvision(['instrument', '--utility', bad, 'tri', '--width', '8', '--height', '4', '--out', out]);
  t.is(r.status, 2, r.stderr);
  t.regex(r.stderr, new RegExp(`^${bad}:2:\\d+: error: Type 'number' is not assignable to type 'string'`));
  t.false(r.stderr.includes('    at '));
  t.false(existsSync(out));
  const none = vvision(['instrument', 'tri']);
  t.is(none.status, 1);
  t.regex(none.stderr, /give --mode <utility> or --utility <file.ts>/);
});

test.serial('instrument --mode simt --utility traceray-per-pixel.ts: both run, the page and heatmap are written, report redoes them', (t) => {
  const base = mkdtempSync(join(tmpdir(), 'vvision-cli-utility-'));
  const out = join(base, 'runs', 'run');
  // The user's utility beside their runs: run.json records it relative to the run directory.
  const file = join(base, 'traceray-per-pixel.ts');
  copyFileSync(join(ROOT, 'examples', 'utilities', 'traceray-per-pixel.ts'), file);
  const r = vvision(['instrument', '--mode', 'simt', '--utility', file, 'ref', '--width', '16', '--height', '8', '--out', out]);
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /instrumented with simt\+traceray-per-pixel \(simt, traceray-per-pixel\)/);
  t.regex(r.stdout, /traceray-per-pixel: traceRay calls per pixel \d+\.\d\d \(max \d+, \d+ calls in all\)/);
  t.regex(r.stdout, /fidelity check: .* equal/);
  for (const f of ['utility-traceray-per-pixel.html', 'images/traceray-per-pixel-heatmap.png', 'traceray-per-pixel.json',
    'charts/traceray-per-pixel-calls-histogram.png', 'runs/traceray-per-pixel/dump.bin', 'runs/traceray-per-pixel/metadata.json', 'simt.html']) {
    t.true(existsSync(join(out, f)), f);
  }
  const record = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  t.is(record.modes[1].utilityFile, '../../traceray-per-pixel.ts');
  t.regex(readFileSync(join(out, 'index.html'), 'utf8'), /traceray-per-pixel: traceRay calls per pixel/);
  const rows = readFileSync(join(out, 'traceray-per-pixel.json'), 'utf8');
  rmSync(join(out, 'traceray-per-pixel.json'));
  const again = vvision(['report', out]);
  t.is(again.status, 0, again.stderr);
  t.is(readFileSync(join(out, 'traceray-per-pixel.json'), 'utf8'), rows);
});

test.serial('a utility that shares no folder with the run but the root is recorded by name: report asks for it with --utility', (t) => {
  // The run goes where it shares only the root with the checkout (a clone may itself sit in /tmp).
  const topOf = (p: string): string => p.split('/')[1]!;
  const base = topOf(ROOT) === topOf(tmpdir()) ? '/var/tmp' : tmpdir();
  const out = join(mkdtempSync(join(base, 'vvision-cli-utility-')), 'run');
  const file = join(ROOT, 'examples', 'utilities', 'traceray-per-pixel.ts');
  const r = vvision(['instrument', '--utility', file, 'tri', '--width', '8', '--height', '4', '--out', out]);
  t.is(r.status, 0, r.stderr);
  // A relative path from /tmp/... would spell out this machine's folders; the base name does not.
  t.is(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).modes[0].utilityFile, 'traceray-per-pixel.ts');
  const again = vvision(['report', out]);
  t.not(again.status, 0);
  t.regex(again.stderr, /utility 'traceray-per-pixel' \(recorded as traceray-per-pixel\.ts\) is not at .*; give its file with --utility/);
  t.is(vvision(['report', out, '--utility', file]).status, 0);
});
