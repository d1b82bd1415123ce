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

import vm from 'node:vm';
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
 * The watchdog on a user utility's hooks: one call of `place` or `analyse` may run this long
 * (default 120 s; `VVISION_UTILITY_TIMEOUT_S` sets another number of seconds). Past it the call is
 * stopped, wherever it is looping, and the run ends with a UtilityError naming the utility.
 */
export function utilityTimeoutMs(): number {
  const s = Number(process.env.VVISION_UTILITY_TIMEOUT_S);
  return Number.isFinite(s) && s > 0 ? Math.round(s * 1000) : 120_000;
}

/**
 * Runs `f` under V8's script watchdog: `vm.runInContext` with a timeout terminates whatever
 * JavaScript runs inside the call, user functions of the main realm included, so a hook that
 * loops forever (`for (;;) {}` in place()) is stopped in the same thread, with no worker to set
 * up and no copy of the module or the IR session. Hooks are synchronous (Utility's contract), so
 * nothing they start outlives the call.
 */
function withDeadline<T>(f: () => T, timeoutMs: number): T {
  const box: { call: () => T; result?: T } = { call: f };
  vm.runInContext('box.result = box.call()', vm.createContext({ box }), { timeout: timeoutMs });
  return box.result as T;
}

/**
 * Runs user code of utility `u` (phase 'place' or 'analyse') under the watchdog
 * (utilityTimeoutMs); anything it throws becomes a UtilityError naming the utility, its file and
 * line (from the stack) and the original message.
 */
export function runUtilityCode<T>(u: { name: string }, phase: 'place' | 'analyse', f: () => T, timeoutMs = utilityTimeoutMs()): T {
  try {
    return withDeadline(f, timeoutMs);
  } catch (e) {
    if (e instanceof UtilityError) throw e;
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      const where = utilitySource(u);
      throw new UtilityError(`${where ? `${where}: ` : ''}utility '${u.name}' did not finish ${phase} within ${timeoutMs / 1000} s and was stopped (an endless loop?); VVISION_UTILITY_TIMEOUT_S=<seconds> allows longer`);
    }
    const err = e instanceof Error ? e : new Error(String(e));
    const where = locateInStack(err.stack) ?? utilitySource(u);
    throw new UtilityError(`${where ? `${where}: ` : ''}utility '${u.name}' failed in ${phase}: ${err.message}`);
  }
}
