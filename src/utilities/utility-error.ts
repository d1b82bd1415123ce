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

/** Where user utilities came from (set by the loader): file path by utility object. */
const sources = new WeakMap<object, string>();

export function setUtilitySource(u: object, file: string): void {
  sources.set(u, file);
}

export function utilitySource(u: object): string | undefined {
  return sources.get(u);
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
    const file = utilitySource(u);
    let where = file ?? `utility '${u.name}'`;
    if (file && err.stack) {
      // The loader maps the transpiled module to the user's path, so frames name it directly.
      const frame = err.stack.split('\n').find((l) => l.includes(file));
      const m = frame && /:(\d+):(\d+)\)?\s*$/.exec(frame);
      if (m) where = `${file}:${m[1]}:${m[2]}`;
    }
    throw new UtilityError(`${where}: utility '${u.name}' failed in ${phase}: ${err.message}`);
  }
}
