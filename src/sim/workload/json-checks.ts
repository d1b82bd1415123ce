/**
 * Checks on untyped JSON that record a problem instead of throwing: each check returns the value
 * when it has the expected shape and `undefined` otherwise, after pushing one message of the form
 * `<file>: <key path>: <what was expected>, found <what was there>`.
 * Invariant: nothing here throws for any input; a manifest's mistakes become messages.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

export interface JsonChecks {
  /** Display name of the file being checked (as the user named it). */
  readonly file: string;
  /** Directory relative paths are resolved against. */
  readonly baseDir: string;
  readonly problems: string[];
}

export function newJsonChecks(file: string, baseDir: string): JsonChecks {
  return { file, baseDir, problems: [] };
}

export function report(c: JsonChecks, path: string, message: string): void {
  c.problems.push(path ? `${c.file}: ${path}: ${message}` : `${c.file}: ${message}`);
}

/** How a value reads in a message: strings quoted, containers by kind, long text cut. */
export function describeJson(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  const text = JSON.stringify(v);
  return text.length > 40 ? text.slice(0, 37) + '...' : text;
}

export function key(path: string, name: string | number): string {
  if (typeof name === 'number') return `${path}[${name}]`;
  return path ? `${path}.${name}` : name;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function object(c: JsonChecks, v: unknown, path: string): Record<string, unknown> | undefined {
  if (isObject(v)) return v;
  report(c, path, `expected an object, found ${describeJson(v)}`);
  return undefined;
}

export function array(c: JsonChecks, v: unknown, path: string): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  report(c, path, `expected an array, found ${describeJson(v)}`);
  return undefined;
}

export function string(c: JsonChecks, v: unknown, path: string): string | undefined {
  if (typeof v === 'string' && v.length > 0) return v;
  report(c, path, `expected a non-empty string, found ${describeJson(v)}`);
  return undefined;
}

export function boolean(c: JsonChecks, v: unknown, path: string): boolean | undefined {
  if (typeof v === 'boolean') return v;
  report(c, path, `expected true or false, found ${describeJson(v)}`);
  return undefined;
}

export function finiteNumber(c: JsonChecks, v: unknown, path: string): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  report(c, path, `expected a number, found ${describeJson(v)}`);
  return undefined;
}

export function nonNegativeInteger(c: JsonChecks, v: unknown, path: string, min = 0): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= min) return v;
  const what = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer >= ${min}`;
  report(c, path, `expected ${what}, found ${describeJson(v)}`);
  return undefined;
}

export function oneOf<T extends string>(c: JsonChecks, v: unknown, allowed: readonly T[], path: string): T | undefined {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  report(c, path, `expected one of ${allowed.map((a) => `"${a}"`).join(', ')}, found ${describeJson(v)}`);
  return undefined;
}

export function vec3(c: JsonChecks, v: unknown, path: string): [number, number, number] | undefined {
  if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    return [v[0], v[1], v[2]];
  }
  report(c, path, `expected an array of 3 numbers, found ${describeJson(v)}`);
  return undefined;
}

/** Flags keys not in `allowed`: a typo in an optional key would otherwise be silently ignored. */
export function onlyKeys(c: JsonChecks, obj: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) report(c, key(path, k), `unknown key (expected one of ${allowed.join(', ')})`);
  }
}

/** A path relative to the file's directory, resolved to absolute; reports a missing file. */
export function existingFile(c: JsonChecks, v: unknown, path: string): string | undefined {
  const rel = string(c, v, path);
  if (rel === undefined) return undefined;
  const abs = isAbsolute(rel) ? rel : resolve(c.baseDir, rel);
  if (!existsSync(abs) || !statSync(abs).isFile()) {
    report(c, path, `file not found: ${abs}`);
    return undefined;
  }
  return abs;
}

export function existingDirectory(c: JsonChecks, v: unknown, path: string): string | undefined {
  const rel = string(c, v, path);
  if (rel === undefined) return undefined;
  const abs = isAbsolute(rel) ? rel : resolve(c.baseDir, rel);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    report(c, path, `directory not found: ${abs}`);
    return undefined;
  }
  return abs;
}

/** JSON values (for buffer contents): rejects what JSON cannot hold, which only matters for hand-built objects. */
export function isJsonValue(v: unknown): boolean {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJsonValue);
  if (isObject(v)) return Object.values(v).every(isJsonValue);
  return false;
}
