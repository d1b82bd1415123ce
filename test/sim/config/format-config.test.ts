import test from 'ava';
import { formatConfig } from '../../../src/sim/config/format-config.js';
import { configFromText, loadConfig } from '../../../src/sim/config/gpu-config.js';
import { PARAMS } from '../../../src/sim/config/params.js';

test('the written configuration reads back to the same configuration', (t) => {
  const cfg = loadConfig('treelet', ['gpgpu_rt_max_warps=3', 'gpgpu_scheduler=lrr']);
  const text = formatConfig(cfg);
  const back = configFromText(text);
  t.deepEqual(back.raw, cfg.raw);
  t.is(back.rt.maxWarps, 3);
  t.is(back.numSms, 16);
});

test('every parameter appears once with its description', (t) => {
  const text = formatConfig(loadConfig('mobile'));
  for (const p of PARAMS) {
    const hits = text.split('\n').filter((l) => l.startsWith(`-${p.name} `));
    t.is(hits.length, 1, p.name);
    t.true(hits[0]!.includes(p.description), p.name);
  }
});
