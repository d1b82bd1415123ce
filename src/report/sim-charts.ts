/**
 * Charts of a timing-model run, after the Vulkan-Sim figures they reproduce: RT-unit warp latency
 * distribution (Fig. 13), L1D / L2 accesses by source and outcome (Fig. 14), the RT-unit roofline
 * point (Fig. 12), the SIMT efficiency histogram (Section VI-B) and RT-unit occupancy over time
 * (Fig. 18). Input is plain data (the simulator's stats as numbers), so the report layer does not
 * depend on the simulator.
 */
import type { ChartSpec } from './chart-specs.js';

export interface SimStatsInput {
  config: string;
  values: Record<string, number>;
  distributions: {
    rtWarpLatency: { binCycles: number; counts: number[] };
    cacheBreakdown: { L1D: Record<string, Record<string, number>>; L2: Record<string, Record<string, number>> };
    roofline: { opIntensity: number; performance: number; computeBound: number; memoryBoundBlocksPerCycle: number };
    simtHistogram: number[];
    rtOccupancy: { intervalCycles: number; rays: number[]; warps: number[] };
  };
}

const COLORS = ['#3b6fb6', '#e07b39', '#4a9a5b', '#c94c4c', '#8a6bb8', '#9aa3ad'];

function axes(y: string, x: string, stacked = false): Record<string, unknown> {
  return {
    plugins: { legend: { display: true, position: 'bottom' } },
    scales: { x: { stacked, title: { display: true, text: x } }, y: { stacked, beginAtZero: true, title: { display: true, text: y } } },
  };
}

export function simCharts(s: SimStatsInput): ChartSpec[] {
  const d = s.distributions;
  const out: ChartSpec[] = [];
  const lat = d.rtWarpLatency;
  if (lat.counts.some((c) => c > 0)) {
    out.push({
      id: 'rt-warp-latency', title: 'RT-unit warp latency (Vulkan-Sim Fig. 13)',
      caption: `Cycles a warp spends in the RT unit from entry to its last ray finishing, in bins of ${lat.binCycles} cycles.`,
      config: {
        type: 'bar',
        data: { labels: lat.counts.map((_, i) => i * lat.binCycles), datasets: [{ label: 'warps', data: lat.counts, backgroundColor: COLORS[0] }] },
        options: axes('warps', 'latency (cycles, bin start)'),
      },
    });
  }
  for (const level of ['L1D', 'L2'] as const) {
    const b = d.cacheBreakdown[level];
    const sources = Object.keys(b);
    const outcomes = Object.keys(b[sources[0]!] ?? {});
    out.push({
      id: `${level.toLowerCase()}-breakdown`, title: `${level} accesses by source and outcome (Vulkan-Sim Fig. 14)`,
      caption: `${level} accesses issued by shader code and by the RT unit, split by hit / miss kind.`,
      config: {
        type: 'bar',
        data: {
          labels: sources,
          datasets: outcomes.map((o, i) => ({ label: o, data: sources.map((src) => b[src]![o] ?? 0), backgroundColor: COLORS[i % COLORS.length]!, stack: 's' })),
        },
        options: axes('accesses', 'source', true),
      },
    });
  }
  const h = d.simtHistogram;
  out.push({
    id: 'simt-histogram', title: 'Issued warp instructions by active lanes (Vulkan-Sim VI-B)',
    caption: `SIMT efficiency ${((s.values.gpu_simt_efficiency ?? 0)).toFixed(1)}%: how many issued warp instructions had each number of active lanes.`,
    config: {
      type: 'bar',
      data: { labels: h.map((_, i) => i), datasets: [{ label: 'warp instructions', data: h, backgroundColor: COLORS[0] }] },
      options: axes('warp instructions', 'active lanes'),
    },
  });
  const occ = d.rtOccupancy;
  if (occ.rays.length > 0) {
    out.push({
      id: 'rt-occupancy', title: 'RT-unit occupancy over time (Vulkan-Sim Fig. 18)',
      caption: `Rays and warps resident in all RT units, sampled every ${occ.intervalCycles} cycles.`,
      config: {
        type: 'line',
        data: {
          labels: occ.rays.map((_, i) => i * occ.intervalCycles),
          datasets: [
            { label: 'rays', data: occ.rays, borderColor: COLORS[0], backgroundColor: COLORS[0] },
            { label: 'warps', data: occ.warps, borderColor: COLORS[1], backgroundColor: COLORS[1] },
          ],
        },
        options: axes('resident', 'cycle'),
      },
    });
  }
  const r = d.roofline;
  out.push({
    id: 'rt-roofline', title: 'RT-unit roofline point (Vulkan-Sim Fig. 12)',
    caption: `Operational intensity ${r.opIntensity.toFixed(3)} operations per 32 B block fetched; performance ${r.performance.toFixed(3)} operation-unit pipeline stages busy per RT-active cycle; the compute bound is ${r.computeBound} stages, the memory bound ${r.memoryBoundBlocksPerCycle} block per cycle times the intensity.`,
    config: {
      type: 'bar',
      data: {
        labels: ['achieved', 'compute bound', 'memory bound at this intensity'],
        datasets: [{ label: 'per RT unit and cycle', data: [r.performance, r.computeBound, r.memoryBoundBlocksPerCycle * r.opIntensity], backgroundColor: [COLORS[0]!, COLORS[5]!, COLORS[1]!] }],
      },
      options: axes('operations (stages) per cycle', ''),
    },
  });
  return out;
}
