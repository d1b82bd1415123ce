/**
 * Data files a manifest names (buffer contents, BLAS inputs, raw textures): read whole, and
 * gunzipped when the name ends in `.gz`, so large real-application dumps can stay compressed
 * where they are (e.g. `b4_vertices.bin.gz` of the LumiBench host data).
 * Invariant: the bytes returned are exactly what the host would upload; a corrupt .gz is a
 * ManifestError naming the manifest key, never a zlib exception.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ManifestError } from './manifest.js';

/** `x.bin`, `x.bin.gz`: raw little-endian bytes. */
export const RAW_DATA_FILE = /\.bin(\.gz)?$/i;
/** `x.json`, `x.json.gz`: a JSON value. */
export const JSON_DATA_FILE = /\.json(\.gz)?$/i;

/** The file's bytes, decompressed when it is gzip'd. `path` is the manifest key, for errors. */
export function readDataFile(file: string, path: string): Uint8Array {
  const bytes = readFileSync(file);
  if (!/\.gz$/i.test(file)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const raw = gunzipSync(bytes);
    return new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  } catch (e) {
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
