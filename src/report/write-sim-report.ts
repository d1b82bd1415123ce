/**
 * The HTML page of a timing-model run (`vvision sim`): headline statistics with their units and
 * descriptions, the Vulkan-Sim figures as charts (PNG + live), and every statistic by component.
 */
import { renderChartPng } from './render-chart-png.js';
import { simCharts, type SimStatsInput } from './sim-charts.js';
import { loadTemplates, writeAssets, type ReportWriter } from './templates.js';
import type { ChartSpec } from './chart-specs.js';

export interface SimReportInput {
  workload: string;
  params: { width: number; height: number; spp: number };
  stats: SimStatsInput & { groups: { name: string; stats: Record<string, number> }[] };
  /** Unit and description per statistic name. */
  meta: Record<string, { unit: string; description: string }>;
  hasImage: boolean;
  /** Multi-frame runs: each frame's statistic values, in order (`stats` is the whole run). */
  frames?: Record<string, number>[];
}

const HEADLINE = ['gpu_sim_cycle', 'gpu_sim_insn', 'gpu_ipc', 'gpu_simt_efficiency', 'gpu_occupancy', 'L1D_total_cache_miss_rate',
  'L2_total_cache_miss_rate', 'dram_eff', 'bwutil', 'rt_avg_efficiency', 'rt_avg_warp_latency', 'rt_avg_nodes_per_ray', 'gpu_total_sim_rate'];

const FRAME_STATS = ['gpu_sim_cycle', 'gpu_sim_insn', 'gpu_ipc', 'L1D_total_cache_miss_rate', 'L2_total_cache_miss_rate', 'dram_reads', 'rt_avg_warp_latency'];

/** Multi-frame runs: cycles, IPC and cache miss rates frame by frame (warm caches show as later frames getting cheaper). */
function simFrameCharts(frames: readonly Record<string, number>[]): ChartSpec[] {
  if (frames.length < 2) return [];
  const labels = frames.map((_, i) => i);
  const line = (id: string, title: string, caption: string, y: string, series: { label: string; key: string; scale?: number }[]): ChartSpec => ({
    id, title, caption,
    config: {
      type: 'line',
      data: { labels, datasets: series.map((s, i) => ({ label: s.label, data: frames.map((f) => (f[s.key] ?? 0) * (s.scale ?? 1)), borderColor: FRAME_COLOURS[i]!, backgroundColor: FRAME_COLOURS[i]! })) },
      options: { plugins: { legend: { display: true, position: 'bottom' } }, scales: { x: { title: { display: true, text: 'frame' } }, y: { beginAtZero: true, title: { display: true, text: y } } } },
    },
  });
  return [
    line('frames-cycles', 'Cycles per frame', 'Simulated cycles of each frame\'s launch; the launches run back to back, caches warm unless gpgpu_flush_l1_cache / gpgpu_flush_l2_cache flush them in between.', 'cycles', [{ label: 'gpu_sim_cycle', key: 'gpu_sim_cycle' }]),
    line('frames-ipc', 'IPC per frame', 'Thread instructions per cycle in each frame.', 'IPC', [{ label: 'gpu_ipc', key: 'gpu_ipc' }]),
    line('frames-miss-rates', 'Cache miss rates per frame', 'L1D and L2 miss rates of each frame\'s own accesses.', 'miss rate (%)', [
      { label: 'L1D', key: 'L1D_total_cache_miss_rate', scale: 100 }, { label: 'L2', key: 'L2_total_cache_miss_rate', scale: 100 },
    ]),
  ];
}

const FRAME_COLOURS = ['#3b6fb6', '#e07b39'];

function fmt(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(4);
}

export function writeSimReport(w: ReportWriter, input: SimReportInput): void {
  const t = loadTemplates();
  const charts = [...simCharts(input.stats), ...simFrameCharts(input.frames ?? [])];
  writeAssets(w);
  for (const c of charts) w.write(`charts/${c.id}.png`, renderChartPng(c));
  const v = input.stats.values;
  const tables = [
    {
      title: 'Headline statistics', header: ['statistic', 'value', 'unit', 'meaning'],
      rows: HEADLINE.filter((k) => k in v).map((k) => [k, fmt(v[k]!), input.meta[k]?.unit ?? '', input.meta[k]?.description ?? '']),
    },
    ...((input.frames?.length ?? 0) > 1 ? [{
      title: `Per frame (${input.frames!.length} launches back to back; the statistics above are the whole run)`,
      header: ['frame', ...FRAME_STATS],
      rows: input.frames!.map((f, i) => [String(i), ...FRAME_STATS.map((k) => fmt(f[k] ?? 0))]),
    }] : []),
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
