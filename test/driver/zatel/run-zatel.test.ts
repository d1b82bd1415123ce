/**
 * Zatel end to end on a small frame: group jobs run in worker threads, validation.json has the
 * contract's shape and the prediction is close on the headline metrics; a rerun reuses every
 * finished job; the CLI writes its files and rejects bad options with a message.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runZatel, validationJson, type ZatelOptions } from '../../../src/driver/zatel/run-zatel.js';
import { VVISION } from '../../cli/vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function options(jobDir: string): ZatelOptions {
  return {
    workload: 'ao', config: 'mobile', overrides: [], run: { width: 64, height: 32, spp: 1 }, fraction: 'auto', division: 'fine',
    distribution: 'uniform', extrapolation: 'linear', clusters: 5, seed: 1, jobs: 2, jobDir, validate: true,
  };
}

test('zatel --validate: K groups in workers, predictions beside the full run, and a resumed run reuses the jobs', async (t) => {
  const jobDir = mkdtempSync(join(tmpdir(), 'vvision-zatel-'));
  const r = await runZatel(options(jobDir));
  t.is(r.downscaling.k, 4);
  t.is(r.groups.length, 4);
  t.true(r.groups.every((g) => g.runs[0]!.selection.fraction >= 0.25 && g.runs[0]!.selection.fraction <= 0.65));
  const v = r.validation!;
  const json = JSON.parse(validationJson(v)) as { metrics: Record<string, { predicted: number; full: number; relativeError: number }>; speedup: number; zatelWallSeconds: number; fullWallSeconds: number };
  for (const m of ['gpu_sim_cycle', 'gpu_ipc', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate', 'rt_avg_efficiency', 'dram_eff', 'bwutil']) {
    t.truthy(json.metrics[m], m);
    const x = json.metrics[m]!;
    t.true(Math.abs(x.relativeError - Math.abs(x.predicted - x.full) / x.full) < 1e-9);
  }
  t.true(json.speedup > 0 && json.zatelWallSeconds > 0 && json.fullWallSeconds > 0);
  // The predicted instruction count is the traced work scaled up: close to the full run's.
  t.true(json.metrics.gpu_sim_insn!.relativeError < 0.25, `instructions off by ${json.metrics.gpu_sim_insn!.relativeError}`);
  t.true(json.metrics.L1D_total_cache_miss_rate!.relativeError < 0.25);
  // Machine-independent cost (issue 23.4): CPU seconds summed over workers, simulated SM-cycles.
  t.true(r.timing.heatmapCpuSeconds > 0 && r.timing.groupsCpuSeconds > 0 && v.fullCpuSeconds > 0);
  t.true(Math.abs(v.cpuSpeedup - v.fullCpuSeconds / v.zatelCpuSeconds) < 1e-9);
  // The groups' SM-cycles plus the filter-only run's (every pixel filtered out: a short launch).
  const groupsSmCycles = r.groups.reduce((a, g) => a + g.runs[0]!.values.gpu_sim_cycle! * r.downscaling.sms, 0);
  t.true(v.zatelSmCycles > groupsSmCycles && v.zatelSmCycles < 1.5 * groupsSmCycles);
  t.is((v.zatelSmCycles - groupsSmCycles) % r.downscaling.sms, 0);
  t.true(r.filterInstructions! > 0, 'the filter-only run executed the filter');
  t.is(v.fullSmCycles, json.metrics.gpu_sim_cycle!.full * 8);
  t.true(Math.abs(v.smCycleSpeedup - v.fullSmCycles / v.zatelSmCycles) < 1e-9);
  t.truthy((JSON.parse(validationJson(v)) as { smCycleSpeedup?: number }).smCycleSpeedup);
  // The cost balance brings every group's traced cost share within 1% of its pixel share.
  t.true(r.costRatios.every((c) => Math.abs(c - 1) <= 0.0101), `${r.costRatios}`);
  // 64x32 with K = 4: each group traces a few hundred threads on 2 SMs: the frame is too small.
  t.true(r.wavesPerGroup < 1);
  t.true(r.warnings.some((w) => /frame too small for K = 4/.test(w)), r.warnings.join('; '));

  const again = await runZatel(options(jobDir));
  t.is(again.timing.groupsTiming, 'estimated from cached jobs', 'no group was simulated again');
  t.deepEqual(again.predicted, r.predicted);
  t.true(again.timing.groupsCpuSeconds > 0, 'cached: the jobs\' recorded CPU seconds');
  t.true(again.validation!.fullCpuSeconds > 0, 'cached full run: its recorded CPU time');
});

test('vvision zatel: files, and bad options as one-line errors', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-zatel-cli-'));
  const run = (args: string[]) => spawnSync(process.execPath, [...VVISION, 'zatel', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  const ok = run(['tri', '--width', '64', '--height', '8', '--fraction', '0.5', '--jobs', '1', '--job-dir', join(dir, 'jobs'), '--out', join(dir, 'out')]);
  t.is(ok.status, 0, ok.stderr);
  t.regex(ok.stdout, /Zatel: K = 4 groups on 2 SMs \/ 1 partition\(s\) each/);
  t.regex(ok.stdout, /CPU: heatmap [\d.]+ s \+ groups [\d.]+ s \(summed over workers\); simulated [\d,]+ SM-cycles/);
  t.regex(ok.stdout, /warning: frame too small for K = 4/);
  for (const f of ['index.html', 'predicted.json', 'heatmap.png', 'heatmap-quantised.png', 'chosen-pixels.png', 'groups.csv', 'charts/zatel-groups.png']) {
    t.true(existsSync(join(dir, 'out', f)), f);
  }
  t.false(existsSync(join(dir, 'out', 'validation.json')), 'only with --validate');
  t.truthy(JSON.parse(readFileSync(join(dir, 'out', 'predicted.json'), 'utf8')).metrics.gpu_sim_cycle);
  for (const [args, msg] of [
    [['--k', '3'], /--k 3 does not divide both the 8 SMs and the 4 memory partitions/],
    [['--fraction', '2'], /--fraction: expected auto or a number in \(0, 1\]/],
    [['--division', 'diagonal'], /--division: expected fine, coarse/],
    [['--balance', 'maybe'], /--balance: expected rows, cost, none/],
  ] as const) {
    const bad = run(['tri', '--width', '32', '--height', '4', '--job-dir', join(dir, 'jobs'), ...args]);
    t.is(bad.status, 1);
    t.regex(bad.stderr, msg);
    t.notRegex(bad.stderr, /at .*\.ts:\d+/, 'no stack trace');
  }
});
