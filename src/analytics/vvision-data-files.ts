/**
 * The V-Vision data files for scripts, as strings keyed by file name (the report/CLI writes them):
 * simt_efficiency.csv, hotspots.csv, dyn_opcode_counts.csv, thread_compaction.csv,
 * divergence_characterization.csv, warp_exits_vs_entries.csv and summary.json, plus
 * thread_paths.csv (Table III) and lifetimes.csv (Fig. 16) for the two analyses V-Vision only
 * plotted. A file is produced only when its analysis is present; summary.json always is.
 *
 * CSV: header row, comma separated, RFC 4180 quoting, '\n' line ends, numbers as JS prints them
 * (ratios unrounded so scripts lose nothing).
 */
import type { DivergenceCharacterization, DivergenceSlots } from './divergence-characterization.js';
import type { Hotspots, OpcodeCount } from './hotspots.js';
import type { ItsEvidence } from './its-evidence.js';
import type { LifetimeDistribution, Lifetimes } from './lifetimes.js';
import type { SimtEfficiency, SimtInvocationStats, SimtTotals } from './simt-efficiency.js';
import type { CompactionResult } from './thread-compaction.js';
import type { ThreadPaths } from './thread-paths.js';

export interface VVisionResults {
  workload?: string;
  simt?: SimtEfficiency;
  simtByInvocation?: SimtInvocationStats[];
  hotspots?: Hotspots;
  opcodes?: OpcodeCount[];
  compaction?: CompactionResult[];
  divergence?: DivergenceCharacterization;
  its?: { invocation: string; evidence: ItsEvidence }[];
  paths?: ThreadPaths;
  lifetimes?: Lifetimes;
}

function field(v: string | number): string {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}

function simtCols(t: SimtTotals): (string | number)[] {
  return [t.warpExecutions, t.activeThreads, t.efficiency, t.warpInstructions, t.threadInstructions, t.instructionEfficiency];
}

function slotCols(d: DivergenceSlots): (string | number)[] {
  const inactive = d.totalSlots - d.activeSlots;
  const share = (x: number) => (inactive === 0 ? 0 : x / inactive);
  return [
    d.totalSlots, d.activeSlots, d.controlFlow, d.indirectFunctionCall, d.earlyReturn,
    share(d.controlFlow), share(d.indirectFunctionCall), share(d.earlyReturn),
  ];
}

function distributionSummary(d: LifetimeDistribution) {
  return { count: d.count, min: d.min, max: d.max, mean: d.mean };
}

/**
 * `fileName` names a shader file in the CSVs: the report writers pass one that makes it relative to
 * the manifest (src/report/portable-path.ts), so data files carry no machine's absolute paths.
 */
export function vvisionDataFiles(r: VVisionResults, fileName: (path: string) => string = (path) => path): Record<string, string> {
  const files: Record<string, string> = {};
  if (r.simt || r.simtByInvocation) {
    const rows: (string | number)[][] = [];
    if (r.simt) {
      rows.push(['pipeline', 'all', '', ...simtCols(r.simt.overall)]);
      for (const s of r.simt.perShader) rows.push(['shader', s.name, s.stage, ...simtCols(s)]);
    }
    for (const inv of r.simtByInvocation ?? []) rows.push(['invocation', inv.invocation, '', ...simtCols(inv)]);
    files['simt_efficiency.csv'] = csv(
      ['scope', 'name', 'stage', 'warp_executions', 'active_threads', 'simt_efficiency', 'warp_instructions', 'thread_instructions', 'instruction_simt_efficiency'],
      rows,
    );
  }
  if (r.hotspots) {
    files['hotspots.csv'] = csv(
      ['shader', 'function', 'block', 'index', 'opcode', 'file', 'line', 'thread_count', 'warp_count', 'normalized'],
      r.hotspots.rows.map((h) => [h.shaderName, h.function, h.block, h.index, h.opcode, fileName(h.file), h.line, h.threadCount, h.warpCount, h.normalized]),
    );
  }
  if (r.opcodes) {
    files['dyn_opcode_counts.csv'] = csv(['opcode', 'thread_count', 'warp_count'], r.opcodes.map((o) => [o.opcode, o.threadCount, o.warpCount]));
  }
  if (r.compaction) {
    files['thread_compaction.csv'] = csv(
      ['compaction_window', 'warp_executions', 'compacted_executions', 'warps_compacted'],
      r.compaction.map((c) => [c.window, c.warpExecutions, c.compactedExecutions, c.warpsCompacted]),
    );
  }
  if (r.divergence) {
    const d = r.divergence;
    files['divergence_characterization.csv'] = csv(
      ['scope', 'name', 'total_slots', 'active_slots', 'control_flow', 'indirect_function_call', 'early_return',
        'control_flow_share', 'indirect_function_call_share', 'early_return_share'],
      [['pipeline', 'all', ...slotCols(d)], ...d.perShader.map((s) => ['shader', s.name, ...slotCols(s)])],
    );
  }
  if (r.its) {
    files['warp_exits_vs_entries.csv'] = csv(
      ['invocation', 'entry_executions', 'exit_executions', 'exit_per_entry'],
      r.its.map((x) => [x.invocation, x.evidence.entryExecutions, x.evidence.exitExecutions, x.evidence.exitPerEntry]),
    );
  }
  if (r.paths) {
    files['thread_paths.csv'] = csv(
      ['rank', 'path', 'threads', 'fraction', 'unique_paths', 'total_threads'],
      r.paths.top.map((p, i) => [i + 1, p.path, p.threads, p.fraction, r.paths!.uniquePaths, r.paths!.threads]),
    );
  }
  if (r.lifetimes) {
    const rows: (string | number)[][] = [];
    for (const [scope, d] of [['thread', r.lifetimes.thread], ['warp', r.lifetimes.warp]] as const) {
      d.histogram.forEach(([blocks, count], i) => rows.push([scope, blocks, count, d.normalized[i]![1]]));
    }
    files['lifetimes.csv'] = csv(['scope', 'basic_blocks', 'count', 'normalized'], rows);
  }
  const summary: Record<string, unknown> = { workload: r.workload ?? null };
  if (r.simt) summary.simtEfficiency = r.simt.overall.efficiency;
  if (r.simt) summary.instructionSimtEfficiency = r.simt.overall.instructionEfficiency;
  if (r.simtByInvocation) summary.simtEfficiencyByInvocation = Object.fromEntries(r.simtByInvocation.map((x) => [x.invocation, x.efficiency]));
  if (r.hotspots) {
    const hottest = r.hotspots.rows.reduce<(typeof r.hotspots.rows)[number] | undefined>((m, x) => (!m || x.threadCount > m.threadCount ? x : m), undefined);
    summary.hottest = hottest ? { shader: hottest.shaderName, line: hottest.line, opcode: hottest.opcode, threadCount: hottest.threadCount } : null;
  }
  if (r.compaction) summary.warpsCompacted = Object.fromEntries(r.compaction.map((c) => [String(c.window), c.warpsCompacted]));
  if (r.divergence) {
    const { totalSlots, activeSlots, controlFlow, indirectFunctionCall, earlyReturn } = r.divergence;
    summary.divergence = { totalSlots, activeSlots, controlFlow, indirectFunctionCall, earlyReturn };
  }
  if (r.its) summary.exitPerEntry = Object.fromEntries(r.its.map((x) => [x.invocation, x.evidence.exitPerEntry]));
  if (r.paths) summary.threadPaths = { uniquePaths: r.paths.uniquePaths, top: r.paths.top };
  if (r.lifetimes) summary.lifetimes = { thread: distributionSummary(r.lifetimes.thread), warp: distributionSummary(r.lifetimes.warp) };
  files['summary.json'] = JSON.stringify(summary, null, 2) + '\n';
  return files;
}
