/**
 * The report's charts as chart.js configurations, computed from analytics results only. The same
 * configuration is drawn twice: to PNG in Node (for papers and offline viewing) and live in the
 * page. Each chart is named after the paper figure it reproduces.
 */
import type { VVisionResults } from '../analytics/index.js';

export interface ChartSpec {
  /** File-name-safe id: charts/<id>.png and the canvas id in the page. */
  id: string;
  title: string;
  /** One sentence: what the chart shows and how to read it. */
  caption: string;
  config: {
    type: 'bar' | 'line';
    data: { labels: (string | number)[]; datasets: { label: string; data: number[]; backgroundColor?: string | string[]; borderColor?: string; stack?: string }[] };
    options: Record<string, unknown>;
  };
}

const BLUE = '#3b6fb6';
const ORANGE = '#e07b39';
const GREEN = '#4a9a5b';
const RED = '#c94c4c';
const GREY = '#9aa3ad';

function axes(yTitle: string, xTitle: string, extra: { stacked?: boolean; yMax?: number } = {}): Record<string, unknown> {
  const y: Record<string, unknown> = { beginAtZero: true, title: { display: true, text: yTitle } };
  if (extra.yMax !== undefined) y.max = extra.yMax;
  if (extra.stacked) y.stacked = true;
  const x: Record<string, unknown> = { title: { display: true, text: xTitle } };
  if (extra.stacked) x.stacked = true;
  return { plugins: { legend: { display: true, position: 'bottom' } }, scales: { x, y } };
}

export function simtCharts(r: VVisionResults): ChartSpec[] {
  if (!r.simt) return [];
  const shaders = r.simt.perShader.filter((s) => s.warpInstructions > 0);
  const w = r.simt.warpSize;
  const hist = new Array<number>(w + 1).fill(0);
  for (const s of r.simt.perSite) s.histogram.forEach((c, k) => (hist[k] = (hist[k] ?? 0) + c));
  return [
    {
      id: 'simt-per-shader',
      title: 'SIMT efficiency per shader (V-Vision Fig. 12)',
      caption: 'Active lanes per issued instruction slot, in percent: 100% means every lane of every warp did useful work in that shader.',
      config: {
        type: 'bar',
        data: {
          labels: shaders.map((s) => s.name),
          datasets: [{ label: 'SIMT efficiency (%)', data: shaders.map((s) => round(100 * s.instructionEfficiency)), backgroundColor: BLUE }],
        },
        options: axes('SIMT efficiency (%)', 'shader', { yMax: 100 }),
      },
    },
    {
      id: 'active-lanes-histogram',
      title: 'Active threads per warp at basic-block entry (Fig. 7 histo)',
      caption: 'How many block executions ran with each number of active lanes: mass at 32 is fully converged execution.',
      config: {
        type: 'bar',
        data: { labels: hist.map((_, k) => k), datasets: [{ label: 'block executions', data: hist, backgroundColor: BLUE }] },
        options: axes('warp block executions', 'active lanes'),
      },
    },
  ];
}

export function divergenceCharts(r: VVisionResults): ChartSpec[] {
  const d = r.divergence;
  if (!d) return [];
  const rows = [{ name: 'pipeline', ...d }, ...d.perShader.filter((s) => s.totalSlots > 0)];
  const pct = (x: number, t: number) => (t === 0 ? 0 : round((100 * x) / t));
  return [
    {
      id: 'divergence-characterization',
      title: 'Instruction slots by cause (V-Vision Fig. 14)',
      caption: 'Each bar splits the issued lane slots into active lanes and inactive lanes by why they idle: control flow inside a shader, indirect function calls (the hit/miss shader dispatch), and early returns.',
      config: {
        type: 'bar',
        data: {
          labels: rows.map((x) => x.name),
          datasets: [
            { label: 'active', data: rows.map((x) => pct(x.activeSlots, x.totalSlots)), backgroundColor: GREEN, stack: 's' },
            { label: 'control flow', data: rows.map((x) => pct(x.controlFlow, x.totalSlots)), backgroundColor: ORANGE, stack: 's' },
            { label: 'indirect function call', data: rows.map((x) => pct(x.indirectFunctionCall, x.totalSlots)), backgroundColor: RED, stack: 's' },
            { label: 'early return', data: rows.map((x) => pct(x.earlyReturn, x.totalSlots)), backgroundColor: GREY, stack: 's' },
          ],
        },
        options: axes('share of lane slots (%)', 'scope', { stacked: true, yMax: 100 }),
      },
    },
  ];
}

export function compactionCharts(r: VVisionResults): ChartSpec[] {
  if (!r.compaction) return [];
  return [
    {
      id: 'thread-compaction',
      title: 'Warps removed by thread compaction (V-Vision Fig. 8)',
      caption: 'If the active threads of traceRay executions were repacked into full warps within a window of N consecutive warp executions, this share of warp executions would disappear.',
      config: {
        type: 'bar',
        data: {
          labels: r.compaction.map((c) => String(c.window)),
          datasets: [{ label: 'warps compacted (%)', data: r.compaction.map((c) => round(100 * c.warpsCompacted)), backgroundColor: BLUE }],
        },
        options: axes('warps compacted (%)', 'compaction window (warp executions)', { yMax: 100 }),
      },
    },
  ];
}

export function hotspotCharts(r: VVisionResults): ChartSpec[] {
  const out: ChartSpec[] = [];
  if (r.hotspots) {
    const top = [...r.hotspots.rows].sort((a, b) => b.threadCount - a.threadCount).slice(0, 20);
    out.push({
      id: 'hotspots',
      title: 'Hottest instructions (V-Vision Fig. 15)',
      caption: 'Dynamic thread-level executions of the 20 most executed instructions, normalised to the hottest one; labels are file:line opcode, with the shader in brackets when the line is in an #included file.',
      config: {
        type: 'bar',
        data: {
          labels: top.map((h) => hotspotLabel(h)),
          datasets: [{ label: 'normalised executions', data: top.map((h) => round(h.normalized, 4)), backgroundColor: ORANGE }],
        },
        options: { ...axes('normalised to the hottest', 'instruction'), indexAxis: 'y' },
      },
    });
  }
  if (r.opcodes) {
    const top = [...r.opcodes].sort((a, b) => b.threadCount - a.threadCount).slice(0, 20);
    out.push({
      id: 'opcode-counts',
      title: 'Dynamic opcode counts',
      caption: 'Thread-level executions per IR opcode (top 20) over the whole pipeline.',
      config: {
        type: 'bar',
        data: { labels: top.map((o) => o.opcode), datasets: [{ label: 'thread executions', data: top.map((o) => o.threadCount), backgroundColor: BLUE }] },
        options: axes('thread executions', 'opcode'),
      },
    });
  }
  return out;
}

export function lifetimeCharts(r: VVisionResults): ChartSpec[] {
  if (!r.lifetimes) return [];
  const mk = (id: string, who: 'thread' | 'warp', color: string): ChartSpec => {
    const d = r.lifetimes![who];
    return {
      id,
      title: `${who === 'thread' ? 'Thread' : 'Warp'} lifetimes in basic blocks (V-Vision Fig. 16)`,
      caption: `How many ${who}s executed each number of basic blocks over the frame (normalised to the most common lifetime); mean ${round(d.mean, 1)}, min ${d.min}, max ${d.max}.`,
      config: {
        type: 'line',
        data: {
          labels: d.normalized.map(([x]) => x),
          datasets: [{ label: `${who}s (normalised)`, data: d.normalized.map(([, y]) => round(y, 4)), borderColor: color, backgroundColor: color }],
        },
        options: axes(`${who}s (normalised)`, 'basic blocks executed'),
      },
    };
  };
  return [mk('thread-lifetimes', 'thread', BLUE), mk('warp-lifetimes', 'warp', ORANGE)];
}

export function itsCharts(r: VVisionResults): ChartSpec[] {
  if (!r.its) return [];
  return [
    {
      id: 'its-evidence',
      title: 'Warp exits per warp entry (V-Vision Fig. 11)',
      caption: 'Under a SIMT stack every warp leaves the pipeline once per entry (1.0); independent thread scheduling lets a warp exit in pieces, raising the ratio.',
      config: {
        type: 'bar',
        data: {
          labels: r.its.map((x) => x.invocation),
          datasets: [{ label: 'exits / entries', data: r.its.map((x) => round(x.evidence.exitPerEntry, 4)), backgroundColor: BLUE }],
        },
        options: axes('exit executions / entry executions', 'pipeline invocation'),
      },
    },
  ];
}

export function allCharts(r: VVisionResults): Record<string, ChartSpec[]> {
  return {
    simt: simtCharts(r),
    divergence: divergenceCharts(r),
    compaction: compactionCharts(r),
    hotspots: hotspotCharts(r),
    lifetimes: lifetimeCharts(r),
    its: itsCharts(r),
  };
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** `shader:line opcode`, or `include.glsl:line opcode [shader]` for a line of an #included file. */
function hotspotLabel(h: { shaderName: string; file: string; line: number; opcode: string }): string {
  const base = h.file.split(/[\\/]/).pop() || h.file;
  return base === h.shaderName || h.file === '' ? `${h.shaderName}:${h.line} ${h.opcode}` : `${base}:${h.line} ${h.opcode} [${h.shaderName}]`;
}
