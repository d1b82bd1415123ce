import test from 'ava';
import { effectText, formatConfigIgnored, type IgnoredEffects } from '../../../src/sim/config/ignored-effects.js';

const effects: IgnoredEffects = {
  generator: 'npm run bench -- sensitivity',
  commit: 'abc123def456',
  config: 'SM75_RTX2060.gpgpusim.config',
  frame: 'lumibench-wknd 2 spp',
  effects: { gpgpu_num_int_units: { alternative: '--set gpgpu_num_sp_units=8', sizes: { '64x64': '-0.5%', '128x128': '+0.2%' } } },
};

test('config-ignored.txt: the measured effect next to each ignored option, "not measured" otherwise, the reason after it', (t) => {
  const text = formatConfigIgnored('rtx2060', [
    'a.config:12: gpgpu_num_int_units: issue-stage detail: not modelled',
    'a.config:30: gpgpu_shmem_size: shared memory: no shared-memory instruction',
  ], effects);
  const lines = text.trimEnd().split('\n');
  t.is(lines.length, 3);
  t.regex(lines[0]!, /^# options of rtx2060 .*commit abc123def456/);
  t.is(lines[1], 'a.config:12: gpgpu_num_int_units: effect on cycles 64x64 -0.5%, 128x128 +0.2% (measured through --set gpgpu_num_sp_units=8); ignored: issue-stage detail: not modelled');
  t.is(lines[2], 'a.config:30: gpgpu_shmem_size: effect on cycles not measured; ignored: shared memory: no shared-memory instruction');
});

test('config-ignored.txt without the generated figures says every effect is not measured', (t) => {
  t.is(effectText('gpgpu_num_int_units', undefined), 'effect on cycles not measured');
  const text = formatConfigIgnored('x.config', ['x.config:1: keep: PTX switch'], undefined);
  t.regex(text, /effects not measured/);
  t.regex(text, /\nx\.config:1: keep: effect on cycles not measured; ignored: PTX switch\n$/);
});

test('config-ignored.txt names the config file by its name, not the absolute path the loader read it from', (t) => {
  const text = formatConfigIgnored('mobile', ['/opt/vvision/build/sim/config/presets/mobile.config:4: keep: PTX switch'], undefined);
  t.regex(text, /\nmobile\.config:4: keep: effect on cycles not measured; ignored: PTX switch\n$/);
  t.false(text.includes('/opt/'));
});
