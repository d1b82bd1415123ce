import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VVISION } from './vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

function vvision(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [...VVISION, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('instrument --mode simt writes a complete run directory and prints where the report is', (t) => {
  const out = join(mkdtempSync(join(tmpdir(), 'vvision-cli-')), 'run');
  const r = vvision(['instrument', '--mode', 'simt', 'tri', '--width', '16', '--height', '16', '--out', out]);
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /fidelity check: .* equal/);
  t.true(r.stdout.includes(`report: ${out}/index.html`));
  // Without --config the run stays functional-only: no timing model, no overhead figures.
  t.false(r.stdout.includes('timing model'));
  t.is(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).uninstrumented, undefined);
  for (const f of ['index.html', 'simt.html', 'hotspots.html', 'run.json', 'image.png', 'summary.json', 'simt_efficiency.csv',
    'hotspots.csv', 'dyn_opcode_counts.csv', 'runs/simt/dump.bin', 'runs/simt/metadata.json', 'charts/simt-per-shader.png',
    'annotated/closesthit.rchit.glsl', 'assets/chart.umd.min.js']) {
    t.true(existsSync(join(out, f)), f);
  }
  t.regex(readFileSync(join(out, 'annotated/closesthit.rchit.glsl'), 'utf8'), /\/\* execution count = \d+ histo=/);
  // An #included file whose code raygen ran is annotated with its own lines.
  t.regex(readFileSync(join(out, 'annotated/raygen.rgen+camera.glsl.glsl'), 'utf8'), /\/\* execution count = \d+ histo=/);
  // `report` regenerates from the saved dump alone.
  const again = vvision(['report', out]);
  t.is(again.status, 0, again.stderr);
  t.true(existsSync(join(out, 'index.html')));
  // A dump overwritten with other bytes is named corrupt, with what disagrees: no buffer-size advice.
  const dumpPath = join(out, 'runs/simt/dump.bin');
  const noise = new Uint8Array(readFileSync(dumpPath).byteLength);
  let s = 12345;
  for (let i = 0; i < noise.length; i++) noise[i] = (s = (s * 1103515245 + 12345) & 0x7fffffff) >> 16;
  writeFileSync(dumpPath, noise);
  const corrupt = vvision(['report', out]);
  t.is(corrupt.status, 1);
  t.regex(corrupt.stderr, /runs\/simt\/dump\.bin is corrupt: its header says \d+ entry words were written \(a file of \d+ bytes\), but the file has \d+ bytes/);
  t.false(corrupt.stderr.includes('--buffer-size'));
  t.false(corrupt.stderr.includes('    at '));
});

test('a bad workload argument is one clear line and exit 1, no stack trace, no output left behind', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-cli-'));
  const r = vvision(['run', 'no-such-workload', '--out', join(dir, 'x')]);
  t.is(r.status, 1);
  t.regex(r.stderr, /^vvision: error: no-such-workload: unknown workload/);
  t.false(/\bat .*\.ts:\d+/.test(r.stderr), 'no stack trace');
  t.deepEqual(readdirSync(dir), []);
});

test('a shader compile error in a manifest is reported file:line:col with exit 2', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-cli-'));
  const tri = join(ROOT, 'workloads', 'tri');
  for (const f of ['closesthit.rchit', 'miss.rmiss']) writeFileSync(join(dir, f), readFileSync(join(tri, f)));
  writeFileSync(join(dir, 'raygen.rgen'), readFileSync(join(tri, 'raygen.rgen'), 'utf8').replace('vec3 origin, direction;', 'vec3 origin, direction\n'));
  const manifest = JSON.parse(readFileSync(join(tri, 'workload.json'), 'utf8')) as { includeDirs: string[] };
  manifest.includeDirs = [join(ROOT, 'workloads', 'common')];
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(manifest));
  const r = vvision(['run', join(dir, 'workload.json'), '--out', join(dir, 'out')]);
  t.is(r.status, 2);
  t.regex(r.stderr, /raygen\.rgen:\d+:\d+: error: /);
  t.false(existsSync(join(dir, 'out')));
});

test('option values are checked: --width must be a positive integer, --mode a known utility', (t) => {
  const a = vvision(['run', 'tri', '--width', 'wide']);
  t.is(a.status, 1);
  t.regex(a.stderr, /--width: expected an integer/);
  const b = vvision(['instrument', '--mode', 'everything', 'tri']);
  t.is(b.status, 1);
  t.regex(b.stderr, /--mode: expected one of simt, divergence, paths, trace, its, all/);
});

test('report on a directory that is not a run says so', (t) => {
  const r = vvision(['report', mkdtempSync(join(tmpdir(), 'vvision-cli-'))]);
  t.is(r.status, 1);
  t.regex(r.stderr, /not a vvision run directory/);
});

test('instrument --config mobile: timing-model overhead in the summary, run.json and the index page; fidelity holds', (t) => {
  const out = join(mkdtempSync(join(tmpdir(), 'vvision-cli-')), 'run');
  const r = vvision(['instrument', '--mode', 'simt', 'tri', '--config', 'mobile', '--width', '16', '--height', '16', '--out', out]);
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /fidelity check: .* equal/);
  const m = /uninstrumented (\d+) cycles[\s\S]*simt\s+(\d+) cycles, overhead \+(\d+) cycles/.exec(r.stdout);
  t.truthy(m, r.stdout);
  t.is(Number(m![2]) - Number(m![1]), Number(m![3]));
  t.true(Number(m![3]) > 0);
  const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  t.is(run.uninstrumented.timing.gpu_sim_cycle, Number(m![1]));
  t.is(run.modes[0].overheadCycles, Number(m![3]));
  t.is(run.modes[0].timing.gpu_sim_cycle, Number(m![2]));
  const index = readFileSync(join(out, 'index.html'), 'utf8');
  t.true(index.includes('Instrumentation overhead on the timing model'));
  t.true(index.includes(`+${Number(m![3]).toLocaleString('en-US')} cycles`));
  // `report` keeps the overhead: it is part of the run record.
  t.is(vvision(['report', out]).status, 0);
  t.true(readFileSync(join(out, 'index.html'), 'utf8').includes('Instrumentation overhead on the timing model'));
});

test('--set without --config is a usage error', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-cli-'));
  const r = vvision(['instrument', '--mode', 'simt', 'tri', '--set', 'gpgpu_n_clusters=2', '--width', '8', '--height', '8', '--out', join(dir, 'x')]);
  t.is(r.status, 1);
  t.regex(r.stderr, /--set gpgpu_n_clusters=2: configuration overrides need --config/);
  t.deepEqual(readdirSync(dir), []);
});

test('run writes image.png opaque; --keep-alpha keeps the alpha 0 the models workload stores', async (t) => {
  const { PNG } = await import('pngjs');
  const base = mkdtempSync(join(tmpdir(), 'vvision-cli-alpha-'));
  const alphaOf = (args: string[]) => {
    const out = join(base, args.length > 0 ? 'kept' : 'opaque');
    const r = vvision(['run', 'models', '--width', '8', '--height', '4', '--out', out, ...args]);
    t.is(r.status, 0, r.stderr);
    const png = PNG.sync.read(readFileSync(join(out, 'image.png')));
    return new Set(Array.from({ length: png.width * png.height }, (_, i) => png.data[4 * i + 3]));
  };
  t.deepEqual([...alphaOf([])], [255]);
  t.deepEqual([...alphaOf(['--keep-alpha'])], [0]);
});
