import test from 'ava';
import { simulateWorkload } from '../../src/driver/simulate-workload.js';

test('timing run: the timing model issues exactly what the functional core executed, deterministically', async (t) => {
  const a = await simulateWorkload('tri', { config: 'mobile', width: 32, height: 16 });
  const b = await simulateWorkload('tri', { config: 'mobile', width: 32, height: 16 });
  t.is(a.stats.values.vvision_ir_thread_insn, a.counters!.threadInsts);
  t.is(a.stats.values.gpu_sim_cycle, b.stats.values.gpu_sim_cycle);
  t.true(a.stats.values.gpu_sim_cycle! > 0);
  t.is(a.stats.values.rt_fcc_buffer_accesses, 0);
});

test('FCC on rtv6: higher SIMT efficiency, and the coalescing buffer costs RT-unit memory traffic (Vulkan-Sim IV-A, Fig. 17)', async (t) => {
  const base = await simulateWorkload('rtv6', { config: 'mobile', width: 32, height: 16 });
  const fcc = await simulateWorkload('rtv6', { config: 'mobile', width: 32, height: 16, fcc: true });
  t.true(fcc.stats.values.gpu_simt_efficiency! > base.stats.values.gpu_simt_efficiency!);
  t.true(fcc.stats.values.rt_fcc_buffer_accesses! > 0);
  t.is(fcc.stats.values.rt_total_rays, base.stats.values.rt_total_rays);
});
