/**
 * Writing a case-study bench's tables into its doc (issue 23 item 6): each table goes between the
 * doc's generated-block markers (bench/docs/generated-blocks.ts) with the generator command, the
 * commit of the code its runs were made at, and the date; the doc decides where its blocks go.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { replaceGeneratedBlock } from '../docs/generated-blocks.js';
import { repoRoot } from '../jobs/wknd-runs.js';
import type { CaseResult } from './cached-runs.js';

export function writeDocBlocks(doc: string, generator: string, commit: string, blocks: Record<string, string>): string {
  const path = join(repoRoot, 'docs', doc);
  let text = readFileSync(path, 'utf8');
  for (const [name, body] of Object.entries(blocks)) text = replaceGeneratedBlock(text, name, generator, commit, body);
  writeFileSync(path, text);
  return path;
}

/** 12,345 / 0.123 / 1.23 / '—' for a missing value. */
export function fmt(x: number | undefined, digits?: number): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  if (digits !== undefined) return x.toFixed(digits);
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  return Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(Math.abs(x) >= 1 ? 2 : 3);
}

export const pct = (x: number | undefined, digits = 1): string => (x === undefined || !Number.isFinite(x) ? '—' : `${(100 * x).toFixed(digits)}%`);

/**
 * What the runs cost and the machine they ran on: each simulation's CPU seconds (its own thread),
 * summed, with how many came from the cache, and the load average when the figures were written.
 */
export function costNote(results: CaseResult[]): string {
  const ran = results.filter((r) => !r.cached);
  const cpu = results.reduce((a, r) => a + r.cpuSeconds, 0);
  const wall = results.reduce((a, r) => a + r.wallSeconds, 0);
  return `${results.length} simulations, ${fmt(cpu, 0)} CPU-seconds and ${fmt(wall, 0)} s wall when they ran` +
    `${ran.length < results.length ? ` (${results.length - ran.length} read from the run cache of this commit)` : ''}; ` +
    `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${os.cpus().length} cores when written`;
}
