/**
 * Decodes an instrumentation buffer dump (`dump.bin`, little-endian u32 words laid out as in
 * `src/primitives/buffer-layout.ts`) into an index of entries, without one object per entry:
 * analyses walk `entryOffsets` / `entrySite` (typed arrays) and read fields from `words`.
 *
 * Invariants of a returned `Dump`:
 * - `entryOffsets[k]` is the word index of entry k's thread_work_id; entries are in buffer order
 *   (the order the atomicAdd on buf[1] reserved them, i.e. chronological per warp).
 * - `entrySite[k] === words[entryOffsets[k] + ENTRY_INST_ID]`, always a valid index into `meta.sites`.
 * - Overflow is an error unless `allowOverflow`; then `overflowed` is set and only the entries that
 *   fit are indexed (an all-zero remainder shorter than the largest entry is the unwritten gap).
 */
import {
  ENTRY_INST_ID,
  FIRST_ENTRY_WORD,
  WARP_ID_COUNT_WORD,
  WORDS_WRITTEN_WORD,
  bufferWordsWithMargin,
  requiredBufferWords,
  type InstrumentationMetadata,
} from '../primitives/buffer-layout.js';

export interface Dump {
  /** The whole buffer, header included. */
  words: Uint32Array;
  /** buf[0]: warps that ran CreateWarpId. */
  warpIdCount: number;
  /** buf[1]: entry words reserved (including those that did not fit). */
  wordsWritten: number;
  /** Whole-buffer words this run would have needed. */
  requiredWords: number;
  capacityWords: number;
  overflowed: boolean;
  entryCount: number;
  entryOffsets: Uint32Array;
  entrySite: Uint32Array;
}

/**
 * The run's instrumentation buffer was too small: the entries past its end were dropped (the
 * shader's bound check skips them, buf[1] still counts their words). `requiredWords` is the exact
 * size that run needed; `rerunWords` the size to rerun with (the same on the deterministic
 * simulator, with a margin on a GPU, whose scheduling may run more invocations next time).
 */
export class InstrumentationBufferTooSmallError extends Error {
  readonly droppedWords: number;

  constructor(readonly requiredWords: number, readonly availableWords: number, readonly rerunWords = requiredWords, droppedEntries?: number) {
    const dropped = requiredWords - availableWords;
    super(
      `instrumentation buffer too small: ${requiredWords} words written, ${availableWords} available ` +
        `(${droppedEntries !== undefined ? `about ${droppedEntries} entries, ` : ''}${dropped} words dropped); ` +
        `rerun with --buffer-size ${rerunWords}`,
    );
    this.name = 'InstrumentationBufferTooSmallError';
    this.droppedWords = dropped;
  }
}

/** The dump does not match the metadata (wrong metadata.json, truncated or corrupt dump.bin). */
export class DumpFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DumpFormatError';
  }
}

export interface ReadDumpOptions {
  /** Decode the entries that fit instead of throwing InstrumentationBufferTooSmallError. */
  allowOverflow?: boolean;
}

/** Views (or copies, when unaligned) the bytes as little-endian u32 words. */
function asWords(bytes: Uint8Array): Uint32Array {
  if (bytes.byteLength % 4 !== 0) {
    throw new DumpFormatError(`dump is ${bytes.byteLength} bytes, not a whole number of 32-bit words`);
  }
  if (bytes.byteLength < FIRST_ENTRY_WORD * 4) {
    throw new DumpFormatError(`dump is ${bytes.byteLength} bytes, shorter than the ${FIRST_ENTRY_WORD}-word header`);
  }
  const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (littleEndianHost && bytes.byteOffset % 4 === 0) {
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

export function readDump(bytes: Uint8Array, meta: InstrumentationMetadata, opts: ReadDumpOptions = {}): Dump {
  return readDumpWords(asWords(bytes), meta, opts);
}

/** Same as `readDump` for a buffer already in words (the simulator's own Uint32Array). */
export function readDumpWords(words: Uint32Array, meta: InstrumentationMetadata, opts: ReadDumpOptions = {}): Dump {
  const capacityWords = words.length;
  const wordsWritten = words[WORDS_WRITTEN_WORD]!;
  const requiredWords = requiredBufferWords(wordsWritten);
  const overflowed = requiredWords > capacityWords;
  if (overflowed && !opts.allowOverflow) throw new InstrumentationBufferTooSmallError(requiredWords, capacityWords);

  const siteCount = meta.sites.length;
  const sizeOf = new Uint32Array(siteCount);
  for (let s = 0; s < siteCount; s++) {
    const site = meta.sites[s]!;
    if (site.id !== s) throw new DumpFormatError(`metadata site at index ${s} has id ${site.id}; ids must equal indices`);
    sizeOf[s] = site.entryWords;
  }

  const end = Math.min(requiredWords, capacityWords);
  // Upper bound on entries: every entry has at least the 2 header words.
  let offsets = new Uint32Array(Math.max(0, (end - FIRST_ENTRY_WORD) >> 1));
  let sites = new Uint32Array(offsets.length);
  let n = 0;
  let at = FIRST_ENTRY_WORD;
  // After an overflow the words between the last entry that fitted and the end of the buffer were
  // never written (they are shorter than the entry that did not fit): an all-zero tail is not data.
  let tailZeroFrom = end;
  if (overflowed) while (tailZeroFrom > FIRST_ENTRY_WORD && words[tailZeroFrom - 1] === 0) tailZeroFrom--;
  let maxEntry = 0;
  for (let s = 0; s < siteCount; s++) if (sizeOf[s]! > maxEntry) maxEntry = sizeOf[s]!;
  while (at < end) {
    if (overflowed && at >= tailZeroFrom && end - at < maxEntry) break;
    if (at + ENTRY_INST_ID >= end) {
      if (overflowed) break;
      throw new DumpFormatError(`truncated entry header at word ${at} (entries end at word ${end})`);
    }
    const site = words[at + ENTRY_INST_ID]!;
    if (site >= siteCount) {
      throw new DumpFormatError(
        `entry at word ${at} has inst id ${site}, but the metadata has ${siteCount} sites (is metadata.json from the same run?)`,
      );
    }
    const size = sizeOf[site]!;
    if (at + size > end) {
      // An overflowing run stops writing at the first entry that does not fit; a complete run must end exactly.
      if (overflowed) break;
      throw new DumpFormatError(`entry at word ${at} (inst id ${site}, ${size} words) runs past the written end at word ${end}`);
    }
    offsets[n] = at;
    sites[n] = site;
    n++;
    at += size;
  }
  offsets = offsets.subarray(0, n);
  sites = sites.subarray(0, n);
  return {
    words,
    warpIdCount: words[WARP_ID_COUNT_WORD]!,
    wordsWritten,
    requiredWords,
    capacityWords,
    overflowed,
    entryCount: n,
    entryOffsets: offsets,
    entrySite: sites,
  };
}

/**
 * Reads a dump saved in a run directory, which holds exactly the words the run wrote (header +
 * `buf[1]` entry words, never an overflowed buffer), and checks it against itself and its metadata
 * before any analysis sees it (`bufferWords`: the size of the buffer the run bound, from run.json;
 * a file of exactly that size whose header counts more is an overflowed buffer saved whole, reported
 * as InstrumentationBufferTooSmallError with the entries dropped and the size to rerun with): the header against the file size, every entry's inst id and size
 * against the metadata, and every CreateWarpId entry's warp id against the header's warp counter.
 * Anything inconsistent is a DumpFormatError that says what does not agree: a saved dump that
 * disagrees was truncated, overwritten or paired with another run's metadata.json, and advice
 * to rerun with a bigger buffer would be wrong.
 */
export function readSavedDump(bytes: Uint8Array, meta: InstrumentationMetadata, bufferWords?: number): Dump {
  const words = asWords(bytes);
  const wordsWritten = words[WORDS_WRITTEN_WORD]!;
  const expectedWords = requiredBufferWords(wordsWritten);
  if (expectedWords > words.length && bufferWords === words.length) {
    // A whole buffer that overflowed (a device run saves it whole): entries that fit must parse.
    const kept = readDumpWords(words, meta, { allowOverflow: true });
    const used = kept.entryCount === 0 ? 0 : kept.entryOffsets[kept.entryCount - 1]! + meta.sites[kept.entrySite[kept.entryCount - 1]!]!.entryWords - FIRST_ENTRY_WORD;
    const perEntry = kept.entryCount === 0 ? 0 : used / kept.entryCount;
    const droppedEntries = perEntry === 0 ? undefined : Math.round((expectedWords - words.length) / perEntry);
    throw new InstrumentationBufferTooSmallError(expectedWords, words.length, bufferWordsWithMargin(expectedWords), droppedEntries);
  }
  if (expectedWords !== words.length) {
    throw new DumpFormatError(
      `its header says ${wordsWritten} entry words were written (a file of ${expectedWords * 4} bytes), but the file has ${bytes.byteLength} bytes`,
    );
  }
  const dump = readDumpWords(words, meta);
  const warpIdField = new Int32Array(meta.sites.length).fill(-1);
  for (const site of meta.sites) if (site.primitive === 'CreateWarpId') warpIdField[site.id] = site.fields.indexOf('warp_id');
  for (let k = 0; k < dump.entryCount; k++) {
    const field = warpIdField[dump.entrySite[k]!]!;
    if (field < 0) continue;
    const warpId = words[dump.entryOffsets[k]! + field]!;
    if (warpId >= dump.warpIdCount) {
      throw new DumpFormatError(
        `entry at word ${dump.entryOffsets[k]} (inst id ${dump.entrySite[k]}) has warp id ${warpId}, but the header's warp counter is ${dump.warpIdCount}`,
      );
    }
  }
  return dump;
}
