/**
 * The Slurm backend on a real one-node cluster (no mock): the test starts munged, slurmctld and
 * slurmd from the project's config template in a temporary folder, runs a small sweep through
 * `--backend slurm`, checks its results equal the local backend's, kills one array task mid-way
 * and checks that collecting reports it and that rerunning submits only it. Skips with a message
 * where Slurm is not installed or the test is not root (the daemons run as root here).
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { localBackend } from '../../../src/driver/jobs/backend.js';
import { slurmBackend, writeSlurmBatch, type SlurmBackendOptions } from '../../../src/driver/jobs/slurm-backend.js';
import { JobStore } from '../../../src/driver/jobs/job-store.js';
import { runSweep, type SweepOptions } from '../../../src/driver/sweep/run-sweep.js';
import { parseVary } from '../../../src/driver/sweep/sweep-grid.js';
import { VVISION } from '../../cli/vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const missing = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scancel'].filter((c) => !has(c));
const skipWhy = missing.length > 0
  ? `Slurm not installed (missing ${missing.join(', ')}; .ci/run installs slurmctld slurmd slurm-client munge)`
  : process.getuid?.() !== 0 ? 'the one-node test cluster runs its daemons as root' : undefined;

const dir = mkdtempSync(join(tmpdir(), 'vvision-slurm-'));
const env = { ...process.env, SLURM_CONF: join(dir, 'slurm.conf') };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startCluster(): void {
  const host = hostname().split('.')[0]!;
  const port = 20000 + (process.pid % 5000) * 2;
  const conf = readFileSync(join(ROOT, 'test/fixtures/slurm/slurm.conf.in'), 'utf8')
    .replaceAll('@DIR@', dir).replaceAll('@HOST@', host).replaceAll('@CTLD_PORT@', String(port)).replaceAll('@SLURMD_PORT@', String(port + 1));
  writeFileSync(env.SLURM_CONF, conf);
  for (const d of ['state', 'spool']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'munge.key'), Buffer.alloc(1024, 7), { mode: 0o600 });
  execFileSync('munged', ['--force', `--key-file=${dir}/munge.key`, `--socket=${dir}/munge.socket`, `--pid-file=${dir}/munged.pid`,
    `--log-file=${dir}/munged.log`, `--seed-file=${dir}/munged.seed`]);
  execFileSync('slurmctld', ['-f', env.SLURM_CONF, '-i'], { env });
  execFileSync('slurmd', ['-f', env.SLURM_CONF], { env });
}

async function waitForIdleNode(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const r = spawnSync('sinfo', ['-h', '-o', '%t'], { env, encoding: 'utf8' });
    if (r.status === 0 && /idle|mix/.test(r.stdout)) return;
    await sleep(500);
  }
  throw new Error(`the test cluster did not come up: ${readFileSync(join(dir, 'slurmctld.log'), 'utf8').slice(-600)}`);
}

async function stopCluster(): Promise<void> {
  spawnSync('scancel', ['--user=root'], { env });
  const pids = ['slurmd.pid', 'slurmctld.pid', 'munged.pid'].map((f) => join(dir, f)).filter((p) => existsSync(p)).map((p) => Number(readFileSync(p, 'utf8').trim()));
  for (const pid of pids) spawnSync('kill', [String(pid)]);
  const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
  for (let i = 0; i < 50 && pids.some(alive); i++) await sleep(100);
  rmSync(dir, { recursive: true, force: true });
}

const sweep = (jobDir: string, backend: SweepOptions['backend'], vary = 'gpgpu_rt_max_warps=1,4'): SweepOptions => ({
  workload: 'ao', config: 'mobile', overrides: ['gpgpu_n_clusters=2'], run: { width: 64, height: 32 }, dims: [parseVary(vary)], jobDir, ...(backend ? { backend } : {}),
});

const slurmOptions = (submit: boolean): SlurmBackendOptions => ({ submit, sbatchOptions: [], command: { argv: [], cwd: ROOT }, pollMs: 300 });

if (skipWhy) {
  rmSync(dir, { recursive: true, force: true });
  test('slurm backend', (t) => {
    t.log(`skipped: ${skipWhy}`);
    t.pass();
  });
} else {
  test.before(async () => {
    process.env.SLURM_CONF = env.SLURM_CONF;
    startCluster();
    await waitForIdleNode();
  });
  test.after.always(async () => stopCluster());

  test.serial('a sweep through sbatch --array gives the local backend\'s results', async (t) => {
    const viaSlurm = await runSweep(sweep(mkdtempSync(join(dir, 'jobs-')), slurmBackend(slurmOptions(true))));
    const local = await runSweep(sweep(mkdtempSync(join(dir, 'jobs-')), localBackend(2)));
    t.is(viaSlurm.ran, 2);
    const strip = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).filter(([k]) => !/wall|_rate$/.test(k)));
    t.deepEqual(viaSlurm.rows.map((r) => strip(r.values)), local.rows.map((r) => strip(r.values)));
  });

  test.serial('a task killed mid-way is reported with its log, and rerunning submits only it', async (t) => {
    const jobDir = mkdtempSync(join(dir, 'jobs-'));
    const store = new JobStore(jobDir);
    const o = sweep(jobDir, undefined, 'gpgpu_rt_max_warps=1,2,4');
    // Write the batch as --no-submit would, submit it by hand, kill task 0 once it runs.
    const ids = o.dims[0]!.values.map((v) => store.add({ kind: 'sim', workload: 'ao', config: 'mobile', overrides: ['gpgpu_n_clusters=2', `gpgpu_rt_max_warps=${v}`], run: o.run }));
    const batch = writeSlurmBatch(store, ids, slurmOptions(false));
    const jobId = execFileSync('sbatch', ['--parsable', batch.script], { env, encoding: 'utf8' }).trim();
    for (let i = 0; i < 100; i++) {
      const state = spawnSync('squeue', ['-h', '-j', `${jobId}_0`, '-o', '%t'], { env, encoding: 'utf8' }).stdout.trim();
      if (state === 'R') break;
      await sleep(100);
    }
    execFileSync('scancel', [`${jobId}_0`], { env });
    for (let i = 0; i < 200 && spawnSync('squeue', ['-h', '-j', jobId], { env, encoding: 'utf8' }).stdout.trim() !== ''; i++) await sleep(200);
    t.falsy(store.result(ids[0]!), 'the killed task left no result');
    t.truthy(store.result(ids[1]!));
    t.truthy(store.result(ids[2]!));
    // Collecting (run nothing) names the missing job; rerunning through Slurm submits only it.
    await t.throwsAsync(() => runSweep({ ...o, backend: { name: 'collect', run: async (s, all) => ({ ran: [], skipped: all.filter((x) => s.result(x)), failed: s.pending(all).map((id) => ({ id, error: 'not finished' })) }) } }), { message: /1 job\(s\) without a result: not finished/ });
    const rerun = await runSweep({ ...o, backend: slurmBackend(slurmOptions(true)) });
    t.is(rerun.ran, 1);
    t.is(rerun.reused, 2);
    const batches = readFileSync(join(jobDir, 'slurm', spawnSync('ls', ['-t', join(jobDir, 'slurm')], { encoding: 'utf8' }).stdout.split('\n')[0]!, 'jobs.txt'), 'utf8').trim().split('\n');
    t.deepEqual(batches, [ids[0]], 'the new array holds only the killed job');
  });

  test.serial('vvision sweep --backend slurm --no-submit writes the script; vvision collect finishes the sweep', async (t) => {
    const jobDir = mkdtempSync(join(dir, 'jobs-'));
    const out = join(dir, 'collected');
    const cli = (args: string[]) => spawnSync(process.execPath, [...VVISION, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...env, CI: '1' } });
    const written = cli(['sweep', 'tri', '--width', '32', '--height', '4', '--vary', 'gpgpu_rt_max_warps=1,2', '--backend', 'slurm', '--no-submit', '--job-dir', jobDir, '--out', out]);
    t.is(written.status, 0, written.stderr);
    const batchDir = /vvision collect (\S+)/.exec(written.stdout)![1]!;
    const early = cli(['collect', batchDir]);
    t.is(early.status, 1);
    t.regex(early.stderr, /2 job\(s\) without a result/);
    t.false(existsSync(out), 'no output before the results are in');
    execFileSync('sbatch', ['--wait', join(batchDir, 'array.sbatch')], { env });
    const done = cli(['collect', batchDir]);
    t.is(done.status, 0, done.stderr);
    t.regex(done.stdout, /2 points \(0 simulated on collect, 2 reused/);
    t.true(existsSync(join(out, 'sweep.csv')));
  });
}
