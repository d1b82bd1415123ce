import test from 'ava';
import { closestName, editDistance } from '../../../src/sim/config/config-error.js';

test('edit distance counts insertions, deletions and substitutions', (t) => {
  t.is(editDistance('', 'abc'), 3);
  t.is(editDistance('kitten', 'sitting'), 3);
  t.is(editDistance('gpgpu_rt_max_warps', 'gpgpu_rt_max_warps'), 0);
});

test('closest name picks the nearest declared key', (t) => {
  t.is(closestName('gpgpu_rt_max_warp', ['gpgpu_rt_max_mshr', 'gpgpu_rt_max_warps', 'gpgpu_n_mem']), 'gpgpu_rt_max_warps');
});
