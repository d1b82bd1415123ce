/**
 * Problems of a manifest as messages `<file>: <key path>: <message>`, recorded instead of thrown,
 * and the checks that need the file system. Types and shapes are the schema's (manifest-schema.ts,
 * schema-issues.ts); this file only names places and files.
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

/** A path relative to the file's directory, resolved to absolute; reports a missing file. */
export function existingFile(c: JsonChecks, rel: string, path: string): string | undefined {
  const abs = isAbsolute(rel) ? rel : resolve(c.baseDir, rel);
  if (!existsSync(abs) || !statSync(abs).isFile()) {
    report(c, path, `file not found: ${abs}`);
    return undefined;
  }
  return abs;
}

export function existingDirectory(c: JsonChecks, rel: string, path: string): string | undefined {
  const abs = isAbsolute(rel) ? rel : resolve(c.baseDir, rel);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    report(c, path, `directory not found: ${abs}`);
    return undefined;
  }
  return abs;
}
