/**
 * Runs an ordered list of passes over a module: optional print before each pass, per-pass timing,
 * and verification after each pass that names the pass which broke the module.
 *
 * Invariant: when `verify` is on (the default), the module handed to pass N+1 is valid, so a
 * verification failure is always attributed to the pass that just ran. The input module is
 * verified first, so a broken input is never blamed on the first pass.
 */
import { printModule } from '../ir/printer.js';
import { verifyModule } from '../ir/verify.js';
import type { Module } from '../ir/module.js';
import type { Pass, PassContext } from './pass.js';
import { passByName } from './registry.js';

export class PassError extends Error {
  constructor(
    readonly passName: string | undefined,
    readonly problems: string[],
    message: string,
  ) {
    super(message);
    this.name = 'PassError';
  }
}

export interface PassRunRecord {
  name: string;
  result: 'changed' | 'unchanged';
  ms: number;
}

export function runPasses(m: Module, passes: readonly Pass[], ctx: Partial<PassContext> = {}): PassRunRecord[] {
  const full: PassContext = { verify: ctx.verify ?? true, options: ctx.options ?? {} };
  if (ctx.printBefore) full.printBefore = ctx.printBefore;
  if (ctx.timings) full.timings = ctx.timings;
  if (full.verify) {
    const problems = verifyModule(m);
    if (problems.length > 0) {
      throw new PassError(undefined, problems, `input module is invalid before any pass ran:\n  ${problems.join('\n  ')}`);
    }
  }
  const records: PassRunRecord[] = [];
  for (const pass of passes) {
    if (full.printBefore) full.printBefore(pass.name, printModule(m));
    const start = performance.now();
    let result: 'changed' | 'unchanged';
    try {
      result = pass.run(m, full);
    } catch (e) {
      if (e instanceof PassError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new PassError(pass.name, [msg], `pass '${pass.name}' failed: ${msg}`);
    }
    const ms = performance.now() - start;
    if (full.timings) full.timings.set(pass.name, (full.timings.get(pass.name) ?? 0) + ms);
    records.push({ name: pass.name, result, ms });
    if (full.verify) {
      const problems = verifyModule(m);
      if (problems.length > 0) {
        throw new PassError(pass.name, problems, `pass '${pass.name}' produced an invalid module:\n  ${problems.join('\n  ')}`);
      }
    }
  }
  return records;
}

/** Resolves pass names (from options or the CLI) to registered passes; unknown names are an error naming them. */
export function passesByName(names: readonly string[]): Pass[] {
  const unknown = names.filter((n) => passByName(n) === undefined);
  if (unknown.length > 0) throw new PassError(undefined, unknown, `unknown pass${unknown.length > 1 ? 'es' : ''}: ${unknown.join(', ')}`);
  return names.map((n) => passByName(n)!);
}
