/**
 * Errors the functional core raises for mistakes a shader author or workload writer can make
 * (infinite loops, out-of-bounds accesses, missing resources, unsupported IR). Every error carries
 * the shader location (`file:line:col`) and, when it happened in a lane, the lane and launch
 * thread, so the message reads like Vulkan GPU-assisted validation instead of a JS stack trace.
 */
import type { Loc } from '../../ir/inst.js';
import type { Module } from '../../ir/module.js';

export type SimErrorKind =
  | 'watchdog'
  | 'outOfBounds'
  | 'recursion'
  | 'resource'
  | 'unsupported'
  | 'rtRuntime'
  | 'internal';

/** A static program point an error or printf can name: the instruction's function and source position. */
export interface Site {
  /** Source path (Module.sources[loc.file].path) or '<unknown>'. */
  file: string;
  line: number;
  column: number;
  /** Name of the IR function (shader entry or helper) the instruction is in. */
  fn: string;
}

export function siteOf(m: Module, fnName: string, loc: Loc): Site {
  const src = m.sources[loc.file];
  return { file: src ? src.path : '<unknown>', line: loc.line, column: loc.column, fn: fnName };
}

export function formatSite(s: Site): string {
  return `${s.file}:${s.line}:${s.column}`;
}

export class SimError extends Error {
  readonly kind: SimErrorKind;
  readonly site?: Site;
  readonly lane?: number;
  readonly thread?: number;

  /** The message becomes `<message> at file:line:col lane L (thread T)`; `suffix` follows the location. */
  constructor(kind: SimErrorKind, message: string, where: { site?: Site; lane?: number; thread?: number; suffix?: string } = {}) {
    const at = where.site ? ` at ${formatSite(where.site)}` : '';
    const lane = where.lane !== undefined ? ` lane ${where.lane}` : '';
    const thread = where.thread !== undefined ? ` (thread ${where.thread})` : '';
    super(`${message}${at}${lane}${thread}${where.suffix ?? ''}`);
    this.name = 'SimError';
    this.kind = kind;
    if (where.site) this.site = where.site;
    if (where.lane !== undefined) this.lane = where.lane;
    if (where.thread !== undefined) this.thread = where.thread;
  }
}

/** Re-raises a compile-time error of one instruction with its shader location attached. */
export function locate(e: unknown, site: Site): never {
  if (e instanceof SimError && !e.site) throw new SimError(e.kind, e.message, { site });
  throw e;
}
