/**
 * Data files a manifest names (buffer contents, BLAS inputs, raw textures): read whole, and
 * gunzipped when the name ends in `.gz`, so large real-application dumps can stay compressed
 * where they are (e.g. `b4_vertices.bin.gz` of the LumiBench host data).
 * Invariant: the bytes returned are exactly what the host would upload; a corrupt .gz is a
 * ManifestError naming the manifest key, never a zlib exception.
 *
 * Size: at most MAX_DATA_FILE_BYTES, checked before reading a plain file and while inflating a
 * gzip'd one (zlib stops at the limit: a 2 MB .gz of 2 GiB of zeros is refused after 1 GiB of
 * output, never unpacked whole).
 */
import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ManifestError } from './manifest.js';

/** `x.bin`, `x.bin.gz`: raw little-endian bytes. */
export const RAW_DATA_FILE = /\.bin(\.gz)?$/i;
/** `x.json`, `x.json.gz`: a JSON value. */
export const JSON_DATA_FILE = /\.json(\.gz)?$/i;

/**
 * Bytes of one data file after decompression: 1 GiB, a hundred times the largest real input here
 * (LumiBench WKND's vertex buffer, 9.8 MB). The simulator holds every buffer in memory.
 */
export const MAX_DATA_FILE_BYTES = 2 ** 30;

/** The file's bytes, decompressed when it is gzip'd. `path` is the manifest key, for errors. */
export function readDataFile(file: string, path: string, maxBytes = MAX_DATA_FILE_BYTES): Uint8Array {
  const tooLarge = (what: string) =>
    new ManifestError([`${path}: ${file} ${what} more than ${maxBytes} bytes, vvision's limit for one data file (MAX_DATA_FILE_BYTES)`]);
  const gz = /\.gz$/i.test(file);
  if (!gz && statSync(file).size > maxBytes) throw tooLarge('holds');
  const bytes = readFileSync(file);
  if (!gz) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const raw = gunzipSync(bytes, { maxOutputLength: maxBytes });
    return new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('decompresses to');
    throw new ManifestError([`${path}: ${file} is not a valid gzip file (${(e as Error).message})`]);
  }
}

/** A JSON data file (optionally gzip'd), parsed. */
export function readJsonDataFile(file: string, path: string): unknown {
  const text = new TextDecoder().decode(readDataFile(file, path));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ManifestError([`${path}: ${file} is not valid JSON: ${(e as Error).message}`]);
  }
}
