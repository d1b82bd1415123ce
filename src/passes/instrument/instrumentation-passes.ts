/**
 * The instrumentation utilities as registered passes, one per mode: `instrument-simt`,
 * `instrument-divergence`, `instrument-paths`, `instrument-trace`, `instrument-its`.
 *
 * The static metadata travels in the pass context: `ctx.options.instrumentationMetadata` is
 * appended to when present (so every stage module of a pipeline shares one inst id space) and
 * created there otherwise; the caller writes it beside the dump as metadata.json.
 */
import type { Module } from '../../ir/module.js';
import { INSTRUMENTATION_MODES, type InstrumentationMetadata, type InstrumentationMode } from '../../primitives/buffer-layout.js';
import type { Pass, PassContext } from '../pass.js';
import { registerPass } from '../registry.js';
import { instrumentModule } from './instrument-module.js';

export const METADATA_OPTION = 'instrumentationMetadata';

function isMetadata(x: unknown): x is InstrumentationMetadata {
  return typeof x === 'object' && x !== null && (x as { format?: unknown }).format === 'vvision-instrumentation-metadata';
}

/** The metadata a pass context carries (creating nothing). */
export function metadataOf(ctx: PassContext): InstrumentationMetadata | undefined {
  const x = ctx.options[METADATA_OPTION];
  return isMetadata(x) ? x : undefined;
}

export function instrumentationPass(mode: InstrumentationMode): Pass {
  return {
    name: `instrument-${mode}`,
    run(m: Module, ctx: PassContext) {
      const given = ctx.options[METADATA_OPTION];
      if (given !== undefined && !isMetadata(given)) {
        throw new TypeError(`pass option '${METADATA_OPTION}' must be V-Vision instrumentation metadata`);
      }
      const before = given?.sites.length ?? 0;
      const meta = instrumentModule(m, mode, given ? { metadata: given } : {});
      ctx.options[METADATA_OPTION] = meta;
      return meta.sites.length > before ? 'changed' : 'unchanged';
    },
  };
}

export const INSTRUMENTATION_PASSES: Readonly<Record<InstrumentationMode, Pass>> = Object.fromEntries(
  INSTRUMENTATION_MODES.map((mode) => [mode, instrumentationPass(mode)]),
) as Record<InstrumentationMode, Pass>;

for (const p of Object.values(INSTRUMENTATION_PASSES)) registerPass(p);
