// The device bundle builds declared BLASes whose inputs name a buffer (`{"buffer": "vertices"}`)
// from the bytes the host packed for the shaders, as the simulator does (examples/apps/sascha-
// raytracingreflections: vertex pulling at the glTF loader's 96-byte stride, one BLAS over them).
import test from 'ava';
import { join, resolve } from 'node:path';
import { launchOnDevice } from '../../src/device/device-run.js';
import { deviceUnavailable } from './device-available.js';
import { runWorkload } from '../../src/driver/run-workload.js';

const why = deviceUnavailable();
const deviceTest = why === undefined ? test : test.skip;
if (why !== undefined) test('device bundle (skipped)', (t) => t.pass(`skipped: ${why}`));

const APP = join(resolve(import.meta.dirname, '../../examples/apps/sascha-raytracingreflections'), 'workload.json');

deviceTest('BLAS inputs from named buffers: the device frame equals the simulator\'s byte for byte', async (t) => {
  const dev = await launchOnDevice(APP, undefined, { repeat: 1, width: 32, height: 24 });
  const sim = await runWorkload(APP, { width: 32, height: 24 });
  const a = sim.image!.levels[0]!.data;
  const b = dev.image!.levels[0]!.data;
  t.deepEqual(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
});
