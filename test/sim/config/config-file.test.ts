import test from 'ava';
import { ConfigError } from '../../../src/sim/config/config-error.js';
import { existsSync, readFileSync } from 'node:fs';
import { applyOverrides, readConfigText } from '../../../src/sim/config/config-file.js';
import { buildGpuConfig } from '../../../src/sim/config/gpu-config.js';

test('reads -key value lines with comments, quotes and blank lines; later lines win', (t) => {
  const m = readConfigText(
    '# header\n\n-gpgpu_n_clusters 8   # eight SMs\n-gpgpu_dram_timing_opt "nbk=16:CCD=2:RCD=12:RAS=28:RP=12:CL=12"\n-gpgpu_n_clusters 4\n',
    'my.config',
  );
  t.is(m.get('gpgpu_n_clusters')!.value, '4');
  t.is(m.get('gpgpu_n_clusters')!.origin, 'my.config:5');
  t.is(m.get('gpgpu_dram_timing_opt')!.value, 'nbk=16:CCD=2:RCD=12:RAS=28:RP=12:CL=12');
});

test('an unknown key names the file, line, key and the closest known name', (t) => {
  const e = t.throws(() => readConfigText('-gpgpu_n_clusters 8\n-gpgpu_rt_max_warp 2\n', 'my.config'), { instanceOf: ConfigError });
  t.is(e!.message, 'my.config:2: unknown configuration key "gpgpu_rt_max_warp" (did you mean "gpgpu_rt_max_warps"?)');
  t.is(e!.key, 'gpgpu_rt_max_warp');
});

test('--set overrides take key=value and reject unknown keys', (t) => {
  const m = applyOverrides(['gpgpu_rt_max_warps=8', '-gpgpu_n_mem=6'], new Map());
  t.is(m.get('gpgpu_rt_max_warps')!.value, '8');
  t.is(m.get('gpgpu_n_mem')!.origin, '--set');
  t.throws(() => applyOverrides(['gpgpu_l1_latancy=3'], new Map()), { message: /did you mean "gpgpu_l1_latency"/ });
  t.throws(() => applyOverrides(['gpgpu_n_mem'], new Map()), { message: /key=value/ });
});

test('GPGPU-Sim options this model lacks are skipped and listed; other unknown keys still fail', (t) => {
  const ignored: string[] = [];
  const m = readConfigText('-gpgpu_ptx_sim_mode 0\n-gpgpu_shmem_size 65536\n-gpgpu_n_mem 6\n', 'vs.config', new Map(), ignored);
  t.is(ignored.length, 2);
  t.regex(ignored[0]!, /^vs\.config:1: gpgpu_ptx_sim_mode: PTX .*no PTX/);
  t.regex(ignored[1]!, /^vs\.config:2: gpgpu_shmem_size: shared memory: /);
  t.is(m.get('gpgpu_n_mem')!.value, '6');
  t.throws(() => readConfigText('-gpgpu_shmem_sise 1\n', 'vs.config'), { message: /unknown configuration key "gpgpu_shmem_sise"/ });
});

test('a double-quoted value may continue over several lines, as in Vulkan-Sim\'s own config', (t) => {
  const m = readConfigText('-gpgpu_dram_timing_opt "nbk=16:CCD=4:RRD=10:\n        CL=20:WL=8"\n-gpgpu_n_mem 6\n', 'vs.config');
  t.is(m.get('gpgpu_dram_timing_opt')!.value, 'nbk=16:CCD=4:RRD=10:CL=20:WL=8');
  t.is(m.get('gpgpu_n_mem')!.origin, 'vs.config:3');
  t.throws(() => readConfigText('-gpgpu_dram_timing_opt "nbk=16\n-gpgpu_n_mem 6\n', 'vs.config'), { message: /vs\.config:1: unterminated/ });
});

const VULKAN_SIM_CONFIG = '../shared/calibration/lumibench-wknd/vulkan-sim/SM75_RTX2060.gpgpusim.config';

test('Vulkan-Sim\'s SM75_RTX2060.gpgpusim.config reads as it is: every option modelled or ignored with a reason', (t) => {
  if (!existsSync(VULKAN_SIM_CONFIG)) {
    t.log(`skipped: ${VULKAN_SIM_CONFIG} not found (the shared calibration folder is not beside the project)`);
    t.pass();
    return;
  }
  const ignored: string[] = [];
  const m = readConfigText(readFileSync(VULKAN_SIM_CONFIG, 'utf8'), VULKAN_SIM_CONFIG, new Map(), ignored);
  const cfg = buildGpuConfig(m, VULKAN_SIM_CONFIG);
  t.is(cfg.numSms, 30);
  t.is(cfg.rt.latency.join(','), '4,8,8,4,8,8,8');
  t.is(cfg.dram.CL, 20);
  t.true(cfg.l1d.sectored);
  t.true(ignored.length > 40);
  for (const line of ignored) t.regex(line, /^[^:]+:\d+: \S+: .{20,}/, 'each ignored option carries its reason');
});
