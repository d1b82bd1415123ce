/**
 * The job store and the local backend: ids are content hashes, results are written whole, a
 * failing job records its error while the others finish, and finished jobs are never rerun.
 */
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, decodePixelMask, encodePixelMask, jobId, type SimJobSpec } from '../../../src/driver/jobs/job-spec.js';
import { JobStore } from '../../../src/driver/jobs/job-store.js';
import { runJobsLocally } from '../../../src/driver/jobs/local-backend.js';

const spec = (over: Partial<SimJobSpec> = {}): SimJobSpec => ({
  kind: 'sim', workload: 'tri', config: 'mobile', overrides: ['gpgpu_n_clusters=1'], run: { width: 32, height: 4 }, ...over,
});

test('job ids depend on content, not key order; masks round-trip', (t) => {
  t.is(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}');
  t.is(jobId(spec()), jobId({ run: { height: 4, width: 32 }, overrides: ['gpgpu_n_clusters=1'], config: 'mobile', workload: 'tri', kind: 'sim' }));
  t.not(jobId(spec()), jobId(spec({ overrides: ['gpgpu_n_clusters=2'] })));
  const words = Uint32Array.from([1, 0x80000002, 0xffffffff]);
  t.deepEqual(decodePixelMask(encodePixelMask(words)), words);
});

test('local backend: results beside specs, a failure is recorded and the rest finish, done jobs are skipped', async (t) => {
  const store = new JobStore(mkdtempSync(join(tmpdir(), 'vvision-jobs-')));
  const good = [store.add(spec()), store.add(spec({ overrides: ['gpgpu_n_clusters=2'] }))];
  const bad = store.add(spec({ workload: 'no-such-workload' }));
  const finished: string[] = [];
  const first = await runJobsLocally(store, [...good, bad], { jobs: 2, onFinish: (id) => finished.push(id) });
  t.deepEqual([...first.ran].sort(), [...good].sort());
  t.is(first.failed.length, 1);
  t.regex(first.failed[0]!.error, /no-such-workload: unknown workload/);
  t.regex(store.failure(bad)!, /unknown workload/);
  t.is(finished.length, 3);
  for (const id of good) {
    t.true(store.result(id)!.values.gpu_sim_cycle! > 0);
    t.deepEqual(readdirSync(store.jobDir(id)).sort(), ['result.json', 'spec.json'], 'no temporary files left');
  }
  const second = await runJobsLocally(store, good, { jobs: 2 });
  t.deepEqual(second.ran, []);
  t.deepEqual([...second.skipped].sort(), [...good].sort());
  t.false(existsSync(join(store.jobDir(bad), 'result.json')));
});
