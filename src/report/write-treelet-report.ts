/**
 * The HTML page of the treelet study (paper 001, "Treelet Accelerated Ray Tracing on GPUs"):
 * the baseline and the virtualized-treelet-queue variants of one workload side by side, as the
 * paper's figures: speedup and SIMT efficiency with and without warp repacking (Fig. 13a/b),
 * cycles and intersection tests per traversal mode (Fig. 14, 15), the RT unit's L1D miss rate over
 * time (Fig. 11), memory accesses, and the table storage of Sec. 6.5. Input is plain data (the
 * timing model's stats of each run).
 */
import type { ChartSpec } from './chart-specs.js';
import { renderChartPng } from './render-chart-png.js';
import { loadTemplates, writeAssets, type ReportWriter } from './templates.js';

export interface TreeletRun {
  /** e.g. "baseline", "treelets, repack 22". */
  label: string;
  values: Record<string, number>;
  /** RT-unit L1D miss rate per `intervalCycles` (Fig. 11). */
  l1MissRate: number[];
  intervalCycles: number;
}

export interface TreeletReportInput {
  workload: string;
  config: string;
  params: { width: number; height: number; spp: number };
  /** runs[0] is the baseline. */
  runs: TreeletRun[];
  /** The paper's figure per run label, where it gives one (speedup, SIMT efficiency). */
  paper: Record<string, { speedup?: number; simtEfficiency?: number }>;
  meta: Record<string, { unit: string; description: string }>;
}

const COLORS = ['#3b6fb6', '#e07b39', '#4a9a5b', '#c94c4c', '#8a6bb8', '#9aa3ad'];
const MODES = ['initial', 'treelet', 'ray'] as const;
const MODE_LABELS = ['initial ray-stationary', 'treelet-stationary', 'ray-stationary (grouped / repacked)'];

function bars(id: string, title: string, caption: string, labels: string[], datasets: { label: string; data: number[] }[], yTitle: string, stacked = false): ChartSpec {
  return {
    id, title, caption,
    config: {
      type: 'bar',
      data: { labels, datasets: datasets.map((d, i) => ({ ...d, backgroundColor: COLORS[i % COLORS.length], borderColor: COLORS[i % COLORS.length] })) },
      options: {
        plugins: { legend: { display: true, position: 'bottom' } },
        scales: { x: { stacked }, y: { stacked, beginAtZero: true, title: { display: true, text: yTitle } } },
      },
    },
  };
}

export function treeletCharts(input: TreeletReportInput): ChartSpec[] {
  const base = input.runs[0]!;
  const labels = input.runs.map((r) => r.label);
  const speedup = (r: TreeletRun) => (base.values.gpu_sim_cycle ?? 0) / (r.values.gpu_sim_cycle || 1);
  // Runs with treelet queues (virtualization alone has only the ray-stationary mode).
  const mech = input.runs.filter((r) => (r.values.treelet_warps_initial ?? 0) > 0 || (r.values.treelet_warps_treelet ?? 0) > 0);
  const share = (r: TreeletRun, key: 'cycles' | 'tests', m: string) => {
    const total = MODES.reduce((s, x) => s + (r.values[`treelet_${key}_${x}`] ?? 0), 0);
    return total > 0 ? (r.values[`treelet_${key}_${m}`] ?? 0) / total : 0;
  };
  // At most ~60 points per line: adjacent intervals averaged.
  const longest = Math.max(...input.runs.map((r) => r.l1MissRate.length));
  const group = Math.max(1, Math.ceil(longest / 60));
  const smooth = (xs: number[]) => Array.from({ length: Math.ceil(xs.length / group) }, (_, i) => {
    const part = xs.slice(i * group, (i + 1) * group);
    return part.reduce((a, b) => a + b, 0) / part.length;
  });
  return [
    bars('treelet-speedup', 'Speedup over the baseline RT unit (paper 001 Fig. 13a)',
      'Baseline cycles / variant cycles (above 1 is faster), beside the paper\'s average over LumiBench (Sec. 6.3: 0.95 without repacking, 1.84 with a 16-ray threshold, 1.95 with 22).',
      labels, [{ label: 'vvision', data: input.runs.map(speedup) }, { label: 'paper', data: labels.map((l) => input.paper[l]?.speedup ?? 0) }], 'speedup'),
    bars('treelet-simt', 'RT-unit SIMT efficiency (paper 001 Fig. 13b)',
      'Active rays / 32 per resident RT warp, averaged over RT warp-cycles; the paper: 0.37 baseline, 0.33 treelet queues without repacking, 0.82 with a 22-ray threshold.',
      labels, [{ label: 'vvision', data: input.runs.map((r) => r.values.rt_simt_efficiency ?? 0) }, { label: 'paper', data: labels.map((l) => input.paper[l]?.simtEfficiency ?? 0) }], 'SIMT efficiency'),
    bars('treelet-mode-cycles', 'Cycles per traversal mode (paper 001 Fig. 14)',
      'Share of RT warp-buffer cycles in each mode. The paper: a short initial phase, then mostly ray-stationary.',
      mech.map((r) => r.label), MODES.map((m, i) => ({ label: MODE_LABELS[i]!, data: mech.map((r) => share(r, 'cycles', m)) })), 'fraction of cycles', true),
    bars('treelet-mode-tests', 'Intersection tests per traversal mode (paper 001 Fig. 15)',
      'Share of node intersection tests (box and primitive) per mode. The paper: treelet-stationary processes up to 52%, 15% on average.',
      mech.map((r) => r.label), MODES.map((m, i) => ({ label: MODE_LABELS[i]!, data: mech.map((r) => share(r, 'tests', m)) })), 'fraction of tests', true),
    {
      id: 'treelet-l1-miss', title: 'RT-unit L1D miss rate over time (paper 001 Fig. 11)',
      caption: `Miss rate of the RT unit's L1D accesses over time (intervals of ${base.intervalCycles} cycles, averaged in groups of ${group}). The paper (LANDS): the baseline plateaus near 60%; permanent treelet-stationary mode starts near 9% and ends at 75-80%.`,
      config: {
        type: 'line',
        data: {
          labels: Array.from({ length: Math.ceil(longest / group) }, (_, i) => String((i + 1) * group * base.intervalCycles)),
          datasets: input.runs.map((r, i) => ({ label: r.label, data: smooth(r.l1MissRate), backgroundColor: COLORS[i % COLORS.length], borderColor: COLORS[i % COLORS.length] })),
        },
        options: {
          plugins: { legend: { display: true, position: 'bottom' } },
          scales: { x: { title: { display: true, text: 'cycle' } }, y: { beginAtZero: true, max: 1, title: { display: true, text: 'L1D miss rate' } } },
        },
      },
    },
    bars('treelet-memory', 'Memory accesses',
      'L2 accesses and DRAM reads per variant, normalised to the baseline: treelets trade BVH traffic for ray-data and CTA-state traffic.',
      labels, [
        { label: 'L2 accesses', data: input.runs.map((r) => (r.values.L2_total_cache_accesses ?? 0) / (base.values.L2_total_cache_accesses || 1)) },
        { label: 'DRAM reads', data: input.runs.map((r) => (r.values.dram_reads ?? 0) / (base.values.dram_reads || 1)) },
        { label: 'RT chunk requests', data: input.runs.map((r) => (r.values.rt_total_requests ?? 0) / (base.values.rt_total_requests || 1)) },
      ], 'relative to baseline'),
  ];
}

const fmt = (v: number | undefined) => (v === undefined ? '' : Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(4));

export const TREELET_TABLE_METRICS = [
  'gpu_sim_cycle', 'rt_l1d_miss_rate', 'L1D_total_cache_miss_rate', 'L2_total_cache_accesses', 'dram_reads', 'rt_total_requests', 'rt_simt_efficiency',
  'treelet_cycles_initial', 'treelet_cycles_treelet', 'treelet_cycles_ray', 'treelet_tests_initial', 'treelet_tests_treelet', 'treelet_tests_ray',
  'treelet_diverged_warps', 'treelet_activated', 'treelet_preloaded', 'treelet_repacks', 'treelet_ray_data_loads', 'treelet_line_loads',
  'treelet_peak_queue_entries', 'treelet_peak_treelets', 'treelet_max_hash_chain', 'virt_ctas_suspended', 'virt_saved_bytes', 'virt_peak_suspended',
];

export function writeTreeletReport(w: ReportWriter, input: TreeletReportInput): void {
  const t = loadTemplates();
  const charts = treeletCharts(input);
  writeAssets(w);
  for (const c of charts) w.write(`charts/${c.id}.png`, renderChartPng(c));
  const base = input.runs[0]!;
  const withArea = input.runs.find((r) => r.values.treelet_count_table_bytes !== undefined);
  const tables = [
    {
      title: 'Variants', header: ['statistic', ...input.runs.map((r) => r.label), 'unit'],
      rows: [
        ['speedup vs baseline', ...input.runs.map((r) => ((base.values.gpu_sim_cycle ?? 0) / (r.values.gpu_sim_cycle || 1)).toFixed(3)), ''],
        ...TREELET_TABLE_METRICS.map((k) => [k, ...input.runs.map((r) => fmt(r.values[k])), input.meta[k]?.unit ?? '']),
      ],
    },
    ...(withArea ? [{
      title: 'Table storage per RT unit (paper 001 Sec. 6.5)', header: ['table', 'vvision (bytes)', 'paper'],
      rows: [
        ['treelet count table', fmt(withArea.values.treelet_count_table_bytes), '2.2 KB (600 entries x (19 + 12) bits)'],
        ['treelet queue table (in the L1D)', fmt(withArea.values.treelet_queue_table_bytes), '6.29 KB ((19 + 32 x 12 bits) x 128 entries)'],
      ],
    }] : []),
  ];
  const body = t.analysis({
    title: `Treelet study: ${input.workload}`,
    intro: `Virtualized treelet queues (Treelet Accelerated Ray Tracing on GPUs) against the baseline RT unit on <code>${input.config}</code>, ${input.params.width}x${input.params.height}, ${input.params.spp} spp. The paper's figures are averages over LumiBench at 256x256; a variant in the opposite direction is explained by the statistics below (CTA-state and ray-data traffic, treelet-stationary share, SIMT efficiency).`,
    charts, tables,
  });
  w.write('index.html', t.layout({
    title: 'Treelet study', root: '', body, workload: input.workload, width: input.params.width, height: input.params.height, spp: input.params.spp,
    nav: [{ href: 'index.html', label: 'Treelet study', current: true }], charts, chartsJson: JSON.stringify(charts).replace(/</g, '\\u003c'),
  }));
}
