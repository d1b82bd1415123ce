import test from 'ava';
import { efficiencyFactors } from '../../../src/cli/commands/zatel.js';

const metric = (predicted: number, full: number) => ({ predicted, full, relativeError: Math.abs(predicted - full) / full });

test('an rt_avg_efficiency more than 10% off is taken apart by its two factors, with their signed errors', (t) => {
  const line = efficiencyFactors({
    rt_avg_efficiency: metric(0.36, 0.32),
    rt_avg_warp_ray_fraction: metric(0.71, 0.70),
    rt_avg_warp_latency_uniformity: metric(0.55, 0.50),
  });
  t.is(line, '  rt_avg_efficiency +12.5% by its factors: rt_avg_warp_ray_fraction +1.4% (the lanes per trace: which pixels are traced), ' +
    'rt_avg_warp_latency_uniformity +10.0% (how nearly together a trace\'s rays finish: the group runs\' timing)');
});

test('nothing is said within 10%, without validation, or without the factor statistics', (t) => {
  t.is(efficiencyFactors({ rt_avg_efficiency: metric(0.33, 0.32), rt_avg_warp_ray_fraction: metric(1, 1), rt_avg_warp_latency_uniformity: metric(1, 1) }), undefined);
  t.is(efficiencyFactors(undefined), undefined);
  t.is(efficiencyFactors({ rt_avg_efficiency: metric(0.5, 0.32) }), undefined);
});
