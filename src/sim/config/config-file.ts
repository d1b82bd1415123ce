/**
 * Reader for gpgpusim.config-style text: one `-key value` per line, `#` starts a comment,
 * values may be double-quoted, blank lines are ignored. Also reads `key=value` overrides
 * (`--set`). Keys are checked against the declarations; GPGPU-Sim options without a counterpart
 * here are skipped and reported with the reason; any other unknown key is a ConfigError naming the key, the file
 * and line, and the closest known name.
 *
 * Invariant: the result maps declared parameter names to raw value text; later lines win.
 */
import { ConfigError, closestName } from './config-error.js';
import { IGNORED_GPGPUSIM_KEYS } from './gpgpusim-ignored-keys.js';
import { PARAM_NAMES, findParam } from './params.js';

export interface RawSetting {
  value: string;
  /** Where it came from, for error messages: `file:line` or `--set`. */
  origin: string;
}

export function unknownKeyError(key: string, file?: string, line?: number): ConfigError {
  const near = closestName(key, PARAM_NAMES);
  return new ConfigError(`unknown configuration key "${key}"${near ? ` (did you mean "${near}"?)` : ''}`, key, file, line);
}

/**
 * Reads config text into `into`. GPGPU-Sim options this model does not have (see
 * gpgpusim-ignored-keys.ts) are skipped and listed in `ignored` as `file:line: key`.
 */
export function readConfigText(
  text: string,
  file: string,
  into: Map<string, RawSetting> = new Map(),
  ignored?: string[],
): Map<string, RawSetting> {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = stripComment(lines[i]!).trim();
    // A double-quoted value may continue on the next lines (Vulkan-Sim's gpgpu_dram_timing_opt does).
    while (unbalancedQuote(line) && i + 1 < lines.length) line = `${line}${stripComment(lines[++i]!).trim()}`;
    if (unbalancedQuote(line)) throw new ConfigError('unterminated double-quoted value', undefined, file, lineNo);
    if (line === '') continue;
    const m = /^-?(\S+)\s+(.*)$/.exec(line);
    if (!m) throw new ConfigError(`expected "-key value", got "${line}"`, undefined, file, lineNo);
    const key = m[1]!;
    const value = unquote(m[2]!.trim());
    if (!findParam(key)) {
      const reason = IGNORED_GPGPUSIM_KEYS.get(key);
      if (reason !== undefined) {
        ignored?.push(`${file}:${lineNo}: ${key}: ${reason}`);
        continue;
      }
      throw unknownKeyError(key, file, lineNo);
    }
    into.set(key, { value, origin: `${file}:${lineNo}` });
  }
  return into;
}

/** Applies `key=value` overrides (leading dashes on the key are tolerated). */
export function applyOverrides(overrides: readonly string[], into: Map<string, RawSetting>): Map<string, RawSetting> {
  for (const o of overrides) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw new ConfigError(`--set expects key=value, got "${o}"`, o);
    const key = o.slice(0, eq).trim().replace(/^-+/, '');
    if (!findParam(key)) throw unknownKeyError(key);
    into.set(key, { value: unquote(o.slice(eq + 1).trim()), origin: '--set' });
  }
  return into;
}

function stripComment(line: string): string {
  let inQuote = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') inQuote = !inQuote;
    else if (c === '#' && !inQuote) return line.slice(0, i);
  }
  return line;
}

function unbalancedQuote(line: string): boolean {
  return (line.split('"').length - 1) % 2 === 1;
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}
