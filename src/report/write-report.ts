/**
 * The HTML report of an instrumented run: an index page (workload, frame, headline numbers,
 * fidelity check, runs), one page per analysis with its charts (live chart.js in the page and PNG
 * files) and tables, and the annotated source of every shader. Pages are handlebars templates
 * from reports/; assets (CSS, chart.js) are copied beside them, so the report opens from a
 * file:// URL with no network.
 */
import { dirname } from 'node:path';
import { portableManifestPath, portablePath } from './portable-path.js';
import { H100_ITS_EXITS_PER_ENTRY } from './its-hardware-reference.js';
import Handlebars from 'handlebars';
import { loadTemplates, writeAssets, type ReportWriter } from './templates.js';
import { allCharts, type ChartSpec } from './chart-specs.js';
import { frameCharts } from './frame-charts.js';
import { renderChartPng } from './render-chart-png.js';
import type { ReportInput } from './report-input.js';
import { sourceViews } from './source-view.js';

export type { ReportWriter } from './templates.js';

interface Page {
  file: string;
  label: string;
  description: string;
  title: string;
  intro: string;
  charts: ChartSpec[];
  tables: { title: string; caption?: string; header: string[]; rows: (string | number)[][] }[];
  images?: { title: string; caption?: string; file: string }[];
}

const pct = (x: number, digits = 1) => `${(100 * x).toFixed(digits)}%`;
const int = (x: number) => Math.round(x).toLocaleString('en-US');

export async function writeHtmlReport(w: ReportWriter, input: ReportInput): Promise<void> {
  const t = loadTemplates();
  const r = input.results;
  const charts = allCharts(r);
  const pages: Page[] = [];
  if (r.simt) {
    pages.push({
      file: 'simt.html', label: 'SIMT efficiency', description: 'active lanes per issued slot, per shader and per block',
      title: 'SIMT efficiency', charts: charts.simt!,
      intro: 'From the <code>simt</code> utility: WarpUpdate(subgroupBallot(true)) at the entry of every basic block of every shader. Each entry is one warp entering one block with the ballot of its active lanes; weighting by the block\'s instruction count gives the instruction-level SIMT efficiency (active lanes / 32 per issued instruction).',
      tables: [{
        title: 'Per shader', header: ['shader', 'stage', 'warp block entries', 'warp instructions', 'thread instructions', 'SIMT efficiency'],
        rows: r.simt.perShader.map((s) => [s.name, s.stage, int(s.warpExecutions), int(s.warpInstructions), int(s.threadInstructions), pct(s.instructionEfficiency)]),
      }],
    });
  }
  if (r.divergence) {
    const d = r.divergence;
    pages.push({
      file: 'divergence.html', label: 'Divergence', description: 'why lanes idle: control flow, indirect calls, early returns',
      title: 'Divergence characterization', charts: charts.divergence!,
      intro: 'From the <code>divergence</code> utility (V-Vision Fig. 13): probes at shader entries, early returns and around every traceRay attribute each inactive lane slot to its cause.',
      tables: [{
        title: 'Lane slots', header: ['scope', 'total', 'active', 'control flow', 'indirect function call', 'early return'],
        rows: [{ name: 'pipeline', ...d }, ...d.perShader].map((s) => [s.name, int(s.totalSlots), int(s.activeSlots), int(s.controlFlow), int(s.indirectFunctionCall), int(s.earlyReturn)]),
      }],
    });
  }
  if (r.compaction || r.paths) {
    const tables: Page['tables'] = [];
    if (r.paths) {
      tables.push({
        title: `Thread paths through traceRay (V-Vision Table III): ${r.paths.uniquePaths} unique path(s) over ${int(r.paths.threads)} threads`,
        caption: 'A path lists, for each traceRay call site, how often a thread executed it; the most frequent paths first.',
        header: ['rank', 'path', 'threads', 'share'],
        rows: r.paths.top.map((p, i) => [i + 1, p.path, int(p.threads), pct(p.fraction)]),
      });
    }
    if (r.compaction) {
      tables.push({
        title: 'Thread compaction', header: ['window', 'warp executions', 'after compaction', 'warps compacted'],
        rows: r.compaction.map((c) => [String(c.window), int(c.warpExecutions), int(c.compactedExecutions), pct(c.warpsCompacted)]),
      });
    }
    pages.push({
      file: 'paths.html', label: 'Compaction & paths', description: 'how much repacking threads at traceRay would save; the paths threads take',
      title: 'Thread compaction and thread paths', charts: charts.compaction!, tables,
      intro: 'From the <code>paths</code> utility (V-Vision Fig. 9): a WarpUpdate before every traceRay and at the sync point after it.',
    });
  }
  if (r.hotspots || r.opcodes) {
    const top = [...(r.hotspots?.rows ?? [])].sort((a, b) => b.threadCount - a.threadCount).slice(0, 30);
    pages.push({
      file: 'hotspots.html', label: 'Hotspots', description: 'the most executed instructions and opcodes',
      title: 'Hotspots', charts: charts.hotspots!,
      intro: 'Dynamic instruction counts reconstructed from block executions of the <code>simt</code> dump (V-Vision Fig. 15): each block entry counts its instructions once per active lane. The source pages colour lines by the same counts.',
      tables: [{
        title: 'Top 30 instructions', header: ['shader', 'file:line', 'opcode', 'thread executions', 'warp executions', 'normalised'],
        rows: top.map((h) => [h.shaderName, `${baseName(h.file)}:${h.line}`, h.opcode, int(h.threadCount), int(h.warpCount), h.normalized.toFixed(3)]),
      }],
    });
  }
  if (r.lifetimes) {
    pages.push({
      file: 'lifetimes.html', label: 'Lifetimes', description: 'basic blocks executed per thread and per warp',
      title: 'Thread and warp lifetimes', charts: charts.lifetimes!,
      intro: 'From the <code>trace</code> utility: CreateWarpId at the raygen entry and a ThreadUpdate at every basic block give complete per-thread and per-warp execution traces (V-Vision Fig. 16).',
      tables: [{
        title: 'Summary', header: ['who', 'count', 'min', 'mean', 'max'],
        rows: (['thread', 'warp'] as const).map((k) => [k, int(r.lifetimes![k].count), r.lifetimes![k].min, r.lifetimes![k].mean.toFixed(1), r.lifetimes![k].max]),
      }],
    });
  }
  if (r.its) {
    pages.push({
      file: 'its.html', label: 'ITS evidence', description: 'warp exits per warp entry of the pipeline',
      title: 'Independent thread scheduling evidence', charts: charts.its!,
      intro: 'From the <code>its</code> utility (V-Vision Fig. 10-11): WarpUpdate at the pipeline entry and at its unified exit. A ratio above 1 means warps leave the pipeline in pieces, which a SIMT stack never does.',
      tables: [{
        title: 'Entries and exits', header: ['invocation', 'entry executions', 'exit executions', 'exit / entry'],
        rows: r.its.map((x) => [x.invocation, int(x.evidence.entryExecutions), int(x.evidence.exitExecutions), x.evidence.exitPerEntry.toFixed(4)]),
      }, ...(input.record.workload === 'its-shapes' ? [{
        title: 'Measured on an NVIDIA H100 (driver 580), the same raygen shapes: compare this run (push constant shape) with its row',
        header: ['shape', 'raygen', 'H100 exit / entry'],
        rows: H100_ITS_EXITS_PER_ENTRY.map((h) => [String(h.shape), h.raygen, h.exitsPerEntry.toFixed(2)]),
      }] : [])],
    });
  }
  const perFrame = frameCharts(input.record.modes);
  if (perFrame.length > 0) {
    const modes = input.record.modes.filter((m) => m.perFrame);
    const first = modes[0]!;
    pages.push({
      file: 'frames.html', label: 'Frames', description: 'per-frame series of a multi-frame run',
      title: `Frames (${first.perFrame!.length} launches)`, charts: perFrame,
      intro: `The run issued one trace-rays launch per frame, back to back over the same device memory. Each utility\'s dump was read after every frame and the buffer emptied; the other pages analyse frame ${first.analysedFrame ?? first.perFrame!.length - 1} (runs/&lt;mode&gt;/dump.bin; every frame\'s dump is in runs/&lt;mode&gt;/frames/).`,
      tables: modes.map((m) => (m.perFrame!.every((f) => f.deviceTraceMs !== undefined) ? {
        title: `Utility ${m.mode} (device)`,
        header: ['frame', 'SIMT efficiency (dump)', 'dump words', 'trace ms (device)'],
        rows: m.perFrame!.map((f) => [f.frame, f.dumpSimtEfficiency === undefined ? '' : pct(f.dumpSimtEfficiency), int(f.dumpWords), f.deviceTraceMs!.toFixed(3)]),
      } : {
        title: `Utility ${m.mode}`,
        header: ['frame', 'thread instructions', 'SIMT efficiency (simulator)', 'SIMT efficiency (dump)', 'rays', 'dump words', 'cycles'],
        rows: m.perFrame!.map((f) => [f.frame, int(f.threadInsts), pct(f.simtEfficiency), f.dumpSimtEfficiency === undefined ? '' : pct(f.dumpSimtEfficiency), int(f.rays), int(f.dumpWords), f.cycles === undefined ? '' : int(f.cycles)]),
      })),
    });
  }
  for (const u of input.utilityPages ?? []) {
    const images = (u.images ?? []).map((im) => {
      const file = `images/${fileName(u.name)}-${fileName(im.id)}.png`;
      w.write(file, im.png);
      return { title: im.title, file, ...(im.caption !== undefined ? { caption: im.caption } : {}) };
    });
    w.write(`${fileName(u.name)}.json`, `${JSON.stringify({ utility: u.name, summary: u.summary ?? [], tables: u.tables ?? [], data: u.data ?? null }, null, 2)}\n`);
    pages.push({
      file: `utility-${fileName(u.name)}.html`, label: u.name, description: u.description, title: `Utility: ${u.name}`,
      intro: `${Handlebars.escapeExpression(u.description)} (a user utility; its rows are also in <code>${Handlebars.escapeExpression(fileName(u.name))}.json</code>).`,
      charts: (u.charts ?? []).map((c) => ({ ...c, id: `${fileName(u.name)}-${fileName(c.id)}` })),
      tables: u.tables ?? [], images,
    });
  }
  const meta = input.metadata.simt;
  const sources = meta ? sourceViews(r, meta, {}) : [];
  const nav = [
    { href: 'index.html', label: 'Overview' },
    ...pages.map((p) => ({ href: p.file, label: p.label })),
    ...(sources.length > 0 ? [{ href: `source/${fileName(sources[0]!.name)}.html`, label: 'Source' }] : []),
  ];
  const rec = input.record;
  const layout = (title: string, file: string, body: string, pageCharts: ChartSpec[], root = '') =>
    t.layout({
      title, root, body, workload: rec.workload, width: rec.params.width, height: rec.params.height, spp: rec.params.spp,
      nav: nav.map((n) => ({ ...n, current: n.href === file || (file.startsWith('source/') && n.label === 'Source') })),
      charts: pageCharts, chartsJson: JSON.stringify(pageCharts).replace(/</g, '\\u003c'),
    });

  writeAssets(w);
  for (const p of pages) {
    for (const c of p.charts) w.write(`charts/${c.id}.png`, renderChartPng(c));
    w.write(p.file, layout(p.title, p.file, t.analysis(p), p.charts));
  }
  for (const s of sources) {
    const file = `source/${fileName(s.name)}.html`;
    const annotatedFile = `../annotated/${s.name}.glsl`;
    const others = sources.map((o) => `<a href="${fileName(o.name)}.html">${Handlebars.escapeExpression(o.included ? `↳ ${baseName(o.path)}` : o.name)}</a>`).join(' · ');
    // The page shows where the file is relative to the manifest, not the writing machine's absolute path.
    const path = portablePath(s.path, input.manifestDir ?? dirname(rec.manifest));
    w.write(file, layout(s.name, file, `<p class="note">Shaders (↳ = #included file with code that shader ran): ${others}</p>${t.source({ ...s, path, annotatedFile })}`, [], '../'));
  }

  const headline: { label: string; value: string; note: string }[] = [];
  if (r.simt) {
    headline.push({ label: 'SIMT efficiency', value: pct(r.simt.overall.instructionEfficiency), note: 'active lanes per issued instruction slot, all shaders' });
    const worst = [...r.simt.perShader].filter((s) => s.warpInstructions > 0).sort((a, b) => a.instructionEfficiency - b.instructionEfficiency)[0];
    if (worst) headline.push({ label: 'least efficient shader', value: `${worst.name} (${pct(worst.instructionEfficiency)})`, note: `${int(worst.warpInstructions)} warp instructions` });
  }
  if (r.hotspots && r.hotspots.rows.length > 0) {
    const h = [...r.hotspots.rows].sort((a, b) => b.threadCount - a.threadCount)[0]!;
    headline.push({ label: 'hottest instruction', value: `${baseName(h.file)}:${h.line} ${h.opcode}`, note: `${int(h.threadCount)} thread executions, shader ${h.shaderName}` });
  }
  if (r.divergence && r.divergence.totalSlots > 0) {
    const d = r.divergence;
    const idle = d.totalSlots - d.activeSlots;
    headline.push({ label: 'idle lane slots', value: pct(idle / d.totalSlots), note: `control flow ${pct(d.controlFlow / Math.max(1, idle))}, indirect calls ${pct(d.indirectFunctionCall / Math.max(1, idle))}, early return ${pct(d.earlyReturn / Math.max(1, idle))} of the idle slots` });
  }
  if (r.compaction) {
    const all = r.compaction.find((c) => c.window === 'all');
    if (all) headline.push({ label: 'warps removable by compaction', value: pct(all.warpsCompacted), note: 'whole-frame window, at traceRay' });
  }
  if (r.paths) headline.push({ label: 'unique thread paths', value: int(r.paths.uniquePaths), note: r.paths.top[0] ? `most common: ${pct(r.paths.top[0].fraction)} of threads` : '' });
  if (r.lifetimes) headline.push({ label: 'mean thread lifetime', value: `${r.lifetimes.thread.mean.toFixed(1)} blocks`, note: `max ${r.lifetimes.thread.max}` });
  const base = rec.uninstrumented?.timing.gpu_sim_cycle;
  const timed = rec.modes.filter((m) => m.overheadCycles !== undefined);
  if (base !== undefined && timed.length > 0) {
    // One headline: simt's overhead (the utility most users run) or the only mode's; the table has all.
    const m = timed.find((x) => x.mode === 'simt') ?? timed[0]!;
    const rel = (x: number) => signedPct(x / Math.max(1, base));
    const others = timed.filter((x) => x !== m).map((x) => `${x.mode} ${rel(x.overheadCycles!)}`).join(', ');
    headline.push({
      label: `instrumentation overhead (${m.mode})`, value: `${m.overheadCycles! >= 0 ? '+' : ''}${int(m.overheadCycles!)} cycles (${rel(m.overheadCycles!)})`,
      note: `over ${int(base)} simulated cycles uninstrumented on ${rec.uninstrumented!.config}${others ? `; ${others}` : ''}`,
    });
  }
  for (const u of input.utilityPages ?? []) for (const h of u.summary ?? []) headline.push({ label: `${u.name}: ${h.label}`, value: h.value, note: h.note ?? '' });
  if (r.its) headline.push({ label: 'warp exits / entries', value: r.its[0]!.evidence.exitPerEntry.toFixed(3), note: '1.0 under a SIMT stack' });
  const minInsts = Math.min(...rec.modes.map((m) => m.threadInsts));
  const f = rec.fidelity;
  const dataFiles = ['summary.json', 'simt_efficiency.csv', 'hotspots.csv', 'dyn_opcode_counts.csv', 'thread_compaction.csv',
    'divergence_characterization.csv', 'warp_exits_vs_entries.csv'].filter((name) => name === 'summary.json' || hasData(name, r));
  const body = t.index({
    workload: rec.workload, manifest: portableManifestPath(rec.manifest), width: rec.params.width, height: rec.params.height, spp: rec.params.spp, seed: rec.params.seed,
    modes: rec.modes.map((m) => m.mode).join(', '), hasImage: input.hasImage, hasHeatmap: input.heatmap !== undefined, headline,
    fidelity: f && {
      fromDump: pct(f.fromDump, 4), fromSimulator: pct(f.fromSimulator, 4), sitesCompared: f.sitesCompared,
      verdict: f.holds ? 'equal: the instrumentation measures exactly what the simulator executed' : `${f.mismatches.length} site(s) differ`, holds: f.holds,
    },
    pages: [...pages.map((p) => ({ href: p.file, label: p.label, description: p.description })),
      ...sources.map((s) => ({
        href: `source/${fileName(s.name)}.html`,
        label: s.included ? `Source: ${baseName(s.path)} (#included by ${s.shader})` : `Source: ${s.name}`,
        description: `${s.included ? `code of the ${s.stage} shader ${s.shader} in this #included file` : `${s.stage} shader`} with inline data${s.hottestLine ? `; hottest line ${s.hottestLine}` : ''}`,
      }))],
    device: rec.device && `${rec.device.name} (${rec.device.driver}), subgroup size ${rec.device.subgroupSize}, median trace dispatch ${rec.device.medianTraceMs.toFixed(3)} ms`,
    runs: rec.device ? rec.modes.map((m) => ({
      mode: m.mode, warpInsts: '—', threadInsts: '—', simt: '—', rays: '—', buffer: `${int(m.bufferWords)}${m.rerunFrom ? ` (rerun; ${int(m.rerunFrom)} was too small)` : ''}`,
      time: `${m.simulateMs.toFixed(3)} ms on the device`,
    })) : rec.modes.map((m) => ({
      mode: m.mode, warpInsts: int(m.warpInsts), threadInsts: `${int(m.threadInsts)}${m.threadInsts > minInsts ? ` (+${pct(m.threadInsts / minInsts - 1)})` : ''}`,
      simt: pct(m.simtEfficiency), rays: int(m.rays), buffer: `${int(m.bufferWords)}${m.rerunFrom ? ` (rerun; ${int(m.rerunFrom)} was too small)` : ''}`,
      time: `${(m.simulateMs / 1000).toFixed(2)} s`,
    })),
    analyticsMs: rec.analyticsMs, dataFiles, timing: timingTable(rec),
  });
  w.write('index.html', layout('Overview', 'index.html', body, []));
}

const signedPct = (x: number) => `${x >= 0 ? '+' : ''}${pct(x)}`;

/** Rows of the index's timing-model table: the uninstrumented run first, then each mode's run. */
function timingTable(rec: ReportInput['record']) {
  const base = rec.uninstrumented;
  if (!base) return undefined;
  const baseCycles = base.timing.gpu_sim_cycle ?? 0;
  const baseInsts = base.timing.gpu_sim_insn ?? 0;
  const row = (label: string, v: Record<string, number>, overhead: string, instOverhead: string) => ({
    label, cycles: int(v.gpu_sim_cycle ?? 0), overhead, insts: int(v.gpu_sim_insn ?? 0), instOverhead,
    ipc: (v.gpu_ipc ?? 0).toFixed(2), simt: `${(v.gpu_simt_efficiency ?? 0).toFixed(1)}%`,
    l1: `${int(v.L1D_total_cache_accesses ?? 0)} / ${pct(v.L1D_total_cache_miss_rate ?? 0)}`,
    l2: `${int(v.L2_total_cache_accesses ?? 0)} / ${pct(v.L2_total_cache_miss_rate ?? 0)}`,
    dram: pct(v.dram_eff ?? 0), bw: pct(v.bwutil ?? 0), rt: pct(v.rt_avg_efficiency ?? 0),
  });
  return {
    config: base.config,
    baseCycles: int(baseCycles),
    rows: [
      row('uninstrumented', base.timing, '—', '—'),
      ...rec.modes.filter((m) => m.timing).map((m) => {
        const c = m.timing!.gpu_sim_cycle ?? 0;
        const i = m.timing!.gpu_sim_insn ?? 0;
        return row(m.mode, m.timing!, `${m.overheadCycles! >= 0 ? '+' : ''}${int(m.overheadCycles!)} (${signedPct((c - baseCycles) / Math.max(1, baseCycles))})`,
          `${signedPct((i - baseInsts) / Math.max(1, baseInsts))}`);
      }),
    ],
  };
}

function hasData(file: string, r: ReportInput['results']): boolean {
  switch (file) {
    case 'simt_efficiency.csv': return r.simt !== undefined;
    case 'hotspots.csv': return r.hotspots !== undefined;
    case 'dyn_opcode_counts.csv': return r.opcodes !== undefined;
    case 'thread_compaction.csv': return r.compaction !== undefined;
    case 'divergence_characterization.csv': return r.divergence !== undefined;
    case 'warp_exits_vs_entries.csv': return r.its !== undefined;
    default: return false;
  }
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

function fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}
