// nvpro-samples' ray_tracing__simple, shaders and media unmodified (examples/apps/nvpro-ray-tracing-simple):
// two OBJ models with per-model buffers reached through ObjDesc addresses, textures with txtOffset,
// push constants, a point light with shadow rays, loadModel's pow(2.2) on material colours.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareRun, runWorkload } from '../../src/driver/run-workload.js';
import { readTexel } from '../../src/sim/functional/images.js';

const MANIFEST = join(resolve(import.meta.dirname, '../../examples/apps/nvpro-ray-tracing-simple'), 'workload.json');

test('renders the building on the plane with its shadow; the sky is the clear colour x 0.8', async (t) => {
  const r = await runWorkload(MANIFEST, { width: 32, height: 18 });
  const px = new Float64Array(4);
  const lum = (x: number, y: number): number => {
    px.fill(0);
    readTexel(r.image!, 0, x, y, 0, 0, px);
    return (px[0]! + px[1]! + px[2]!) / 3;
  };
  t.true(Math.abs(lum(31, 0) - 0.8) < 1e-6, `sky ${lum(31, 0)}`);
  // The lit plane in front of the building is brighter than the building's shadow behind it on the right.
  t.true(lum(4, 16) > lum(24, 12), `plane ${lum(4, 16)} vs shadow ${lum(24, 12)}`);
  t.true(r.rt.rays > 32 * 18, 'shadow rays from the closest-hit');
});

test('ObjDesc per model: txtOffset is the model\'s first texture; materials are raised to 2.2', async (t) => {
  const p = await prepareRun(MANIFEST, { width: 8, height: 8 });
  const desc = p.host.resources.buffers!.find((b) => b.set === 1 && b.binding === 1)!;
  const view = new DataView(desc.data.buffer, desc.data.byteOffset, desc.data.byteLength);
  // scalar ObjDesc: int txtOffset, then four uint64 addresses from byte 8 (scalar aligns a uint64 to 8): 40 bytes.
  const textures = p.scene.textures.length;
  t.true(textures >= 6);
  t.is(view.getInt32(0, true), 0);
  t.is(view.getInt32(40, true), textures, 'the plane\'s textures follow the building\'s');
  const memory = p.host.resources.memory!;
  t.is(Number(view.getBigUint64(8, true)), memory.find((m) => m.label === 'vertex_0')!.address);
  t.is(Number(view.getBigUint64(40 + 16, true)), memory.find((m) => m.label === 'index_1')!.address);
  // The plane's one material: its MTL Kd, raised to 2.2 in float.
  const plane = p.scene.materials[p.scene.materials.length - 1]!;
  const mtl = /Kd\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/.exec(readFileSync(join(MANIFEST, '..', 'media', 'plane.mtl'), 'utf8'))!;
  t.deepEqual(plane.kd, [1, 2, 3].map((k) => Math.fround(Number(mtl[k]) ** 2.2)));
});
