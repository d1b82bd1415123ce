import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { layOutNirPayloadStores, payloadStoresAsNir } from '../../../bench/jobs/nir-payload-stores.js';
import { runWorkload } from '../../../src/driver/run-workload.js';
import { calibrationDir } from '../../../src/sim/workload/load-manifest.js';

const SPHERE_HIT = [
  'void main()',
  '{',
  '\tconst vec3 normal = vec3(0, 1, 0);',
  '\tRay = Scatter(material, gl_WorldRayDirectionEXT, normal, texCoord, gl_HitTEXT, Ray.RandomSeed);',
  '\tRay.SurfaceNormal = normal;',
  '}',
  '',
].join('\n');

test('the struct store takes the copied-out seed and the sphere\'s second store of the same normal goes', (t) => {
  t.is(
    payloadStoresAsNir(SPHERE_HIT),
    [
      'void main()',
      '{',
      '\tconst vec3 normal = vec3(0, 1, 0);',
      '\tuint seed_ = Ray.RandomSeed;',
      '\tRayPayload p_ = Scatter(material, gl_WorldRayDirectionEXT, normal, texCoord, gl_HitTEXT, seed_);',
      '\tRay = p_;',
      '}',
      '',
    ].join('\n'),
  );
});

test('a normal Scatter was not given is stored again; a shader without the pattern is left alone', (t) => {
  const other = SPHERE_HIT.replace('normal, texCoord', 'v0.Normal, texCoord');
  t.true(payloadStoresAsNir(other)!.includes('\tRay.SurfaceNormal = normal;'));
  t.is(payloadStoresAsNir('void main() { Ray.ColorAndDistance = vec4(0); }'), undefined);
});

const cal = calibrationDir();
const available = existsSync(join(cal, 'lumibench-wknd', 'shaders', 'RayTracing.Procedural.rchit'));

// Serial: the frame is read through VVISION_CALIBRATION_DIR, which the runs below set in turn.
test.serial('the rewritten frame renders the same image with fewer payload stores', async (t) => {
  if (!available) {
    t.log(`skipped: ${join(cal, 'lumibench-wknd')} not found`);
    t.pass();
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'vv-nirstores-'));
  const before = process.env.VVISION_CALIBRATION_DIR;
  try {
    const rewritten = layOutNirPayloadStores(cal, dir);
    t.true(rewritten.includes('RayTracing.Procedural.rchit') && rewritten.includes('RayTracing.rchit'));
    t.true(existsSync(join(dir, 'lumibench-wknd', 'host-data')), 'host data linked');
    t.false(readFileSync(join(dir, 'lumibench-wknd', 'shaders', 'RayTracing.Procedural.rchit'), 'utf8').includes('Ray.SurfaceNormal'));
    const run = { width: 8, height: 8, spp: 1 };
    process.env.VVISION_CALIBRATION_DIR = cal;
    const original = await runWorkload('lumibench-wknd', run);
    process.env.VVISION_CALIBRATION_DIR = dir;
    const nir = await runWorkload('lumibench-wknd', run);
    t.deepEqual(Buffer.from(nir.image!.levels[0]!.data.buffer), Buffer.from(original.image!.levels[0]!.data.buffer));
    const stores = (r: typeof original) => r.counters.memory.rtState.laneAccesses;
    t.true(stores(nir) < stores(original), `${stores(nir)} per-thread state accesses against ${stores(original)}`);
  } finally {
    if (before === undefined) delete process.env.VVISION_CALIBRATION_DIR;
    else process.env.VVISION_CALIBRATION_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  }
});
