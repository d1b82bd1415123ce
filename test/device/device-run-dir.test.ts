/** The run directory of device runs (src/device/device-run-dir.ts): what the simulator's holds. */
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launchOnDevice } from '../../src/device/device-run.js';
import { saveDeviceInstrumentRun } from '../../src/device/device-run-dir.js';
import { DeviceUnavailableError, listDevices } from '../../src/device/native-host.js';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';

function unavailable(): string | undefined {
  try {
    return listDevices().some((l) => /^\d+:/.test(l)) ? undefined : 'no Vulkan device with ray tracing pipelines';
  } catch (e) {
    if (e instanceof DeviceUnavailableError) return e.message;
    throw e;
  }
}
const why = unavailable();
const deviceTest = why === undefined ? test : test.skip;
if (why !== undefined) {
  test('device run directory (skipped)', (t) => {
    t.log(`skipped: ${why}`);
    t.pass();
  });
}

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
