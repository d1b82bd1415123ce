/**
 * Reads a `.spv` file from disk into an IR module: the bytes, plus the text of source files the
 * module names but does not embed (glslang's `-g` embeds only the main file; #included files are
 * looked up as named, then beside the `.spv`, then beside the main source).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Module } from '../../ir/module.js';
import { readSpirv } from './read-module.js';
import { SpirvReadError } from './spirv-words.js';

export function isSpirvPath(path: string): boolean {
  return path.toLowerCase().endsWith('.spv');
}

export function readSpirvFile(path: string): Module {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch {
    throw new SpirvReadError(path, undefined, 'cannot open file');
  }
  const tried: string[] = [];
  let mainDir: string | undefined;
  const readSourceText = (p: string): string | undefined => {
    const candidates = isAbsolute(p) ? [p] : [p, join(dirname(path), p), ...(mainDir ? [join(mainDir, p)] : [])];
    for (const c of candidates) {
      tried.push(c);
      if (existsSync(c)) {
        try {
          const text = readFileSync(c, 'utf8');
          mainDir ??= dirname(c);
          return text;
        } catch {
          // unreadable: try the next place
        }
      }
    }
    return undefined;
  };
  const m = readSpirv(path, bytes, { readSourceText });
  // The main source's directory (when found on disk) helps resolve the includes named after it.
  if (m.sources[0] && !mainDir) {
    const p = m.sources[0].path;
    for (const c of isAbsolute(p) ? [p] : [p, join(dirname(path), p)]) if (existsSync(c)) mainDir = dirname(c);
  }
  // A module without OpSource is named by the .spv itself: that has no source text to read.
  for (const s of m.sources) if (s.text === '' && s.path !== path) s.text = readSourceText(s.path) ?? '';
  return m;
}
