/**
 * The HTML page of a timing-model run (`vvision sim`): headline statistics with their units and
 * descriptions, the Vulkan-Sim figures as charts (PNG + live), and every statistic by component.
 */
import { renderChartPng } from './render-chart-png.js';
import { simCharts, type SimStatsInput } from './sim-charts.js';
import { loadTemplates, writeAssets, type ReportWriter } from './templates.js';

export interface SimReportInput {
  workload: string;
  params: { width: number; height: number; spp: number };
  stats: SimStatsInput & { groups: { name: string; stats: Record<string, number> }[] };
  /** Unit and description per statistic name. */
  meta: Record<string, { unit: string; description: string }>;
  hasImage: boolean;
}

const HEADLINE = ['gpu_sim_cycle', 'gpu_sim_insn', 'gpu_ipc', 'gpu_simt_efficiency', 'gpu_occupancy', 'L1D_total_cache_miss_rate',
  'L2_total_cache_miss_rate', 'dram_eff', 'bwutil', 'rt_avg_efficiency', 'rt_avg_warp_latency', 'rt_avg_nodes_per_ray', 'gpu_total_sim_rate'];

function fmt(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(4);
}

export function writeSimReport(w: ReportWriter, input: SimReportInput): void {
  const t = loadTemplates();
  const charts = simCharts(input.stats);
  writeAssets(w);
  for (const c of charts) w.write(`charts/${c.id}.png`, renderChartPng(c));
  const v = input.stats.values;
  const tables = [
    {
      title: 'Headline statistics', header: ['statistic', 'value', 'unit', 'meaning'],
      rows: HEADLINE.filter((k) => k in v).map((k) => [k, fmt(v[k]!), input.meta[k]?.unit ?? '', input.meta[k]?.description ?? '']),
    },
    ...input.stats.groups.map((g) => ({
      title: `All statistics: ${g.name}`, header: ['statistic', 'value', 'unit'],
      rows: Object.entries(g.stats).map(([k, x]) => [k, fmt(x), input.meta[k]?.unit ?? '']),
    })),
  ];
  const image = input.hasImage ? '<p><img src="image.png" width="256" height="256" alt="rendered frame" style="image-rendering: pixelated; border: 1px solid #dde2e8"></p>' : '';
  const body = t.analysis({
    title: `Timing model: ${input.workload}`,
    intro: `Cycle-level simulation with the <code>${input.stats.config}</code> configuration. Statistics are named as Vulkan-Sim / GPGPU-Sim print them; <a href="stats.txt">stats.txt</a> has them in <code>name = value</code> form and <a href="stats.json">stats.json</a> as data.${image}`,
    charts, tables,
  });
  w.write('index.html', t.layout({
    title: 'Timing model', root: '', body, workload: input.workload, width: input.params.width, height: input.params.height, spp: input.params.spp,
    nav: [{ href: 'index.html', label: 'Timing model', current: true }], charts, chartsJson: JSON.stringify(charts).replace(/</g, '\\u003c'),
  }));
}
