/**
 * The HTML page of a sweep (`vvision sweep`): each metric against the first varied knob, one line
 * per combination of the other knobs (e.g. cycles and DRAM efficiency / utilization against
 * gpgpu_rt_max_warps, as Vulkan-Sim Fig. 16; normalised execution time per limit study, Fig. 15),
 * and the whole grid as a table. Input is plain data.
 */
import type { ChartSpec } from './chart-specs.js';
import { renderChartPng } from './render-chart-png.js';
import { loadTemplates, writeAssets, type ReportWriter } from './templates.js';

export interface SweepReportInput {
  workload: string;
  config: string;
  params: { width: number; height: number; spp: number };
  dims: { knob: string; values: string[] }[];
  rows: { values: string[]; metrics: Record<string, number>; speedup: number; wallSeconds: number }[];
  meta: Record<string, { unit: string; description: string }>;
  /** Knobs whose values are categories (study bundles), drawn as bars. */
  barKnobs?: readonly string[];
}

const COLORS = ['#3b6fb6', '#e07b39', '#4a9a5b', '#c94c4c', '#8a6bb8', '#9aa3ad', '#b6963b', '#3bb6a8'];

function seriesKey(values: string[]): string {
  return values.slice(1).join(' ');
}

function chart(input: SweepReportInput, id: string, title: string, caption: string, yTitle: string, series: { metric: string; label: string; scale?: (v: number, row: SweepReportInput['rows'][number]) => number }[]): ChartSpec {
  const [first, ...rest] = input.dims;
  const groups = [...new Set(input.rows.map((r) => seriesKey(r.values)))];
  const datasets = groups.flatMap((g, gi) => series.map((s, si) => {
    const data = first!.values.map((v) => {
      const row = input.rows.find((r) => r.values[0] === v && seriesKey(r.values) === g)!;
      const x = s.metric === 'speedup' ? row.speedup : row.metrics[s.metric] ?? 0;
      return s.scale ? s.scale(x, row) : x;
    });
    const label = [s.label, rest.length > 0 ? rest.map((d, i) => `${d.knob}=${g.split(' ')[i]}`).join(' ') : ''].filter(Boolean).join(', ');
    const color = COLORS[(gi * series.length + si) % COLORS.length]!;
    return { label, data, backgroundColor: color, borderColor: color };
  }));
  return {
    id, title, caption,
    config: {
      type: input.barKnobs?.includes(first!.knob) ? 'bar' : 'line',
      data: { labels: first!.values, datasets },
      options: {
        plugins: { legend: { display: true, position: 'bottom' } },
        scales: { x: { title: { display: true, text: first!.knob } }, y: { beginAtZero: true, title: { display: true, text: yTitle } } },
      },
    },
  };
}

export function sweepCharts(input: SweepReportInput): ChartSpec[] {
  const knob = input.dims[0]!.knob;
  const baseCycles = input.rows[0]?.metrics.gpu_sim_cycle ?? 1;
  return [
    chart(input, 'sweep-cycles', `Execution time vs ${knob}${knob === 'limit' ? ' (Vulkan-Sim Fig. 15)' : ''}`,
      'Simulated cycles normalised to the first point of the grid (lower is faster).', 'normalised execution time',
      [{ metric: 'gpu_sim_cycle', label: 'cycles', scale: (v) => v / baseCycles }]),
    chart(input, 'sweep-dram', `DRAM efficiency and utilization vs ${knob} (Vulkan-Sim Fig. 16)`,
      'DRAM efficiency: cycles transferring data / cycles with requests pending; utilization: cycles transferring / all cycles.', '%',
      [{ metric: 'dram_eff', label: 'DRAM efficiency', scale: (v) => 100 * v }, { metric: 'bwutil', label: 'DRAM utilization', scale: (v) => 100 * v }]),
    chart(input, 'sweep-ipc', `IPC vs ${knob}`, 'Thread instructions per cycle.', 'IPC', [{ metric: 'gpu_ipc', label: 'IPC' }]),
    chart(input, 'sweep-miss', `Cache miss rates vs ${knob}`, 'L1D and L2 miss rates.', '%',
      [{ metric: 'L1D_total_cache_miss_rate', label: 'L1D', scale: (v) => 100 * v }, { metric: 'L2_total_cache_miss_rate', label: 'L2', scale: (v) => 100 * v }]),
    ...(input.rows.some((r) => r.metrics.rt_predictor_lookups !== undefined) ? predictorCharts(input, knob) : []),
  ];
}

/**
 * The intersection predictor's figures (paper 002): speedup over the first point (Fig. 12, 15),
 * node fetches of the looked-up rays against their full traversals with the prediction and
 * misprediction overheads (Fig. 13), memory savings in requests against the first point and
 * node-fetch savings (Fig. 2 left, Fig. 13, Fig. 14), and the predicted /
 * verified / mispredicted shares (Table 7, Fig. 2 right). Points without the predictor show 0.
 */
function predictorCharts(input: SweepReportInput, knob: string): ChartSpec[] {
  const pct = (v: number) => 100 * v;
  return [
    chart(input, 'sweep-predictor-speedup', `Speedup vs ${knob} (paper 002 Fig. 12, 15)`,
      'Cycles of the first point / cycles of each point (above 1 is faster).', 'speedup', [{ metric: 'speedup', label: 'speedup' }]),
    chart(input, 'sweep-predictor-nodes', `Memory accesses vs ${knob} (paper 002 Fig. 13)`,
      'Node fetches of the looked-up (occlusion) rays normalised to the same rays traversing from the root; prediction = fetches spent traversing from predicted nodes, misprediction = the wasted part of it.', '% of baseline node fetches',
      [
        { metric: 'rt_predictor_nodes', label: 'node fetches', scale: (v, r) => pct(v / (r.metrics.rt_predictor_baseline_nodes || 1)) },
        { metric: 'rt_predictor_prediction_nodes', label: 'prediction overhead', scale: (v, r) => pct(v / (r.metrics.rt_predictor_baseline_nodes || 1)) },
        { metric: 'rt_predictor_misprediction_nodes', label: 'misprediction overhead', scale: (v, r) => pct(v / (r.metrics.rt_predictor_baseline_nodes || 1)) },
      ]),
    chart(input, 'sweep-predictor-savings', `Memory savings vs ${knob} (paper 002 Fig. 2 left, Fig. 13, Fig. 14)`,
      'Memory savings as the paper measures them: (RT-unit memory requests of the first point, the baseline RT unit - of this point) / the first point\'s (0 where the first point has the predictor too). ' +
        'Node-fetch savings: (node fetches of the looked-up rays traversing from the root - with the predictor) / from the root (Eq. 1).', '%',
      [
        { metric: 'rt_predictor_memory_savings', label: 'memory savings (requests vs baseline)', scale: pct },
        { metric: 'rt_predictor_node_fetch_savings', label: 'node-fetch savings (looked-up rays)', scale: pct },
      ]),
    chart(input, 'sweep-predictor-rays', `Predicted, verified and mispredicted rays vs ${knob} (paper 002 Table 7, Fig. 2 right)`,
      'Shares of the looked-up rays, as the paper defines the terms (Sec. 3).', '% of looked-up rays',
      [
        { metric: 'rt_predictor_predicted_rate', label: 'predicted', scale: pct },
        { metric: 'rt_predictor_verified_rate', label: 'verified', scale: pct },
        { metric: 'rt_predictor_mispredicted_rate', label: 'mispredicted', scale: pct },
      ]),
  ];
}

const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(4));

export function writeSweepReport(w: ReportWriter, input: SweepReportInput): void {
  const t = loadTemplates();
  const charts = sweepCharts(input);
  writeAssets(w);
  for (const c of charts) w.write(`charts/${c.id}.png`, renderChartPng(c));
  const predictor = input.rows.some((r) => r.metrics.rt_predictor_lookups !== undefined);
  const metrics = ['gpu_sim_cycle', 'gpu_ipc', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate', 'dram_eff', 'bwutil', 'rt_avg_efficiency',
    ...(predictor ? ['rt_predictor_predicted_rate', 'rt_predictor_verified_rate', 'rt_predictor_mispredicted_rate', 'rt_predictor_memory_savings', 'rt_predictor_node_fetch_savings'] : [])];
  const tables = [{
    title: 'Grid', header: [...input.dims.map((d) => d.knob), ...metrics, 'speedup vs first', 'wall (s)'],
    rows: input.rows.map((r) => [...r.values, ...metrics.map((m) => fmt(r.metrics[m] ?? 0)), r.speedup.toFixed(3), r.wallSeconds.toFixed(1)]),
  }];
  const body = t.analysis({
    title: `Sweep: ${input.workload} on ${input.config}`,
    intro: `${input.rows.length} timing simulations over ${input.dims.map((d) => `<code>${d.knob}</code> = ${d.values.join(', ')}`).join(' x ')}. <a href="sweep.csv">sweep.csv</a> has every point.`,
    charts, tables,
  });
  w.write('index.html', t.layout({
    title: 'Sweep', root: '', body, workload: input.workload, width: input.params.width, height: input.params.height, spp: input.params.spp,
    nav: [{ href: 'index.html', label: 'Sweep', current: true }], charts, chartsJson: JSON.stringify(charts).replace(/</g, '\\u003c'),
  }));
}
