/**
 * The HTML page of a Zatel run (`vvision zatel`): the heatmap, its quantisation and the chosen
 * pixels (paper 004 Fig. 3, 4, 8), the predicted Table I metrics, the per-group plan, and with
 * `--validate` each metric's error against the full simulation (Fig. 10) and the speedup.
 * Input is plain data, so the report layer does not depend on the driver or the simulator.
 */
import type { ChartSpec } from './chart-specs.js';
import { renderChartPng } from './render-chart-png.js';
import { loadTemplates, writeAssets, type ReportWriter } from './templates.js';

export interface ZatelReportInput {
  workload: string;
  config: string;
  params: { width: number; height: number; spp: number };
  k: number;
  downscaled: { sms: number; partitions: number };
  settings: Record<string, string | number>;
  /** Table I metric names, in the paper's order. */
  tableI: readonly string[];
  predicted: Record<string, number>;
  groups: { index: number; pixels: number; fractions: number[]; cycles: number }[];
  timing: { heatmapSeconds: number; groupsSeconds: number; totalSeconds: number; groupsTiming: string };
  validation?: {
    metrics: Record<string, { predicted: number; full: number; relativeError: number }>;
    speedup: number;
    speedupExcludingHeatmap: number;
    fullWallSeconds: number;
  };
  meta: Record<string, { unit: string; description: string }>;
}

const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString('en-US') : Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(4));
const pct = (v: number) => `${(100 * v).toFixed(2)}%`;

function charts(input: ZatelReportInput): ChartSpec[] {
  const out: ChartSpec[] = [];
  const v = input.validation;
  if (v) {
    const names = input.tableI.filter((n) => v.metrics[n]);
    out.push({
      id: 'zatel-error', title: 'Absolute error per metric (Zatel Fig. 10)',
      caption: `|predicted - full| / full for the paper's Table I metrics, Zatel with K = ${input.k} against the full simulation on ${input.config}.`,
      config: {
        type: 'bar',
        data: { labels: names, datasets: [{ label: 'absolute error (%)', data: names.map((n) => 100 * v.metrics[n]!.relativeError), backgroundColor: '#3b6fb6' }] },
        options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, title: { display: true, text: 'error (%)' } } } },
      },
    });
  }
  out.push({
    id: 'zatel-groups', title: 'Traced fraction and estimated cycles per group',
    caption: 'Each group runs on the downscaled GPU with its representative pixels (eq. 1); its cycles are extrapolated to the whole group.',
    config: {
      type: 'bar',
      data: {
        labels: input.groups.map((g) => `group ${g.index}`),
        datasets: [
          { label: 'traced pixels (%)', data: input.groups.map((g) => 100 * g.fractions[g.fractions.length - 1]!), backgroundColor: '#e07b39' },
        ],
      },
      options: { plugins: { legend: { display: true, position: 'bottom' } }, scales: { y: { beginAtZero: true, max: 100, title: { display: true, text: '%' } } } },
    },
  });
  return out;
}

export function writeZatelReport(w: ReportWriter, input: ZatelReportInput): void {
  const t = loadTemplates();
  const cs = charts(input);
  writeAssets(w);
  for (const c of cs) w.write(`charts/${c.id}.png`, renderChartPng(c));
  const v = input.validation;
  const metricRows = input.tableI.filter((n) => n in input.predicted).map((n) => {
    const m = v?.metrics[n];
    return [n, fmt(input.predicted[n]!), ...(m ? [fmt(m.full), pct(m.relativeError)] : []), input.meta[n]?.description ?? ''];
  });
  const tables = [
    {
      title: 'Predicted metrics (Table I)',
      header: ['metric', 'Zatel', ...(v ? ['full simulation', 'error'] : []), 'meaning'],
      rows: metricRows,
    },
    {
      title: 'Groups', header: ['group', 'pixels', 'traced fraction(s)', 'estimated cycles'],
      rows: input.groups.map((g) => [String(g.index), fmt(g.pixels), g.fractions.map(pct).join(', '), fmt(g.cycles)]),
    },
    {
      title: 'Settings', header: ['setting', 'value'],
      rows: Object.entries(input.settings).map(([k, x]) => [k, String(x)]),
    },
    {
      title: 'All predicted statistics', header: ['statistic', 'Zatel', ...(v ? ['full', 'error'] : [])],
      rows: Object.keys(input.predicted).sort().map((n) => {
        const m = v?.metrics[n];
        return [n, fmt(input.predicted[n]!), ...(m ? [fmt(m.full), Number.isFinite(m.relativeError) ? pct(m.relativeError) : 'n/a'] : [])];
      }),
    },
  ];
  const img = (src: string, alt: string) => `<figure style="display:inline-block;margin:0 12px 12px 0"><img src="${src}" width="256" height="256" alt="${alt}" style="image-rendering: pixelated; border: 1px solid #dde2e8"><figcaption>${alt}</figcaption></figure>`;
  const speed = v
    ? ` Full simulation ${v.fullWallSeconds.toFixed(1)} s; Zatel ${input.timing.totalSeconds.toFixed(1)} s (heatmap ${input.timing.heatmapSeconds.toFixed(1)} s, groups ${input.timing.groupsSeconds.toFixed(1)} s, ${input.timing.groupsTiming}): <strong>speedup ${v.speedup.toFixed(2)}x</strong>, ${v.speedupExcludingHeatmap.toFixed(2)}x without the heatmap (the paper profiles it on a GPU).`
    : ` Zatel took ${input.timing.totalSeconds.toFixed(1)} s (heatmap ${input.timing.heatmapSeconds.toFixed(1)} s, groups ${input.timing.groupsSeconds.toFixed(1)} s).`;
  const body = t.analysis({
    title: `Zatel: ${input.workload} on ${input.config}`,
    intro: `Scale-model simulation (Zatel, paper 004): K = ${input.k} groups, each on a GPU with ${input.downscaled.sms} SMs and ${input.downscaled.partitions} memory partition(s), tracing its representative pixels; the groups' figures are extrapolated and combined.${speed} <a href="predicted.json">predicted.json</a>${v ? ', <a href="validation.json">validation.json</a>' : ''}.<br>${img('heatmap.png', 'execution-cost heatmap')}${img('heatmap-quantised.png', 'quantised heatmap')}${img('chosen-pixels.png', 'traced pixels')}`,
    charts: cs, tables,
  });
  w.write('index.html', t.layout({
    title: 'Zatel', root: '', body, workload: input.workload, width: input.params.width, height: input.params.height, spp: input.params.spp,
    nav: [{ href: 'index.html', label: 'Zatel', current: true }], charts: cs, chartsJson: JSON.stringify(cs).replace(/</g, '\\u003c'),
  }));
}
