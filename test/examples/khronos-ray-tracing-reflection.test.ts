// Khronos Vulkan-Samples' ray_tracing_reflection, shaders unmodified
// (examples/apps/khronos-ray-tracing-reflection): three models in buffers no descriptor binds,
// reached through a `_scene_desc { ObjBuffers i[]; }` array of device addresses given as a JSON
// array, BLASes built from those buffers, shadow rays with miss index 1, reflections from the
// raygen loop.
import test from 'ava';
import { join, resolve } from 'node:path';
import { prepareRun, runWorkload } from '../../src/driver/run-workload.js';
import { readTexel } from '../../src/sim/functional/images.js';

const MANIFEST = join(resolve(import.meta.dirname, '../../examples/apps/khronos-ray-tracing-reflection'), 'workload.json');

test('renders the two cubes, the floor with their shadows and the mirrors at 32x18', async (t) => {
  const r = await runWorkload(MANIFEST, { width: 32, height: 18 });
  const px = new Float64Array(4);
  const rgb = (x: number, y: number): number[] => {
    px.fill(0);
    readTexel(r.image!, 0, x, y, 0, 0, px);
    return [px[0]!, px[1]!, px[2]!];
  };
  // The cubes' front faces (+Z, material 4: cyan) left and right of the centre, at mid height.
  const cyan = (c: number[]) => c[1]! > 0.5 && Math.abs(c[1]! - c[2]!) < 0.05 && c[0]! < 0.6 * c[1]!;
  t.true(cyan(rgb(7, 8)), `left cube ${rgb(7, 8)}`);
  t.true(cyan(rgb(24, 8)), `right cube ${rgb(24, 8)}`);
  // The floor below is grey; the background miss colour (0.3) is nowhere: the mirrors and floor fill the frame.
  const [fr, fg, fb] = rgb(16, 16);
  t.true(Math.abs(fr! - fg!) < 0.02 && Math.abs(fg! - fb!) < 0.02 && fr! > 0.05, `floor ${[fr, fg, fb]}`);
  // Shadow rays (miss index 1) and reflected rays from the loop: more rays than pixels.
  t.true(r.rt.rays > 32 * 18 * 2, `rays ${r.rt.rays}`);
});

test('binding 3 holds one ObjBuffers of four addresses per model, each the address of that model\'s buffer', async (t) => {
  const p = await prepareRun(MANIFEST, { width: 8, height: 8 });
  const desc = p.host.resources.buffers!.find((b) => b.set === 0 && b.binding === 3)!;
  const view = new DataView(desc.data.buffer, desc.data.byteOffset, desc.data.byteLength);
  const memory = p.host.resources.memory!;
  const names = ['cube', 'plane', 'mirror'].flatMap((m) => ['vertices', 'indices', 'materials', 'matIndices'].map((b) => `${m}.${b}`));
  names.forEach((name, k) => {
    const at = Number(view.getBigUint64(k * 8, true));
    t.is(memory.find((x) => x.label === name)?.address, at, name);
  });
});
