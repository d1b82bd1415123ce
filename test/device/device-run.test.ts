import test from 'ava';
import { launchOnDevice } from '../../src/device/device-run.js';
import { DeviceUnavailableError, listDevices } from '../../src/device/native-host.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';
import { runWorkload } from '../../src/driver/run-workload.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { ENTRY_THREAD_WORK_ID } from '../../src/primitives/buffer-layout.js';
import type { Dump } from '../../src/analytics/index.js';
import type { InstrumentationMetadata } from '../../src/primitives/buffer-layout.js';

/** Why the device tests cannot run here, or undefined when a ray tracing device is present. */
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
  test('device backend (skipped)', (t) => {
    t.log(`skipped: ${why}`);
    t.pass();
  });
}

function threadKeys(d: Dump, meta: InstrumentationMetadata): Map<string, number> {
  const s = new Map<string, number>();
  for (let k = 0; k < d.entryCount; k++) {
    if (meta.sites[d.entrySite[k]!]!.primitive !== 'ThreadUpdate') continue;
    const key = `${d.entrySite[k]}:${d.words[d.entryOffsets[k]! + ENTRY_THREAD_WORK_ID]}`;
    s.set(key, (s.get(key) ?? 0) + 1);
  }
  return s;
}

deviceTest('tri on the device: the frame equals the simulator\'s byte for byte', async (t) => {
  const dev = await launchOnDevice('tri', undefined, { repeat: 1 });
  const sim = await runWorkload('tri');
  const a = sim.image!.levels[0]!.data;
  const b = dev.image!.levels[0]!.data;
  t.deepEqual(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  t.true(dev.info.medianTraceMs >= 0);
});

deviceTest('its-shapes trace on the device: every thread ran the same blocks as on the simulator', async (t) => {
  const dev = await launchOnDevice('its-shapes', BUILTIN_UTILITIES.trace, { repeat: 1 });
  const sim = (await instrumentWorkload('its-shapes', 'trace')).runs[0]!;
  t.deepEqual([...threadKeys(dev.dump!, dev.metadata!)].sort(), [...threadKeys(sim.dump, sim.metadata)].sort());
  t.is(dev.metadata!.warpSize, dev.info.ranSubgroupSize);
});

deviceTest('SDK: runOnDevice runs the pipeline and its instrumented variant; analyse reads the device dump', async (t) => {
  const { analyse, runOnDevice } = await import('../../src/index.js');
  const plain = await runOnDevice('tri', { width: 32, height: 8, repeat: 1 });
  t.is(plain.workload, 'tri');
  t.deepEqual(plain.dumps, []);
  t.true(plain.device.medianTraceMs >= 0 && plain.image !== undefined);
  const run = await runOnDevice('tri', { width: 32, height: 8, repeat: 1, instrument: ['simt'] });
  t.is(run.dumps.length, 1);
  const simt = analyse(run.dumps[0]!).results.simt!;
  t.true(simt.overall.efficiency > 0 && simt.overall.efficiency <= 1);
});
