/**
 * Every analysis each V-Vision utility's dump feeds (paper 003 Section V): simt -> SIMT
 * efficiency, hotspots, opcode counts; divergence -> divergence characterization; paths -> thread
 * compaction and thread paths; trace -> lifetimes and the per-pixel work heatmap; its -> exit /
 * entry evidence. Shared by `vvision instrument` (fresh dumps) and `vvision report` (saved ones).
 */
import {
  divergenceCharacterization, hotspots, itsEvidence, lifetimes, opcodeCounts, simtEfficiency, threadCompaction, threadPaths,
  workHeatmap, type Dump, type VVisionResults, type WorkHeatmap,
} from '../analytics/index.js';
import type { InstrumentationMetadata, InstrumentationMode } from '../primitives/buffer-layout.js';

export interface ModeDump {
  mode: InstrumentationMode;
  dump: Dump;
  metadata: InstrumentationMetadata;
}

export function analyseDumps(
  workload: string, runs: readonly ModeDump[], launch: { width: number; height: number },
): { results: VVisionResults; heatmap?: WorkHeatmap } {
  const results: VVisionResults = { workload };
  let heatmap: WorkHeatmap | undefined;
  for (const r of runs) {
    switch (r.mode) {
      case 'simt':
        results.simt = simtEfficiency(r.dump, r.metadata);
        results.hotspots = hotspots(r.dump, r.metadata);
        results.opcodes = opcodeCounts(r.dump, r.metadata);
        break;
      case 'divergence':
        results.divergence = divergenceCharacterization(r.dump, r.metadata);
        break;
      case 'paths':
        results.compaction = threadCompaction(r.dump, r.metadata);
        results.paths = threadPaths(r.dump, r.metadata);
        break;
      case 'trace':
        results.lifetimes = lifetimes(r.dump, r.metadata);
        heatmap = workHeatmap(r.dump, r.metadata, { width: launch.width, height: launch.height, unit: 'instructions' });
        break;
      case 'its':
        results.its = [{ invocation: workload, evidence: itsEvidence(r.dump, r.metadata) }];
        break;
    }
  }
  return heatmap ? { results, heatmap } : { results };
}
