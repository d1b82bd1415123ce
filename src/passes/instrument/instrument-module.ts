/**
 * Entry points of the instrumentation utilities: `instrumentModule(m, mode)` rewrites one stage
 * module in place and returns the static metadata (appending to `opts.metadata` when several
 * stage modules of one pipeline are instrumented, so inst ids stay unique in the pipeline).
 * A utility is a built-in mode name or any `Placement` (probe-context.ts): the built-in five are
 * placements too (`BUILTIN_PLACEMENTS`), so user utilities go through the same code.
 *
 * Invariant: after instrumentation the module still verifies (tests assert `verifyModule`), and
 * the metadata describes the module as it was before.
 */
import type { Module } from '../../ir/module.js';
import { emptyMetadata, INSTRUMENTATION_MODES, type InstrumentationMetadata, type InstrumentationMode } from '../../primitives/buffer-layout.js';
import { deferAnyHitExits } from './defer-any-hit-exits.js';
import { instrumentDivergence } from './divergence.js';
import { InstrumentationSession } from './instrumentation-session.js';
import type { Placement } from './probe-context.js';
import { NAME_PATTERN } from '../../primitives/buffer-layout.js';
import { instrumentIts } from './its.js';
import { instrumentPaths } from './paths.js';
import { instrumentSimt } from './simt.js';
import { instrumentTrace } from './trace.js';

export const BUILTIN_PLACEMENTS: Readonly<Record<InstrumentationMode, Placement>> = {
  simt: { name: 'simt', place: instrumentSimt },
  divergence: { name: 'divergence', place: instrumentDivergence },
  paths: { name: 'paths', place: instrumentPaths },
  trace: { name: 'trace', place: instrumentTrace },
  its: { name: 'its', place: instrumentIts },
};

/** A utility to apply: a built-in mode's name or a placement. */
export type PlacementRef = InstrumentationMode | Placement;

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
  modes: PlacementRef | readonly PlacementRef[],
  opts: InstrumentOptions = {},
): InstrumentationMetadata {
  // A built-in placement given as an object is the same as its name (and keeps its canonical place).
  const list = ((Array.isArray(modes) ? modes : [modes]) as readonly PlacementRef[]).map((x) =>
    typeof x !== 'string' && isInstrumentationMode(x.name) && BUILTIN_PLACEMENTS[x.name].place === x.place ? x.name : x);
  const placements: Placement[] = [];
  for (const x of list) {
    if (typeof x === 'string') {
      if (!isInstrumentationMode(x)) throw new UnknownInstrumentationModeError(x);
      continue;
    }
    if (!NAME_PATTERN.test(x.name)) throw new TypeError(`utility name '${x.name}' must match ${NAME_PATTERN}`);
    placements.push(x);
  }
  let session = sessions.get(m);
  if (session && opts.metadata && session.meta !== opts.metadata) throw new AlreadyInstrumentedError();
  const meta = session?.meta ?? opts.metadata ?? emptyMetadata();
  if (!session) sessions.set(m, (session = new InstrumentationSession(m, meta)));
  const ordered = [
    ...CANONICAL_ORDER.filter((mode) => list.includes(mode)).map((mode) => BUILTIN_PLACEMENTS[mode]),
    ...placements,
  ];
  for (const p of ordered) {
    if (!meta.modes.includes(p.name)) meta.modes.push(p.name);
    p.place(session);
  }
  // Subgroup operations in an any-hit after an invocation left it hang an H100: one exit (defer-any-hit-exits.ts).
  deferAnyHitExits(m, session.shaders);
  return meta;
}

/** Instruments every stage module of a pipeline with one shared metadata. */
export function instrumentPipeline(
  modules: readonly Module[],
  modes: PlacementRef | readonly PlacementRef[],
): InstrumentationMetadata {
  const meta = emptyMetadata();
  for (const m of modules) instrumentModule(m, modes, { metadata: meta });
  return meta;
}
