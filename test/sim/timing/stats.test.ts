import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../src/sim/timing/gpu.js';
import { STAT_META, formatStats, predictorMemorySavings } from '../../../src/sim/timing/stats.js';
import { traversalWorkload } from './synthetic-warp.js';

const run = () => simulate(traversalWorkload(8, 2, 8, 1 << 18), loadConfig('mobile', ['gpgpu_n_clusters=1']));

test('every printed scalar has a unit and description, and the Vulkan-Sim names are there', (t) => {
  const s = run();
  for (const k of Object.keys(s.values)) t.truthy(STAT_META[k], `no metadata for ${k}`);
  for (const k of [
    'gpu_sim_cycle', 'gpu_sim_insn', 'gpu_ipc', 'gpu_occupancy', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate',
    'dram_eff', 'bwutil', 'rt_avg_efficiency', 'rt_avg_warp_occupancy', 'rt_avg_warp_latency', 'rt_avg_thread_latency',
    'rt_avg_nodes_per_ray', 'rt_op_intensity', 'rt_avg_performance', 'gpu_total_sim_rate',
  ]) t.true(k in s.values, k);
});

test('derived ratios agree with their counters', (t) => {
  const v = run().values;
  t.is(v.gpu_ipc, v.gpu_sim_insn! / v.gpu_sim_cycle!);
  t.is(v.L1D_total_cache_miss_rate, v.L1D_total_cache_misses! / v.L1D_total_cache_accesses!);
  t.is(v.rt_avg_nodes_per_ray, 8);
  t.true(v.dram_eff! > 0 && v.dram_eff! <= 1);
  t.true(v.bwutil! > 0 && v.bwutil! <= v.dram_eff!);
  t.true(v.rt_avg_efficiency! > 0 && v.rt_avg_efficiency! <= 1);
});

test('the text dump is `name = value` lines that round-trip the scalars', (t) => {
  const s = run();
  const text = formatStats(s);
  const parsed = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(\S+) = (\S+)$/.exec(line);
    t.truthy(m, `not name = value: ${line}`);
    parsed.set(m![1]!, m![2]!);
  }
  t.is(Number(parsed.get('gpu_sim_cycle')), s.values.gpu_sim_cycle);
  t.is(Number(parsed.get('rt_total_rays')), 8 * 2 * 32);
  t.is(parsed.get('rt_warp_latency_histogram')!.split(',').length, 40);
  t.is(parsed.get('simt_histogram')!.split(',').length, 33);
  t.true(parsed.has('L1D_rt_miss_compulsory') && parsed.has('L2_shader_hit'));
});

test('rt_predictor_memory_savings compares the RT unit\'s memory requests with a baseline run\'s (paper 002 Fig. 13); node-fetch savings stay per run', (t) => {
  const baseline = { gpu_sim_cycle: 100, rt_total_requests: 45_000 };
  const fewer = { gpu_sim_cycle: 90, rt_total_requests: 40_500, rt_predictor_lookups: 10, rt_predictor_node_fetch_savings: 0.2 };
  const more = { ...fewer, rt_total_requests: 63_000 };
  t.is(predictorMemorySavings(fewer, baseline), 0.1);
  t.is(predictorMemorySavings(more, baseline), -0.4, 'more requests than the baseline: negative savings, whatever the node-fetch savings');
  t.is(predictorMemorySavings(baseline, baseline), undefined, 'no predictor in the run');
  t.is(predictorMemorySavings(fewer, fewer), undefined, 'the reference has the predictor too');
  t.truthy(STAT_META.rt_predictor_memory_savings);
  t.truthy(STAT_META.rt_predictor_node_fetch_savings);
});

test('the streams and refusal series add up: read + write requests are the L2 accesses, the refusals over time sum to the total, maxima bound the means', (t) => {
  const s = simulate(traversalWorkload(32, 2, 8, 1 << 18), loadConfig('mobile', ['gpgpu_stats_sample_interval=100']));
  const v = s.values;
  t.is(v.gpgpu_n_mem_read_global! + v.gpgpu_n_mem_write_global!, v.L2_total_cache_accesses!);
  t.true(v.gpgpu_n_mem_read_global! > 0);
  const fails = s.distributions.l2Fails;
  t.is(fails.reduce((a, b) => a + b, 0), v.L2_total_cache_reservation_fails!);
  const last = fails.findIndex((_, i) => fails.slice(i).every((n) => n === 0));
  t.is(v.L2_reservation_fails_until_cycle, (last < 0 ? fails.length : last) * 100);
  t.true(v.maxmflatency! >= v.averagemflatency! && v.max_icnt2mem_latency! >= v.avg_icnt2mem_latency!);
  t.true(v.max_icnt2sh_latency! >= v.avg_icnt2sh_latency!);
  t.true(v.L2_total_cache_reservation_fails! > 0, 'eight SMs ask for the root sector at once: the merge limit of 4 refuses some');
});

test('per-channel DRAM figures add up to the GPU-wide ones; dram_channel_imbalance is the busiest channel over the mean', (t) => {
  const s = run();
  const ch = s.distributions.dramChannels;
  const v = s.values;
  t.is(ch.requests.length, 4, 'mobile has 4 channels');
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  t.is(sum(ch.requests), v.dram_reads! + v.dram_writes!);
  t.is(sum(ch.activates), v.dram_activates!);
  t.is(sum(ch.rowHits) / sum(ch.requests), v.dram_row_buffer_hit_rate!);
  t.is(v.dram_channel_imbalance, Math.max(...ch.requests) / (sum(ch.requests) / 4));
  t.true(v.dram_channel_imbalance! >= 1);
  const text = formatStats(s);
  const line = (name: string) => text.split('\n').find((l) => l.startsWith(`${name} = `))!.split(' = ')[1]!.split(',');
  t.deepEqual(line('dram_channel_requests').map(Number), ch.requests);
  for (const name of ['dram_channel_row_buffer_hit_rate', 'dram_channel_activates_per_request', 'dram_channel_eff', 'dram_channel_pending_cycles']) t.is(line(name).length, 4, name);
});
