import test from 'ava';
import { RtStats } from '../../../../src/sim/timing/rt/rt-stats.js';

test('a warp\'s efficiency is its ray fraction times its latency uniformity', (t) => {
  const s = new RtStats();
  // 8 rays, the warp 100 cycles in the unit, its rays 400 cycles together (a mean of 50 each).
  s.warpDone(100, 400, 8);
  t.is(s.warpEfficiencySum, 400 / (32 * 100));
  t.is(s.warpRayFractionSum, 8 / 32);
  t.is(s.warpUniformitySum, 400 / (8 * 100));
  t.is(s.warpEfficiencySum, s.warpRayFractionSum * s.warpUniformitySum);
});

test('a warp with no latency counts in the ray fraction but not the uniformity; add() sums both', (t) => {
  const a = new RtStats();
  a.warpDone(0, 0, 4);
  a.warpDone(10, 320, 32);
  t.is(a.warpsCompleted, 2);
  t.is(a.warpsWithRays, 1);
  t.is(a.warpRayFractionSum, 4 / 32 + 1);
  t.is(a.warpUniformitySum, 1);
  const b = new RtStats();
  b.add(a);
  b.add(a);
  t.is(b.warpsWithRays, 2);
  t.is(b.warpRayFractionSum, 2 * (4 / 32 + 1));
  t.is(b.warpUniformitySum, 2);
});
