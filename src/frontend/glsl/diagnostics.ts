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
