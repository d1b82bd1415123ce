import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutputTarget, OutputDir, OutputDirError, RUN_DIR_MARKER, recordFilesInRunDir } from '../../src/cli/output-dir.js';
import { VVISION } from './vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

function vvision(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [...VVISION, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function userProject(): string {
  const d = mkdtempSync(join(tmpdir(), 'vvision-outdir-'));
  writeFileSync(join(d, 'notes.txt'), 'mine');
  mkdirSync(join(d, 'src'));
  writeFileSync(join(d, 'src', 'main.c'), 'int main(){}');
  return d;
}

function writeRun(path: string, files: Record<string, string>): string {
  const out = new OutputDir(path);
  for (const [k, v] of Object.entries(files)) out.write(k, v);
  return out.commit();
}

test('a new path becomes a run directory with a marker listing its files', (t) => {
  const d = join(mkdtempSync(join(tmpdir(), 'vvision-outdir-')), 'run');
  writeRun(d, { 'a.txt': 'a', 'sub/b.txt': 'b' });
  t.deepEqual(JSON.parse(readFileSync(join(d, RUN_DIR_MARKER), 'utf8')).files, ['a.txt', 'sub/b.txt']);
  t.deepEqual(readdirSync(d).sort(), [RUN_DIR_MARKER, 'a.txt', 'sub'].sort());
});

test('a previous run directory is replaced, an empty directory is used', (t) => {
  const d = join(mkdtempSync(join(tmpdir(), 'vvision-outdir-')), 'run');
  writeRun(d, { 'old.txt': 'old' });
  writeRun(d, { 'new.txt': 'new' });
  t.false(existsSync(join(d, 'old.txt')));
  t.is(readFileSync(join(d, 'new.txt'), 'utf8'), 'new');
  const empty = mkdtempSync(join(tmpdir(), 'vvision-outdir-'));
  writeRun(empty, { 'x.txt': 'x' });
  t.true(existsSync(join(empty, 'x.txt')));
  t.deepEqual(readdirSync(join(empty, '..')).filter((f) => f.startsWith(`${empty.split('/').pop()}.`)), [], 'no staging left behind');
});

test('a directory vvision did not write is never replaced: project, parent, home-like, a file', (t) => {
  const project = userProject();
  const inner = join(project, 'sub-run');
  writeRun(inner, { 'r.txt': 'r' });
  for (const target of [project, join(inner, '..')]) {
    const e = t.throws(() => new OutputDir(target), { instanceOf: OutputDirError });
    t.regex(e.message, /not a vvision run directory/);
  }
  const home = mkdtempSync(join(tmpdir(), 'vvision-home-'));
  writeFileSync(join(home, '.bashrc'), 'export X=1');
  mkdirSync(join(home, 'Documents'));
  writeFileSync(join(home, 'Documents', 'thesis.tex'), '\\begin');
  t.throws(() => checkOutputTarget(home), { instanceOf: OutputDirError });
  t.true(existsSync(join(home, 'Documents', 'thesis.tex')));
  t.throws(() => checkOutputTarget(join(project, 'notes.txt')), { instanceOf: OutputDirError, message: /not a directory/ });
  t.is(readFileSync(join(project, 'notes.txt'), 'utf8'), 'mine');
});

test('a run directory the user added a file to is refused, naming the file; report-written files are recorded', (t) => {
  const d = join(mkdtempSync(join(tmpdir(), 'vvision-outdir-')), 'run');
  writeRun(d, { 'a.txt': 'a' });
  writeFileSync(join(d, 'extra.html'), 'by report');
  recordFilesInRunDir(d, ['extra.html']);
  t.notThrows(() => checkOutputTarget(d));
  mkdirSync(join(d, 'mine'));
  writeFileSync(join(d, 'mine', 'analysis.ipynb'), '{}');
  const e = t.throws(() => checkOutputTarget(d), { instanceOf: OutputDirError });
  t.regex(e.message, /'mine\/analysis\.ipynb' was not written by vvision/);
});

test('vvision run --out . in a project exits non-zero before simulating and keeps every file', (t) => {
  const project = userProject();
  const r = vvision(['run', 'tri', '--width', '8', '--height', '8', '--out', '.'], project);
  t.is(r.status, 1, r.stdout);
  t.regex(r.stderr, /--out \.: .* not a vvision run directory/);
  t.false(r.stderr.includes('    at '), 'no stack trace');
  t.deepEqual(readdirSync(project).sort(), ['notes.txt', 'src']);
  t.is(readFileSync(join(project, 'src', 'main.c'), 'utf8'), 'int main(){}');
  const parent = vvision(['run', 'tri', '--width', '8', '--height', '8', '--out', '..'], join(project, 'src'));
  t.is(parent.status, 1);
  t.true(existsSync(join(project, 'notes.txt')));
  // A previous run directory is replaced by the next run.
  const runDir = join(project, 'out');
  t.is(vvision(['run', 'tri', '--width', '8', '--height', '8', '--out', runDir]).status, 0);
  const again = vvision(['run', 'tri', '--width', '8', '--height', '8', '--out', runDir]);
  t.is(again.status, 0, again.stderr);
  t.true(existsSync(join(runDir, 'image.png')));
});
