/**
 * Reading a saved run directory back (`vvision report`): a damaged dump.bin is reported as
 * corrupt, naming what is inconsistent, never as a buffer size to rerun with.
 */
import test from 'ava';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { loadRunDir, saveInstrumentRun } from '../../src/driver/run-dir.js';

async function savedRun(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'vv-rundir-'));
  const r = await instrumentWorkload('tri', 'simt', { width: 16, height: 8 });
  saveInstrumentRun({ write: (rel: string, data: string | Uint8Array) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), data);
  } }, r);
  return dir;
}

test('a saved run reads back; a dump whose header disagrees with its size is corrupt', async (t) => {
  const dir = await savedRun();
  t.truthy(loadRunDir(dir).results);
  const path = join(dir, 'runs', 'simt', 'dump.bin');
  const bytes = readFileSync(path);
  bytes.writeUInt32LE(1691205708, 4);
  writeFileSync(path, bytes);
  const e = t.throws(() => loadRunDir(dir));
  t.regex(e!.message, /dump\.bin is corrupt: its header says 1691205708 entry words were written, but the file holds \d+/);
  t.notRegex(e!.message, /buffer-size/);
});

test('random entries in a dump with a plausible header are corrupt: inst id out of range', async (t) => {
  const dir = await savedRun();
  const path = join(dir, 'runs', 'simt', 'dump.bin');
  const bytes = readFileSync(path);
  for (let i = 8; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
  writeFileSync(path, bytes);
  const e = t.throws(() => loadRunDir(dir));
  t.regex(e!.message, /dump\.bin is corrupt: entry at word \d+ has inst id \d+, but the metadata has \d+ sites/);
});
