import test from 'ava';
import { MicrobenchProbe } from '../../../bench/microbench/probe.js';
import { loadConfig } from '../../../src/sim/timing/index.js';

test('the probe measures load-to-use from the issue that raised the outstanding loads to the response that cleared them', (t) => {
  const probe = new MicrobenchProbe(loadConfig('mobile'));
  const hooks = probe.forSm(0);
  // issue(c, lanes, count, pendingLoads, now): one PTX instruction of one lane leaves one load outstanding.
  hooks.issue(3, 1, 1, 1, 100);
  hooks.issue(3, 1, 2, 1, 101);
  hooks.response(3, 0, 123);
  t.deepEqual(probe.record.loadLatencies[0], [23]);
});
