/**
 * The timing model driven by the real functional core (execution-driven): a built-in workload is
 * prepared by the driver, its warps come from `createWarps`, and `simulate` steps them.
 */
import test from 'ava';
import { launchOptionsOf, prepareRun } from '../../../src/driver/run-workload.js';
import { countersOf, createWarps } from '../../../src/sim/functional/launch.js';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../src/sim/timing/gpu.js';

test('tri runs on the mobile preset: every instruction the functional core executed is issued once', async (t) => {
  const p = await prepareRun('tri', { width: 64, height: 16 }, { shortStackSize: 8 });
  const warps = createWarps(p.program, p.host.resources, launchOptionsOf(p, 'rows'));
  const s = simulate(warps, loadConfig('mobile'));
  const c = countersOf(warps, p.program)!;
  t.is(s.values.gpu_sim_truncated, 0);
  t.is(s.values.vvision_ir_warp_insn, c.warpInsts);
  t.is(s.values.vvision_ir_thread_insn, c.threadInsts);
  t.is(s.values.rt_total_rays, 64 * 16, 'one primary ray per pixel');
  t.true(s.values.gpu_sim_cycle! > 0);
  t.true(s.values.L1D_total_cache_accesses! > 0);
});

test('ao: raising gpgpu_rt_max_warps from 1 to 8 lowers cycles, with diminishing returns (Vulkan-Sim Fig. 16)', async (t) => {
  const p = await prepareRun('ao', { width: 64, height: 16, spp: 1 }, { shortStackSize: 8 });
  const cycles = [1, 2, 8].map((w) => {
    const warps = createWarps(p.program, p.host.resources, launchOptionsOf(p, 'rows'));
    return simulate(warps, loadConfig('mobile', ['gpgpu_n_clusters=1', `gpgpu_rt_max_warps=${w}`])).values.gpu_sim_cycle!;
  });
  t.true(cycles[0]! > cycles[1]! && cycles[1]! > cycles[2]!, `cycles for 1, 2, 8 warps: ${cycles.join(', ')}`);
  // 2 -> 8 is two doublings; each gains less than the first doubling did.
  t.true(cycles[0]! / cycles[1]! > Math.sqrt(cycles[1]! / cycles[2]!), `cycles for 1, 2, 8 warps: ${cycles.join(', ')}`);
});

test('gpu_warp_insn counts the PTX instructions Vulkan-Sim would run: fewer than the IR where promoted-variable and composite moves vanish', async (t) => {
  const p = await prepareRun('tri', { width: 32, height: 8 }, { shortStackSize: 8 });
  const s = simulate(createWarps(p.program, p.host.resources, launchOptionsOf(p, 'rows')), loadConfig('mobile'));
  t.true(s.values.gpu_warp_insn! > 0);
  t.not(s.values.gpu_warp_insn, s.values.vvision_ir_warp_insn);
  t.true(s.values.gpu_sim_insn! <= 32 * s.values.gpu_warp_insn!);
});
