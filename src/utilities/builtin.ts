/**
 * V-Vision's five utilities as `Utility` objects: each is its placement (src/passes/instrument)
 * plus the analyses its dump feeds (paper 003 Section V): simt -> SIMT efficiency, hotspots,
 * opcode counts; divergence -> divergence characterization; paths -> thread compaction and
 * thread paths; trace -> lifetimes and the per-pixel work heatmap; its -> exit / entry evidence.
 * Their typed results feed V-Vision's data files and the report's dedicated pages; like a user
 * utility's analysis, each also returns its summary, tables and chart specs (the same charts the
 * report draws), so a library caller gets every utility's material in one shape.
 */
import {
  divergenceCharacterization, heatmapPng, hotspots, itsEvidence, lifetimes, opcodeCounts, simtEfficiency, threadCompaction, threadPaths,
  workHeatmap,
} from '../analytics/index.js';
import { compactionCharts, divergenceCharts, hotspotCharts, itsCharts, lifetimeCharts, simtCharts } from '../report/chart-specs.js';
import { BUILTIN_PLACEMENTS } from '../passes/instrument/instrument-module.js';
import type { InstrumentationMode } from '../primitives/buffer-layout.js';
import type { Utility } from './utility.js';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export const simtUtility: Utility = {
  name: 'simt',
  description: 'WarpUpdate(ballot) at every basic block: SIMT efficiency, hotspots, opcode counts, annotated source',
  place: BUILTIN_PLACEMENTS.simt.place,
  analyse({ dump, metadata }) {
    const simt = simtEfficiency(dump, metadata);
    const results = { simt, hotspots: hotspots(dump, metadata), opcodes: opcodeCounts(dump, metadata) };
    return {
      results,
      summary: [{ label: 'SIMT efficiency', value: pct(simt.overall.instructionEfficiency), note: 'active lanes per issued instruction slot' }],
      tables: [{
        title: 'SIMT efficiency per shader', header: ['shader', 'stage', 'warp instructions', 'thread instructions', 'SIMT efficiency'],
        rows: simt.perShader.map((x) => [x.name, x.stage, x.warpInstructions, x.threadInstructions, pct(x.instructionEfficiency)]),
      }],
      charts: [...simtCharts(results), ...hotspotCharts(results)],
    };
  },
};

export const divergenceUtility: Utility = {
  name: 'divergence',
  description: 'ballots at shader entries, early returns and around traceRay: why lanes idle (V-Vision Fig. 13-14)',
  place: BUILTIN_PLACEMENTS.divergence.place,
  analyse({ dump, metadata }) {
    const divergence = divergenceCharacterization(dump, metadata);
    const idle = divergence.totalSlots - divergence.activeSlots;
    return {
      results: { divergence },
      summary: [{ label: 'idle lane slots', value: pct(idle / Math.max(1, divergence.totalSlots)) }],
      tables: [{
        title: 'Lane slots', header: ['scope', 'total', 'active', 'control flow', 'indirect function call', 'early return'],
        rows: [{ name: 'pipeline', ...divergence }, ...divergence.perShader].map((x) => [x.name, x.totalSlots, x.activeSlots, x.controlFlow, x.indirectFunctionCall, x.earlyReturn]),
      }],
      charts: divergenceCharts({ divergence }),
    };
  },
};

export const pathsUtility: Utility = {
  name: 'paths',
  description: 'ballots before every traceRay and at its sync point: thread compaction and thread paths (V-Vision Fig. 8-9)',
  place: BUILTIN_PLACEMENTS.paths.place,
  analyse({ dump, metadata }) {
    const paths = threadPaths(dump, metadata);
    const compaction = threadCompaction(dump, metadata);
    return {
      results: { compaction, paths },
      summary: [{ label: 'unique thread paths', value: String(paths.uniquePaths) }],
      tables: [
        { title: 'Thread paths through traceRay', header: ['path', 'threads', 'share'], rows: paths.top.map((x) => [x.path, x.threads, pct(x.fraction)]) },
        { title: 'Thread compaction', header: ['window', 'warp executions', 'after compaction'], rows: compaction.map((c) => [String(c.window), c.warpExecutions, c.compactedExecutions]) },
      ],
      charts: compactionCharts({ compaction }),
    };
  },
};

export const traceUtility: Utility = {
  name: 'trace',
  description: 'ThreadUpdate at every basic block: complete execution traces, lifetimes, per-pixel work heatmap (V-Vision Fig. 16)',
  place: BUILTIN_PLACEMENTS.trace.place,
  analyse({ dump, metadata, launch }) {
    const l = lifetimes(dump, metadata);
    const heatmap = workHeatmap(dump, metadata, { width: launch.width, height: launch.height, unit: 'instructions' });
    return {
      results: { lifetimes: l },
      heatmap,
      summary: [{ label: 'mean thread lifetime', value: `${l.thread.mean.toFixed(1)} blocks` }],
      charts: lifetimeCharts({ lifetimes: l }),
      images: [{ id: 'work-heatmap', title: 'Instructions per pixel', png: heatmapPng(heatmap) }],
    };
  },
};

export const itsUtility: Utility = {
  name: 'its',
  description: 'ballots at the pipeline entry and its unified exit: warp exits per entry, evidence of independent thread scheduling (V-Vision Fig. 10-11)',
  place: BUILTIN_PLACEMENTS.its.place,
  analyse({ dump, metadata, workload }) {
    const evidence = itsEvidence(dump, metadata);
    const its = [{ invocation: workload, evidence }];
    return {
      results: { its },
      summary: [{ label: 'warp exits / entries', value: evidence.exitPerEntry.toFixed(3) }],
      tables: [{ title: 'Entries and exits', header: ['entry executions', 'exit executions', 'exit / entry'], rows: [[evidence.entryExecutions, evidence.exitExecutions, evidence.exitPerEntry.toFixed(4)]] }],
      charts: itsCharts({ its }),
    };
  },
};

export const BUILTIN_UTILITIES: Readonly<Record<InstrumentationMode, Utility>> = {
  simt: simtUtility,
  divergence: divergenceUtility,
  paths: pathsUtility,
  trace: traceUtility,
  its: itsUtility,
};
