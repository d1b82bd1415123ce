/** `vvision compare` (src/driver/compare-runs.ts): verdicts per figure, warp sizes respected. */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputDir } from '../../src/cli/output-dir.js';
import { launchOnDevice } from '../../src/device/device-run.js';
import { saveDeviceInstrumentRun } from '../../src/device/device-run-dir.js';
import { DeviceUnavailableError, listDevices } from '../../src/device/native-host.js';
import { compareRuns } from '../../src/driver/compare-runs.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { saveInstrumentRun } from '../../src/driver/run-dir.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';

function deviceMissing(): boolean {
  try {
    return !listDevices().some((l) => /^\d+:/.test(l));
  } catch (e) {
    if (e instanceof DeviceUnavailableError) return true;
    throw e;
  }
}

async function simulatorRun(dir: string): Promise<string> {
  const out = new OutputDir(join(dir, 'sim'));
  saveInstrumentRun(out, await instrumentWorkload('tri', 'its'));
  return out.commit();
}

test('ITS exit/entry of two runs at one warp size: a verdict', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-compare-'));
  try {
    const a = await simulatorRun(dir);
    const c = compareRuns(a, a);
    const its = c.figures.find((f) => f.figure.startsWith('ITS exit/entry'))!;
    t.is(its.verdict, 'equal');
    t.is(its.note, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

(deviceMissing() ? test.skip : test)('ITS exit/entry of 8-lane device warps against 32-lane simulated ones: not comparable, saying why', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-compare-'));
  try {
    const a = await simulatorRun(dir);
    const launch = await launchOnDevice('tri', BUILTIN_UTILITIES.its, { repeat: 1 });
    if (launch.info.ranSubgroupSize === 32) {
      t.log('the device runs 32-lane subgroups: nothing to check');
      t.pass();
      return;
    }
    const out = new OutputDir(join(dir, 'dev'));
    saveDeviceInstrumentRun(out, [{ utility: BUILTIN_UTILITIES.its, launch }]);
    const c = compareRuns(a, out.commit());
    const its = c.figures.find((f) => f.figure.startsWith('ITS exit/entry'))!;
    t.is(its.verdict, 'not comparable');
    t.regex(its.note!, /warp sizes 32 and \d+/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
