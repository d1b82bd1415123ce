import test from 'ava';
import { ConfigError } from '../../../src/sim/config/config-error.js';
import { applyOverrides, readConfigText } from '../../../src/sim/config/config-file.js';

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
  t.deepEqual(ignored, ['vs.config:1: gpgpu_ptx_sim_mode', 'vs.config:2: gpgpu_shmem_size']);
  t.is(m.get('gpgpu_n_mem')!.value, '6');
  t.throws(() => readConfigText('-gpgpu_shmem_sise 1\n', 'vs.config'), { message: /unknown configuration key "gpgpu_shmem_sise"/ });
});
