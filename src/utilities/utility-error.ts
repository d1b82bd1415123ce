/**
 * Errors in a user utility: its file does not type-check (`UtilityTypeError`, diagnostics
 * `file:line:col: error: ...`, exit 2 like a shader error), it does not export a utility, or its
 * code throws / asks for something the program does not have while placing probes or analysing
 * (`UtilityError`, naming the utility, the phase and, when the stack shows it, the line of the
 * user's file).
 */
export class UtilityTypeError extends Error {
  constructor(readonly diagnostics: string[]) {
    super(diagnostics.join('\n'));
    this.name = 'UtilityTypeError';
  }
}

export class UtilityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UtilityError';
  }
}

import type { PositionMapper } from './source-map-lines.js';

/** Where user utilities came from (set by the loader): file path by utility object. */
const sources = new WeakMap<object, string>();

export function setUtilitySource(u: object, file: string): void {
  sources.set(u, file);
}

export function utilitySource(u: object): string | undefined {
  return sources.get(u);
}

/** Loaded utility modules by their data: URL: the user's file and the map back to its lines. */
const modules = new Map<string, { file: string; map: PositionMapper }>();

export function registerUtilityModule(url: string, file: string, map: PositionMapper): void {
  modules.set(url, { file, map });
}

/** `file:line:col` of the first stack frame inside a loaded utility module, mapped to the user's .ts. */
export function locateInStack(stack: string | undefined): string | undefined {
  for (const frame of stack?.split('\n') ?? []) {
    const m = /(data:text\/javascript;base64,[A-Za-z0-9+/=]+):(\d+):(\d+)/.exec(frame);
    const mod = m && modules.get(m[1]!);
    if (!mod) continue;
    const at = mod.map(Number(m![2]), Number(m![3]));
    return at ? `${mod.file}:${at.line}:${at.column}` : mod.file;
  }
  return undefined;
}

/**
 * Runs user code of utility `u` (phase 'place' or 'analyse'); anything it throws becomes a
 * UtilityError naming the utility, its file and line (from the stack) and the original message.
 */
export function runUtilityCode<T>(u: { name: string }, phase: 'place' | 'analyse', f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UtilityError) throw e;
    const err = e instanceof Error ? e : new Error(String(e));
    const where = locateInStack(err.stack) ?? utilitySource(u);
    throw new UtilityError(`${where ? `${where}: ` : ''}utility '${u.name}' failed in ${phase}: ${err.message}`);
  }
}
