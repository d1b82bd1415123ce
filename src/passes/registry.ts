/**
 * The one place passes are registered by name (the CLI and manifests refer to passes by these
 * names). Adding a pass: the pass file, its test, one `registerPass` call in the pass's module
 * or in the CLI wiring.
 *
 * Invariant: names are unique; registering a second, different pass under a taken name throws.
 */
import type { Pass } from './pass.js';

const passes = new Map<string, Pass>();

export function registerPass(p: Pass): void {
  const existing = passes.get(p.name);
  if (existing && existing !== p) throw new Error(`a different pass is already registered as '${p.name}'`);
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(p.name)) throw new Error(`pass name '${p.name}' is not kebab-case`);
  passes.set(p.name, p);
}

export function passByName(name: string): Pass | undefined {
  return passes.get(name);
}

export function allPasses(): readonly Pass[] {
  return [...passes.values()];
}
