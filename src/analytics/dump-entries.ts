/**
 * Entry-by-entry access to a dump for analyses written against the metadata rather than the
 * built-in site kinds (user utilities): each entry's site, thread-work id, launch pixel and
 * payload, the payload decoded by the site's `payloadTypes` (u32, i32, f32 bits, bool).
 *
 * Invariant: entries come in buffer order (per warp chronological), exactly those `readDump`
 * indexed; nothing is copied until an entry is asked for.
 */
import { ENTRY_PAYLOAD, ENTRY_THREAD_WORK_ID, type InstrumentationMetadata, type PayloadType, type SiteMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';

export interface DumpEntry {
  /** The site (its metadata: kind, fields, payload types, location). */
  site: SiteMetadata;
  threadWorkId: number;
  /** Payload words decoded by the site's payload types, in `site.fields` order after the header. */
  payload: number[];
  /** Payload by field name. */
  values: Record<string, number>;
}

/** Launch coordinates of a thread-work id (x + w * (y + h * z), src/primitives/thread-work-id.ts). */
export function launchPixel(threadWorkId: number, launch: { width: number; height: number }): { x: number; y: number; z: number } {
  const { width, height } = launch;
  return { x: threadWorkId % width, y: Math.floor(threadWorkId / width) % height, z: Math.floor(threadWorkId / (width * height)) };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function decodePayloadWord(word: number, type: PayloadType): number {
  switch (type) {
    case 'u32':
      return word >>> 0;
    case 'i32':
      return word | 0;
    case 'bool':
      return word === 0 ? 0 : 1;
    case 'f32':
      u32[0] = word;
      return f32[0]!;
  }
}

/**
 * The entries of the dump, optionally only those of sites for which `filter` holds (e.g. one
 * kind). `values` is keyed by the payload field names.
 */
export function dumpEntries(dump: Dump, meta: InstrumentationMetadata, filter?: (site: SiteMetadata) => boolean): DumpEntry[] {
  const keep = meta.sites.map((s) => !filter || filter(s));
  const out: DumpEntry[] = [];
  for (let k = 0; k < dump.entryCount; k++) {
    const s = dump.entrySite[k]!;
    if (!keep[s]) continue;
    const site = meta.sites[s]!;
    const at = dump.entryOffsets[k]!;
    const payload: number[] = [];
    const values: Record<string, number> = {};
    for (let f = ENTRY_PAYLOAD; f < site.entryWords; f++) {
      const v = decodePayloadWord(dump.words[at + f]!, site.payloadTypes?.[f - ENTRY_PAYLOAD] ?? 'u32');
      payload.push(v);
      values[site.fields[f]!] = v;
    }
    out.push({ site, threadWorkId: dump.words[at + ENTRY_THREAD_WORK_ID]!, payload, values });
  }
  return out;
}

/** Per-pixel sums over a launch grid (z layers summed), for heatmaps. */
export function perPixel(
  entries: readonly DumpEntry[], launch: { width: number; height: number }, weight: (e: DumpEntry) => number = () => 1,
): Float64Array {
  const pixels = launch.width * launch.height;
  const out = new Float64Array(pixels);
  for (const e of entries) out[e.threadWorkId % pixels]! += weight(e);
  return out;
}
