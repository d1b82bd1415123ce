/**
 * The pass interface: a named module rewrite. Passes are plain objects (no base class); shared
 * rewriting machinery comes by composition (`Builder`, instrumentation emitters).
 *
 * Contract: `run` mutates the module in place and says whether it changed anything; it leaves a
 * module that `verifyModule` accepts. Analyses (CFG, dominators) are recomputed by the pass when
 * needed: nothing is cached in the module between passes.
 */
import type { Module } from '../ir/module.js';

export interface PassContext {
  /** Verify the module after every pass (always on in tests). */
  verify: boolean;
  /** Called with the printed IR before each pass (`--print-before-all`). */
  printBefore?: (passName: string, text: string) => void;
  /** Filled with the wall time of each pass in milliseconds (summed when a pass runs twice). */
  timings?: Map<string, number>;
  /** Pass options by name, from the CLI or a workload manifest. */
  options: Record<string, unknown>;
}

export interface Pass {
  /** kebab-case; doubles as the CLI name. */
  readonly name: string;
  run(m: Module, ctx: PassContext): 'changed' | 'unchanged';
}
