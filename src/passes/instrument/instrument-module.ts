/**
 * Entry points of the instrumentation utilities: `instrumentModule(m, mode)` rewrites one stage
 * module in place and returns the static metadata (appending to `opts.metadata` when several
 * stage modules of one pipeline are instrumented, so inst ids stay unique in the pipeline).
 *
 * Invariant: after instrumentation the module still verifies (tests assert `verifyModule`), and
 * the metadata describes the module as it was before.
 */
import type { Module } from '../../ir/module.js';
import { emptyMetadata, INSTRUMENTATION_MODES, type InstrumentationMetadata, type InstrumentationMode } from '../../primitives/buffer-layout.js';
import { instrumentDivergence } from './divergence.js';
import { InstrumentationSession } from './instrumentation-session.js';
import { instrumentIts } from './its.js';
import { instrumentPaths } from './paths.js';
import { instrumentSimt } from './simt.js';
import { instrumentTrace } from './trace.js';

export const INSTRUMENTATION_UTILITIES: Readonly<Record<InstrumentationMode, (s: InstrumentationSession) => void>> = {
  simt: instrumentSimt,
  divergence: instrumentDivergence,
  paths: instrumentPaths,
  trace: instrumentTrace,
  its: instrumentIts,
};

export class UnknownInstrumentationModeError extends Error {
  constructor(readonly mode: string) {
    super(`unknown instrumentation mode '${mode}'; expected one of ${INSTRUMENTATION_MODES.join(', ')}`);
    this.name = 'UnknownInstrumentationModeError';
  }
}

export function isInstrumentationMode(mode: string): mode is InstrumentationMode {
  return (INSTRUMENTATION_MODES as readonly string[]).includes(mode);
}

export interface InstrumentOptions {
  /** Metadata of the pipeline's already-instrumented modules; new sites and shaders are appended. */
  metadata?: InstrumentationMetadata;
}

export function instrumentModule(m: Module, mode: InstrumentationMode, opts: InstrumentOptions = {}): InstrumentationMetadata {
  if (!isInstrumentationMode(mode)) throw new UnknownInstrumentationModeError(mode);
  const meta = opts.metadata ?? emptyMetadata();
  if (!meta.modes.includes(mode)) meta.modes.push(mode);
  INSTRUMENTATION_UTILITIES[mode](new InstrumentationSession(m, meta));
  return meta;
}

/** Instruments every stage module of a pipeline with one shared metadata. */
export function instrumentPipeline(modules: readonly Module[], mode: InstrumentationMode): InstrumentationMetadata {
  const meta = emptyMetadata();
  for (const m of modules) instrumentModule(m, mode, { metadata: meta });
  return meta;
}
