/**
 * V-Vision's five utilities as `Utility` objects: each is its placement (src/passes/instrument)
 * plus the analyses its dump feeds (paper 003 Section V): simt -> SIMT efficiency, hotspots,
 * opcode counts; divergence -> divergence characterization; paths -> thread compaction and
 * thread paths; trace -> lifetimes and the per-pixel work heatmap; its -> exit / entry evidence.
 * Their typed results feed V-Vision's data files and the report's dedicated pages; their
 * headline figures come back as `summary` like a user utility's.
 */
import {
  divergenceCharacterization, hotspots, itsEvidence, lifetimes, opcodeCounts, simtEfficiency, threadCompaction, threadPaths,
  workHeatmap,
} from '../analytics/index.js';
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
    return {
      results: { simt, hotspots: hotspots(dump, metadata), opcodes: opcodeCounts(dump, metadata) },
      summary: [{ label: 'SIMT efficiency', value: pct(simt.overall.instructionEfficiency), note: 'active lanes per issued instruction slot' }],
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
    };
  },
};

export const pathsUtility: Utility = {
  name: 'paths',
  description: 'ballots before every traceRay and at its sync point: thread compaction and thread paths (V-Vision Fig. 8-9)',
  place: BUILTIN_PLACEMENTS.paths.place,
  analyse({ dump, metadata }) {
    const paths = threadPaths(dump, metadata);
    return { results: { compaction: threadCompaction(dump, metadata), paths }, summary: [{ label: 'unique thread paths', value: String(paths.uniquePaths) }] };
  },
};

export const traceUtility: Utility = {
  name: 'trace',
  description: 'ThreadUpdate at every basic block: complete execution traces, lifetimes, per-pixel work heatmap (V-Vision Fig. 16)',
  place: BUILTIN_PLACEMENTS.trace.place,
  analyse({ dump, metadata, launch }) {
    const l = lifetimes(dump, metadata);
    return {
      results: { lifetimes: l },
      heatmap: workHeatmap(dump, metadata, { width: launch.width, height: launch.height, unit: 'instructions' }),
      summary: [{ label: 'mean thread lifetime', value: `${l.thread.mean.toFixed(1)} blocks` }],
    };
  },
};

export const itsUtility: Utility = {
  name: 'its',
  description: 'ballots at the pipeline entry and its unified exit: warp exits per entry, evidence of independent thread scheduling (V-Vision Fig. 10-11)',
  place: BUILTIN_PLACEMENTS.its.place,
  analyse({ dump, metadata, workload }) {
    const evidence = itsEvidence(dump, metadata);
    return { results: { its: [{ invocation: workload, evidence }] }, summary: [{ label: 'warp exits / entries', value: evidence.exitPerEntry.toFixed(3) }] };
  },
};

export const BUILTIN_UTILITIES: Readonly<Record<InstrumentationMode, Utility>> = {
  simt: simtUtility,
  divergence: divergenceUtility,
  paths: pathsUtility,
  trace: traceUtility,
  its: itsUtility,
};
