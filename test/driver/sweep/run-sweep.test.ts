/**
 * Sweeps: the grid (knobs checked before anything runs, limit studies as knob bundles), the run
 * through worker threads, resumption (finished points are not rerun), and sweep.csv.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSweep, sweepCsv } from '../../../src/driver/sweep/run-sweep.js';
import { parseVary, sweepPoints } from '../../../src/driver/sweep/sweep-grid.js';
import { VVISION } from '../../cli/vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

test('grid: crossed dimensions, limit studies expand to their knobs, bad knobs and values are named', (t) => {
  const dims = [parseVary('gpgpu_rt_max_warps=1,4'), parseVary('limit=baseline,rt-cache,perfect-bvh,perfect-mem')];
  const points = sweepPoints(dims, 'mobile', []);
  t.is(points.length, 8);
  t.deepEqual(points[1], { values: ['1', 'rt-cache'], overrides: ['gpgpu_rt_max_warps=1', 'gpgpu_rt_use_l1=0'] });
  t.deepEqual(points[6]!.overrides, ['gpgpu_rt_max_warps=4', 'gpgpu_rt_perfect_mem=1']);
  t.throws(() => parseVary('gpgpu_rt_max_warpz=1,2'), { message: /unknown configuration knob 'gpgpu_rt_max_warpz'/ });
  t.throws(() => parseVary('limit=perfect-cache'), { message: /unknown limit study 'perfect-cache'/ });
  t.throws(() => parseVary('gpgpu_rt_max_warps'), { message: /expected knob=v1,v2/ });
  t.throws(() => sweepPoints([parseVary('gpgpu_rt_max_warps=1,x')], 'mobile', []), { message: /gpgpu_rt_max_warps/ });
});

test('a sweep runs its points in workers, writes one CSV row per point, and a rerun reuses every point', async (t) => {
  const jobDir = mkdtempSync(join(tmpdir(), 'vvision-sweep-'));
  const o = { workload: 'ao', config: 'mobile', overrides: ['gpgpu_n_clusters=2'], run: { width: 32, height: 16 }, dims: [parseVary('gpgpu_rt_max_warps=1,8')], jobs: 2, jobDir };
  const first = await runSweep(o);
  t.is(first.ran, 2);
  t.is(first.rows[0]!.speedup, 1);
  t.true(first.rows[1]!.values.gpu_sim_cycle! < first.rows[0]!.values.gpu_sim_cycle!, 'more RT warps hide more latency');
  const csv = sweepCsv(first).trim().split('\n');
  t.is(csv.length, 3);
  t.true(csv[0]!.startsWith('gpgpu_rt_max_warps,gpu_sim_cycle,gpu_ipc,'));
  t.true(csv[2]!.startsWith(`8,${first.rows[1]!.values.gpu_sim_cycle},`));
  const wider = await runSweep({ ...o, dims: [parseVary('gpgpu_rt_max_warps=1,2,8')] });
  t.is(wider.ran, 1, 'only the new point is simulated');
  t.is(wider.reused, 2);
  t.deepEqual(wider.rows[2]!.values, first.rows[1]!.values);
});

test('vvision sweep: writes sweep.csv and the page; no --vary is a usage error', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-sweep-cli-'));
  const run = (args: string[]) => spawnSync(process.execPath, [...VVISION, 'sweep', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  const ok = run(['tri', '--width', '32', '--height', '4', '--vary', 'limit=baseline,perfect-bvh', '--jobs', '1', '--job-dir', join(dir, 'jobs'), '--out', join(dir, 'out')]);
  t.is(ok.status, 0, ok.stderr);
  t.regex(ok.stdout, /2 points \(2 simulated, 0 reused/);
  for (const f of ['sweep.csv', 'index.html', 'charts/sweep-cycles.png', 'charts/sweep-dram.png']) t.true(existsSync(join(dir, 'out', f)), f);
  t.regex(readFileSync(join(dir, 'out', 'sweep.csv'), 'utf8'), /^limit,gpu_sim_cycle/);
  const bad = run(['tri', '--job-dir', join(dir, 'jobs')]);
  t.is(bad.status, 1);
  t.regex(bad.stderr, /give at least one --vary/);
  const typo = run(['tri', '--vary', 'gpgpu_rt_max_warpz=1', '--job-dir', join(dir, 'jobs')]);
  t.is(typo.status, 1);
  t.regex(typo.stderr, /unknown configuration knob 'gpgpu_rt_max_warpz'/);
});
