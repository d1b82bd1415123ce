/**
 * Independent thread scheduling evidence (paper 003, Sec. V-C, Fig. 10-11): executions of the
 * pipeline exit divided by executions of the pipeline entry, from a `--mode its` dump. Each warp
 * runs the entry once; under a SIMT stack it reconverges before the single exit block and runs it
 * once too (ratio 1.0); with per-thread PCs split groups run it separately (ratio > 1).
 */
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { KindCode, requireSites, siteTable } from './site-table.js';

export interface ItsEvidence {
  entryExecutions: number;
  exitExecutions: number;
  /** exit / entry (0 when the entry never ran). */
  exitPerEntry: number;
}

export function itsEvidence(dump: Dump, meta: InstrumentationMetadata): ItsEvidence {
  requireSites(meta, 'ITS evidence', ['pipelineExit'], 'its');
  const table = siteTable(meta);
  let entry = 0;
  let exit = 0;
  for (let k = 0; k < dump.entryCount; k++) {
    const kind = table.kind[dump.entrySite[k]!];
    if (kind === KindCode.PipelineEntry) entry++;
    else if (kind === KindCode.PipelineExit) exit++;
  }
  return { entryExecutions: entry, exitExecutions: exit, exitPerEntry: entry === 0 ? 0 : exit / entry };
}
