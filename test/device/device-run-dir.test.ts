// A device run's directory (src/device/device-run-dir.ts) holds what the simulator's does and names
// files as it does: run.json's manifest as folder/workload.json, metadata.json relative to the
// manifest, no file carrying the absolute paths of the machine that wrote it.
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputDir } from '../../src/cli/output-dir.js';
import { saveDeviceInstrumentRun } from '../../src/device/device-run-dir.js';
import { launchOnDevice } from '../../src/device/device-run.js';
import { deviceUnavailable } from './device-available.js';
import { loadRunDir } from '../../src/driver/run-dir.js';
import type { InstrumentationMetadata } from '../../src/primitives/buffer-layout.js';
import { writeHtmlReport } from '../../src/report/write-report.js';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';

const why = deviceUnavailable();
const deviceTest = why === undefined ? test : test.skip;
if (why !== undefined) test('device run directory (skipped)', (t) => t.pass(`skipped: ${why}`));

deviceTest('ref instrumented with simt on the device: no absolute path in any file; read back, the same source pages', async (t) => {
  const launch = await launchOnDevice('ref', BUILTIN_UTILITIES.simt, { repeat: 1, width: 16, height: 16 });
  const out = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vv-device-run-')), 'run'));
  const data = saveDeviceInstrumentRun(out, [{ utility: BUILTIN_UTILITIES.simt, launch }]);
  await writeHtmlReport(out, data);
  const dir = out.commit();
  const root = join(import.meta.dirname, '..', '..');
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile())) {
    t.false(readFileSync(join(e.parentPath, e.name)).toString('latin1').includes(root), e.name);
  }
  t.is(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).manifest, 'ref/workload.json');
  const meta = JSON.parse(readFileSync(join(dir, 'runs', 'simt', 'metadata.json'), 'utf8')) as InstrumentationMetadata;
  t.is(meta.shaders[0]!.sourcePath, 'raygen.rgen');
  const again = loadRunDir(dir);
  const pages = new Map<string, string | Uint8Array>();
  await writeHtmlReport({ write: (name, d) => pages.set(name, d) }, again);
  t.is(pages.get('source/closesthit.rchit.html'), readFileSync(join(dir, 'source', 'closesthit.rchit.html'), 'utf8'));
});

function memoryWriter() {
  const files = new Map<string, string | Uint8Array>();
  return { files, write: (name: string, data: string | Uint8Array) => void files.set(name, data) };
}

deviceTest('a device trace run writes heatmap.png, which its report shows (it was missing)', async (t) => {
  const launch = await launchOnDevice('tri', BUILTIN_UTILITIES.trace, { repeat: 1 });
  const w = memoryWriter();
  const data = saveDeviceInstrumentRun(w, [{ utility: BUILTIN_UTILITIES.trace, launch }]);
  t.truthy(data.heatmap);
  t.true(w.files.has('heatmap.png'));
});

const lumibench = existsSync(join(calibrationDir(), 'lumibench-wknd', 'host-data'));
deviceTest('a device multi-frame run records each measured frame for the frames page (dump figures and trace times)', async (t) => {
  if (!lumibench) {
    t.log('skipped: the LumiBench calibration data is not here');
    t.pass();
    return;
  }
  const launch = await launchOnDevice('lumibench-wknd', BUILTIN_UTILITIES.simt, { frames: 3, firstFrame: 1, width: 8, height: 8, repeat: 1 });
  const w = memoryWriter();
  const data = saveDeviceInstrumentRun(w, [{ utility: BUILTIN_UTILITIES.simt, launch }]);
  const m = data.record.modes[0]!;
  t.is(m.analysedFrame, 2);
  t.deepEqual(m.perFrame!.map((f) => f.frame), [1, 2]);
  for (const f of m.perFrame!) {
    t.true(f.deviceTraceMs! >= 0);
    t.true(f.dumpWords > 0);
    t.true(f.dumpSimtEfficiency! > 0 && f.dumpSimtEfficiency! <= 1);
  }
  t.deepEqual([...w.files.keys()].filter((k) => k.includes('frames/')).sort(),
    ['frames/frame-001.png', 'frames/frame-002.png', 'runs/simt/frames/frame-001.bin', 'runs/simt/frames/frame-002.bin']);
});

deviceTest('--analyse-frame on the device: dump.bin and the analyses are that frame\'s, as in the simulator', async (t) => {
  if (!lumibench) {
    t.log('skipped: the LumiBench calibration data is not here');
    t.pass();
    return;
  }
  const launch = await launchOnDevice('lumibench-wknd', BUILTIN_UTILITIES.simt, { frames: 3, analyseFrame: 1, width: 8, height: 8, repeat: 1 });
  t.is(launch.analysedFrame, 1);
  t.is(launch.dumpBytes, launch.frames![1]!.dumpBytes);
  const w = memoryWriter();
  const data = saveDeviceInstrumentRun(w, [{ utility: BUILTIN_UTILITIES.simt, launch }]);
  t.is(data.record.modes[0]!.analysedFrame, 1);
  t.deepEqual(w.files.get('runs/simt/dump.bin'), w.files.get('runs/simt/frames/frame-001.bin'));
  await t.throwsAsync(() => launchOnDevice('lumibench-wknd', BUILTIN_UTILITIES.simt, { frames: 2, analyseFrame: 5, width: 8, height: 8, repeat: 1 }), { instanceOf: RangeError });
});
