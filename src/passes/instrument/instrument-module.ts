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

/**
 * Applied in this order whatever order the caller gives, so that when modes share a module the
 * divergence utility's `shaderEntry` ballots exist before simt asks for the same block ballots.
 */
const CANONICAL_ORDER: readonly InstrumentationMode[] = ['divergence', 'paths', 'its', 'simt', 'trace'];

/**
 * A module instrumented again (another mode of `--mode all`) continues its first session: the
 * snapshot of the ORIGINAL program, its shader indices and the probes already placed.
 */
const sessions = new WeakMap<Module, InstrumentationSession>();

export class AlreadyInstrumentedError extends Error {
  constructor() {
    super('this module was already instrumented with a different metadata object; instrument all stage modules of a run with one metadata');
    this.name = 'AlreadyInstrumentedError';
  }
}

export function instrumentModule(
  m: Module,
  modes: InstrumentationMode | readonly InstrumentationMode[],
  opts: InstrumentOptions = {},
): InstrumentationMetadata {
  const list = typeof modes === 'string' ? [modes] : modes;
  for (const mode of list) if (!isInstrumentationMode(mode)) throw new UnknownInstrumentationModeError(mode);
  let session = sessions.get(m);
  if (session && opts.metadata && session.meta !== opts.metadata) throw new AlreadyInstrumentedError();
  const meta = session?.meta ?? opts.metadata ?? emptyMetadata();
  if (!session) sessions.set(m, (session = new InstrumentationSession(m, meta)));
  for (const mode of CANONICAL_ORDER) {
    if (!list.includes(mode)) continue;
    if (!meta.modes.includes(mode)) meta.modes.push(mode);
    INSTRUMENTATION_UTILITIES[mode](session);
  }
  return meta;
}

/** Instruments every stage module of a pipeline with one shared metadata. */
export function instrumentPipeline(
  modules: readonly Module[],
  modes: InstrumentationMode | readonly InstrumentationMode[],
): InstrumentationMetadata {
  const meta = emptyMetadata();
  for (const m of modules) instrumentModule(m, modes, { metadata: meta });
  return meta;
}
