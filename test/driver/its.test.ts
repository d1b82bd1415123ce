/**
 * The `its` run option end to end: V-Vision's ITS evidence (Fig. 10-11: exit/entry of the
 * pipeline) and unchanged images, functional and on the timing model.
 */
import test from 'ava';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { runWorkload } from '../../src/driver/run-workload.js';
import { H100_ITS_EXITS_PER_ENTRY } from '../../src/report/its-hardware-reference.js';

const size = { width: 16, height: 8, spp: 1 };

test('its instrumentation: exit/entry is 1.0 on the SIMT stack and above 1.0 under ITS (ao, divergent traceRay)', async (t) => {
  const ipdom = await instrumentWorkload('ao', 'its', size);
  const its = await instrumentWorkload('ao', 'its', { ...size, its: true });
  const a = ipdom.results.its![0]!.evidence;
  const b = its.results.its![0]!.evidence;
  t.is(a.exitPerEntry, 1);
  t.is(b.entryExecutions, a.entryExecutions, 'every warp enters the pipeline once either way');
  t.true(b.exitPerEntry > 1, `exit/entry under ITS: ${b.exitPerEntry}`);
});

test('its instrumentation on the timing model: splits leave the pipeline separately', async (t) => {
  const r = await instrumentWorkload('ao', 'its', { ...size, its: true, config: 'mobile', overrides: ['gpgpu_n_clusters=2'] });
  const e = r.results.its![0]!.evidence;
  t.true(e.exitPerEntry > 1, `exit/entry: ${e.exitPerEntry}`);
});

test('its instrumentation: a workload without divergence keeps exit/entry at 1.0 under ITS', async (t) => {
  const r = await instrumentWorkload('tri', 'its', { width: 32, height: 2, its: true });
  t.is(r.results.its![0]!.evidence.exitPerEntry, 1);
});

for (const w of ['ao', 'pt', 'rtv6']) {
  test(`ITS renders the same image as the SIMT stack (${w})`, async (t) => {
    const a = await runWorkload(w, size);
    const b = await runWorkload(w, { ...size, its: true });
    t.deepEqual(Buffer.from(b.image!.levels[0]!.data.buffer), Buffer.from(a.image!.levels[0]!.data.buffer));
    t.is(b.counters.threads, a.counters.threads);
  });
}

for (const engine of ['functional', 'timing'] as const) {
  test(`its-shapes under --its reproduces the H100 exit/entry table (${engine})`, async (t) => {
    for (const s of H100_ITS_EXITS_PER_ENTRY) {
      const r = await instrumentWorkload('its-shapes', 'its', {
        width: 64, height: 4, its: true, push: { shape: s.shape }, ...(engine === 'timing' ? { config: 'mobile' } : {}),
      });
      const e = r.results.its![0]!.evidence.exitPerEntry;
      t.log(`shape ${s.shape} (${s.raygen}): vvision ${e}, H100 ${s.exitsPerEntry}`);
      if (s.shape === 4) t.true(e > 1 && e < 1.5, `shape 4: only warps where hits and misses mix leave in two pieces (${e})`);
      else t.is(e, s.exitsPerEntry, `shape ${s.shape}: ${s.raygen}`);
    }
  });
}

test('its_reconverge_after_trace (barriers-all) reconverges every shape; merge is the earlier model', async (t) => {
  for (const policy of ['barriers-all', 'merge'] as const) {
    const r = await instrumentWorkload('its-shapes', 'its', { width: 64, height: 2, its: true, itsPolicy: policy, push: { shape: 5 } });
    t.is(r.results.its![0]!.evidence.exitPerEntry, 1, policy);
  }
});
