/**
 * A unit of parallel work as data: one timing simulation, described completely by a JSON spec
 * (workload, GPU config, knob overrides, run options, and for Zatel the traced pixels), named by
 * the hash of its content. Sweeps and Zatel write their points / groups as specs; any backend
 * (worker threads here, a cluster later) runs a spec and leaves its result beside it, so a point
 * whose result exists is never rerun and any point can be rerun alone.
 *
 * Invariants: a spec holds no absolute path that the run did not give (built-in workload and
 * preset names stay names; files are resolved to absolute paths by the caller, so a spec means the
 * same thing from any working directory); the id depends on the content only, not on key order.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { PRESETS } from '../../sim/timing/index.js';
import type { RunOptions } from '../run-workload.js';

/** The run options a job may carry (the JSON-able subset of RunOptions). */
export const JOB_RUN_OPTION_KEYS = ['width', 'height', 'spp', 'bounces', 'seed', 'mapping', 'fcc', 'its', 'itsPolicy', 'floatModel', 'push', 'frames', 'firstFrame'] as const;
export type JobRunOptions = Pick<RunOptions, (typeof JOB_RUN_OPTION_KEYS)[number]>;

/** The JSON-able run options of a RunOptions-like object (what a job spec may carry). */
export function jobRunOptions(o: JobRunOptions & Record<string, unknown>): JobRunOptions {
  const out: JobRunOptions = {};
  for (const k of JOB_RUN_OPTION_KEYS) {
    if (o[k] !== undefined) (out as Record<string, unknown>)[k] = o[k];
  }
  return out;
}

export interface SimJobSpec {
  kind: 'sim';
  /** Built-in workload name or absolute path of a workload.json. */
  workload: string;
  /** Preset name or absolute path of a gpgpusim.config file. */
  config: string;
  /** `key=value` knob overrides, applied in order. */
  overrides: string[];
  run: JobRunOptions;
  /** Zatel: the traced launch threads, a bit mask (bit i = thread-work id i) as base64 of little-endian u32 words. */
  pixelMask?: string;
}

/** JSON with object keys sorted at every level: the same content gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The job's id: 16 hex digits of the SHA-256 of its canonical JSON. */
export function jobId(spec: SimJobSpec): string {
  return createHash('sha256').update(canonicalJson(spec)).digest('hex').slice(0, 16);
}

export function encodePixelMask(words: Uint32Array): string {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((w, i) => view.setUint32(4 * i, w, true));
  return Buffer.from(bytes).toString('base64');
}

export function decodePixelMask(text: string): Uint32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) throw new Error(`pixel mask of ${bytes.length} bytes is not a whole number of 32-bit words`);
  const words = new Uint32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(4 * i, true);
  return words;
}

/** A workload argument as a job names it: built-in names stay names, paths become absolute. */
export function jobWorkload(nameOrPath: string): string {
  const looksLikePath = nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json') || isAbsolute(nameOrPath);
  return looksLikePath ? resolve(nameOrPath) : nameOrPath;
}

/** A config argument as a job names it: preset names stay names, files become absolute paths. */
export function jobConfig(presetOrPath: string): string {
  return (PRESETS as readonly string[]).includes(presetOrPath) ? presetOrPath : resolve(presetOrPath);
}
