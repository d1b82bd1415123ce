/**
 * Front-end diagnostics. Every stage (preprocessor, parser, semantic analysis) collects these
 * instead of throwing, so one bad line does not hide the next. Printed as
 * `file:line:col: error: message`, the form editors and glslang users expect.
 */
export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Path of the original source file (not the includer) the problem is in. */
  file: string;
  line: number;
  column: number;
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some((d) => d.severity === 'error');
}

/** Message for a nesting the recursive parser or code generator could not follow. */
export const TOO_DEEP_MESSAGE = 'statements or expressions nested too deeply for vvision (chains of else-if, ?: or = included)';

/**
 * The message for an exception caught inside the compiler: a stack overflow is the shader's
 * nesting meeting vvision's limit (reported at the construct being compiled); anything else is
 * our bug, an `internal compiler error`.
 */
export function caughtErrorMessage(e: unknown): string {
  if (e instanceof RangeError && /call stack/.test(e.message)) return TOO_DEEP_MESSAGE;
  return `internal compiler error: ${e instanceof Error ? e.message : String(e)}`;
}
