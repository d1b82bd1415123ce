import test from 'ava';
import { writeTreeletReport, treeletCharts, type TreeletReportInput } from '../../src/report/write-treelet-report.js';
import { STAT_META } from '../../src/sim/timing/stats.js';

const input = (): TreeletReportInput => ({
  workload: 'pt', config: 'treelet', params: { width: 16, height: 16, spp: 1 },
  runs: [
    { label: 'baseline', values: { gpu_sim_cycle: 1000, rt_simt_efficiency: 0.4, L2_total_cache_accesses: 50, dram_reads: 10, rt_total_requests: 20 }, l1MissRate: [0.5, 0.6], intervalCycles: 500 },
    {
      label: 'treelets, repack 22',
      values: {
        gpu_sim_cycle: 800, rt_simt_efficiency: 0.7, L2_total_cache_accesses: 60, dram_reads: 12, rt_total_requests: 25,
        treelet_cycles_initial: 10, treelet_cycles_treelet: 30, treelet_cycles_ray: 60, treelet_tests_initial: 1, treelet_tests_treelet: 1, treelet_tests_ray: 2,
        treelet_count_table_bytes: 2325, treelet_queue_table_bytes: 6448, treelet_warps_initial: 3,
      },
      l1MissRate: [0.3], intervalCycles: 500,
    },
  ],
  paper: { 'treelets, repack 22': { speedup: 1.95, simtEfficiency: 0.82 } },
  meta: STAT_META,
});

test('the treelet study charts the paper\'s figures from the runs\' statistics', (t) => {
  const charts = treeletCharts(input());
  t.deepEqual(charts.map((c) => c.id), ['treelet-speedup', 'treelet-simt', 'treelet-mode-cycles', 'treelet-mode-tests', 'treelet-l1-miss', 'treelet-memory']);
  const data = (id: string, k = 0) => (charts.find((c) => c.id === id)!.config as { data: { datasets: { data: number[] }[] } }).data.datasets[k]!.data;
  t.deepEqual(data('treelet-speedup'), [1, 1.25]);
  t.deepEqual(data('treelet-speedup', 1), [0, 1.95], 'the paper\'s figure beside ours');
  t.deepEqual(data('treelet-mode-cycles', 1), [0.3], 'treelet-stationary share of cycles (only runs with the mechanism)');
  t.deepEqual(data('treelet-mode-tests', 2), [0.5]);
});

test('the page is written with its chart images and the Sec. 6.5 table', (t) => {
  const files = new Map<string, string | Uint8Array>();
  writeTreeletReport({ write: (n, d) => files.set(n, d) }, input());
  t.true(files.has('index.html'));
  t.true(files.has('charts/treelet-mode-cycles.png'));
  const html = String(files.get('index.html'));
  t.true(html.includes('2,325') && html.includes('6.29 KB'), 'table storage beside the paper');
});
