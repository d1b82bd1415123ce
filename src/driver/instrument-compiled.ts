/**
 * Instruments every stage module of a compiled workload with a list of utilities (built-in mode
 * names or Utility objects) sharing one metadata. A user utility's placement runs guarded: what
 * it throws becomes a UtilityError naming its file, and the instrumented modules must still
 * verify (a value probe on a value that does not dominate its point is caught here, before the
 * simulator sees it).
 */
import { verifyModule } from '../ir/verify.js';
import { instrumentModule, isInstrumentationMode, type PlacementRef } from '../passes/instrument/instrument-module.js';
import { emptyMetadata, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from '../utilities/builtin.js';
import { runUtilityCode, UtilityError } from '../utilities/utility-error.js';
import type { CompiledWorkload } from './compile-workload.js';

function isBuiltin(p: PlacementRef): boolean {
  return typeof p === 'string' || (isInstrumentationMode(p.name) && BUILTIN_UTILITIES[p.name].place === p.place);
}

/** Rewrites `compiled.modules` in place; returns the metadata. */
export function instrumentCompiled(compiled: CompiledWorkload, utilities: readonly PlacementRef[], metadata = emptyMetadata()): InstrumentationMetadata {
  for (const u of utilities) {
    if (isBuiltin(u)) {
      for (const m of compiled.modules) instrumentModule(m, u, { metadata });
      continue;
    }
    const user = u as Exclude<PlacementRef, string>;
    runUtilityCode(user, 'place', () => {
      for (const m of compiled.modules) instrumentModule(m, user, { metadata });
    });
    for (const m of compiled.modules) {
      const problems = verifyModule(m);
      if (problems.length > 0) {
        const src = m.sources[0]?.path ?? 'a shader';
        throw new UtilityError(`utility '${user.name}' produced invalid IR in ${src}: ${problems.slice(0, 3).join('; ')}`);
      }
    }
  }
  return metadata;
}
