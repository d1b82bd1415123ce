/**
 * Data files (src/sim/workload/data-file.ts): plain and gzip'd bytes, JSON, and the size limit,
 * checked before reading a plain file and while inflating a .gz (a gzip bomb stops at the limit).
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MAX_DATA_FILE_BYTES, readDataFile, readJsonDataFile } from '../../../src/sim/workload/data-file.js';
import { ManifestError } from '../../../src/sim/workload/manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'vv-data-file-'));
const file = (name: string, bytes: Uint8Array) => {
  writeFileSync(join(dir, name), bytes);
  return join(dir, name);
};

test('plain and gzip\'d files give the same bytes; JSON parses', (t) => {
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i & 0xff);
  t.deepEqual(readDataFile(file('a.bin', bytes), 'k'), bytes);
  t.deepEqual(readDataFile(file('a.bin.gz', gzipSync(bytes)), 'k'), bytes);
  t.deepEqual(readJsonDataFile(file('a.json.gz', gzipSync(Buffer.from('{"x": [1, 2]}'))), 'k'), { x: [1, 2] });
});

test('a .gz inflating past the limit is refused once the limit is reached, naming the key and the limit', (t) => {
  // 16 MiB of zeros in a 16 KB .gz against a 1 MiB limit: zlib stops after 1 MiB of output.
  const bomb = file('zeros.bin.gz', gzipSync(new Uint8Array(16 << 20)));
  const e = t.throws(() => readDataFile(bomb, 'w.json: descriptors[3].data', 1 << 20), { instanceOf: ManifestError });
  t.is(e!.message, `w.json: descriptors[3].data: ${bomb} decompresses to more than 1048576 bytes, vvision's limit for one data file (MAX_DATA_FILE_BYTES)`);
  t.is(readDataFile(bomb, 'k', 16 << 20).byteLength, 16 << 20);
});

test('a plain file past the limit is refused before it is read', (t) => {
  const big = file('big.bin', new Uint8Array(4096));
  t.throws(() => readDataFile(big, 'k', 4095), { instanceOf: ManifestError, message: /big\.bin holds more than 4095 bytes/ });
  t.is(readDataFile(big, 'k', 4096).byteLength, 4096);
});

test('the default limit is 1 GiB and a corrupt .gz is still a ManifestError', (t) => {
  t.is(MAX_DATA_FILE_BYTES, 2 ** 30);
  t.throws(() => readDataFile(file('bad.bin.gz', Uint8Array.of(1, 2, 3)), 'k'), { instanceOf: ManifestError, message: /is not a valid gzip file/ });
});
