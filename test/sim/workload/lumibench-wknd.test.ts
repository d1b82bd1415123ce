/**
 * The real LumiBench WKND frame as a workload (issue 8 part 1): generated from the shared
 * calibration folder, runnable by name, with run parameters written into the UBO members that
 * hold them; a clear error naming the folder when it is absent.
 */
import test from 'ava';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrationDir, listCalibrationWorkloads, loadManifest, resolveWorkload } from '../../../src/sim/workload/load-manifest.js';
import { prepareRun } from '../../../src/driver/run-workload.js';

const available = existsSync(join(calibrationDir(), 'lumibench-wknd', 'host-data'));

test('the workload name resolves to a generated manifest of the real host setup', (t) => {
  if (!available) {
    t.log(`skipped: ${join(calibrationDir(), 'lumibench-wknd')} not found`);
    t.pass();
    return;
  }
  const m = loadManifest(resolveWorkload('lumibench-wknd'));
  t.is(m.accelerationStructures!.blas.length, 487);
  t.is(m.accelerationStructures!.instances.length, 487);
  t.is(m.scene, undefined, 'all geometry is declared; no scene file');
  t.deepEqual(m.hitGroups.map((g) => g.type), ['triangles', 'procedural', 'procedural', 'procedural']);
  const ubo = m.descriptors.find((d) => d.binding === 3)!;
  t.true(ubo.kind === 'uniformBuffer' && ubo.data!.endsWith('ubo_PT.bin') && ubo.members!.Width === '${width}');
  const ao = loadManifest(resolveWorkload('lumibench-wknd-ao'));
  t.true(ao.raygen.endsWith('TraceAO.rgen'));
});

test('--width/--height/--spp/--bounces/--seed reach the UBO members that hold them', async (t) => {
  if (!available) {
    t.pass();
    return;
  }
  const p = await prepareRun('lumibench-wknd', { width: 16, height: 16, spp: 1 });
  t.is(p.host.output!.levels[0]!.width, 16);
  const ubo = p.host.resources.buffers!.find((b) => b.binding === 3)!;
  const words = new Uint32Array(ubo.data.buffer, ubo.data.byteOffset, 80);
  // std140 UniformBufferObject: 4 mat4 (words 0-63), LightPosition, LightRadius, Aperture,
  // FocusDistance, HeatmapScale, TotalNumberOfSamples (word 71), NumberOfSamples, NumberOfBounces,
  // NumberOfShadows (74, untouched: 16 in the dumped PT UBO), RandomSeed, Width (76), Height (77).
  t.deepEqual([words[71], words[72], words[73], words[74], words[75], words[76], words[77]], [1, 1, 16, 16, 1, 16, 16]);
  const q = await prepareRun('lumibench-wknd', { width: 24, height: 24, spp: 3, bounces: 5, seed: 9 });
  const w2 = new Uint32Array(q.host.resources.buffers!.find((b) => b.binding === 3)!.data.buffer, 0, 80);
  t.deepEqual([w2[71], w2[72], w2[73], w2[75], w2[76], w2[77]], [3, 3, 5, 9, 24, 24]);
});

test('without the calibration folder, the name gives an error naming the folder', (t) => {
  const before = process.env.VVISION_CALIBRATION_DIR;
  process.env.VVISION_CALIBRATION_DIR = mkdtempSync(join(tmpdir(), 'vv-nocal-'));
  try {
    const e = t.throws(() => resolveWorkload('lumibench-wknd'));
    t.regex(e!.message, /lumibench-wknd: the LumiBench calibration data is not at .*vv-nocal-.*lumibench-wknd/);
    t.regex(e!.message, /the npm package does not ship it: it is the `shared\/calibration` folder .* VVISION_CALIBRATION_DIR/);
    const listed = listCalibrationWorkloads();
    t.true(listed.every((w) => !w.installed && /data not installed: the npm package does not ship it/.test(w.description)));
  } finally {
    if (before === undefined) delete process.env.VVISION_CALIBRATION_DIR;
    else process.env.VVISION_CALIBRATION_DIR = before;
  }
});
