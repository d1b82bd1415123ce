// A device run's directory (src/device/device-run-dir.ts) names files as the simulator's does:
// run.json's manifest as folder/workload.json, metadata.json relative to the manifest, no file
// carrying the absolute paths of the machine that wrote it.
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputDir } from '../../src/cli/output-dir.js';
import { saveDeviceInstrumentRun } from '../../src/device/device-run-dir.js';
import { launchOnDevice } from '../../src/device/device-run.js';
import { DeviceUnavailableError, listDevices } from '../../src/device/native-host.js';
import { loadRunDir } from '../../src/driver/run-dir.js';
import type { InstrumentationMetadata } from '../../src/primitives/buffer-layout.js';
import { writeHtmlReport } from '../../src/report/write-report.js';
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
