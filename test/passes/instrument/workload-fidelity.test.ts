/**
 * Issue 3's fidelity check on a built-in workload run through the driver (front end, lowering,
 * functional core): the active-lane histogram of every block, reconstructed from the `simt` dump,
 * equals the functional core's own per-block counters for the same launch WITHOUT instrumentation
 * (the instrumentation does not perturb execution), which is the per-site data every SIMT-efficiency figure is summed from.
 */
import test from 'ava';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { formatHistogram, simtEfficiency } from '../../../src/analytics/simt-efficiency.js';
import { itsEvidence } from '../../../src/analytics/its-evidence.js';
import { runWorkload } from '../../../src/driver/run-workload.js';

test('tri: per-block histograms and SIMT efficiency from the dump equal the core counters', async (t) => {
  const plain = await runWorkload('tri', {});
  const run = await runWorkload('tri', { instrument: ['simt', 'its'], bufferWords: 1 << 20 });
  const meta = run.metadata!;
  const dump = readDump(run.dump!, meta);
  const simt = simtEfficiency(dump, meta);
  // Global block index of the functional core: function order, then block layout order.
  const globalIndex = new Map<number, number>();
  let k = 0;
  for (const f of plain.linked.module.functions) for (const b of f.blocks) globalIndex.set(b.id, k++);
  for (const s of simt.perSite) {
    const site = meta.sites[s.site]!;
    const shader = meta.shaders[site.shader]!;
    const linked = plain.linked.shaders.filter((x) => x.path === shader.sourcePath);
    t.true(linked.length > 0, shader.name);
    const counted = new Array<number>(33).fill(0);
    for (const l of linked) {
      const gi = globalIndex.get(l.block(site.block as never));
      if (gi !== undefined) plain.counters.blockHistogram[gi]!.forEach((c, i) => (counted[i]! += c));
    }
    t.is(formatHistogram(s.histogram), formatHistogram(counted), `${shader.name} ${site.function} block ${site.block}`);
  }
  const raygenSites = simt.perSite.filter((s) => meta.shaders[meta.sites[s.site]!.shader]!.stage === 'raygen');
  t.deepEqual(raygenSites.map((s) => formatHistogram(s.histogram)), raygenSites.map(() => '32:128'), 'tri\'s raygen: 128 full warps, no divergence');
  t.true(simt.overall.efficiency > 0 && simt.overall.efficiency <= 1);
  t.deepEqual(itsEvidence(dump, meta).exitPerEntry, 1, 'SIMT stack: one exit per warp');
  t.true(run.counters.warpInsts > plain.counters.warpInsts, 'the probes are simulated like shader code');
});
