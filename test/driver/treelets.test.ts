import test from 'ava';
import { simulateWorkload } from '../../src/driver/simulate-workload.js';
import { imageToPng } from '../../src/sim/host/image-png.js';
import { TREELET_OVERRIDES } from '../../src/cli/commands/sim.js';

const png = (r: Awaited<ReturnType<typeof simulateWorkload>>) => Buffer.from(imageToPng(r.prepared.host.output!));

test('virtualized treelet queues change timing, never the image (pt, paper 001)', async (t) => {
  // Two SMs and a low queue threshold so treelet queues fill on a 16x16 frame.
  const base = ['gpgpu_n_clusters=2'];
  const off = await simulateWorkload('pt', { config: 'treelet', overrides: base, width: 16, height: 16 });
  const on = await simulateWorkload('pt', { config: 'treelet', overrides: [...base, ...TREELET_OVERRIDES, 'rt_treelet_queue_threshold=16'], width: 16, height: 16 });
  t.true(png(off).equals(png(on)), 'identical images');
  t.is(on.stats.values.gpu_sim_insn, off.stats.values.gpu_sim_insn, 'the same instructions ran');
  t.is(on.stats.values.rt_total_rays, off.stats.values.rt_total_rays);
  t.not(on.stats.values.gpu_sim_cycle, off.stats.values.gpu_sim_cycle, 'timing changed');
  const v = on.stats.values;
  t.true(v.virt_ctas_suspended! > 0 && v.virt_ctas_suspended === v.virt_ctas_resumed, 'CTAs were terminated and all resumed');
  t.true(v.treelet_queued_rays! > 0, 'rays went through the treelet queues');
  t.true(v.treelet_tests_treelet! > 0, 'some intersection tests ran treelet-stationary');
  t.false('treelet_cycles_initial' in off.stats.values, 'no treelet statistics with the mechanism off');
});
