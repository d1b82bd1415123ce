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
      type: first!.knob === 'limit' ? 'bar' : 'line',
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
  ];
}

const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(4));

export function writeSweepReport(w: ReportWriter, input: SweepReportInput): void {
  const t = loadTemplates();
  const charts = sweepCharts(input);
  writeAssets(w);
  for (const c of charts) w.write(`charts/${c.id}.png`, renderChartPng(c));
  const metrics = ['gpu_sim_cycle', 'gpu_ipc', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate', 'dram_eff', 'bwutil', 'rt_avg_efficiency'];
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
