// Sascha Willems' raytracingpositionfetch, shaders unmodified (examples/apps/sascha-raytracingpositionfetch):
// gl_HitTriangleVertexPositionsEXT from GLSL and from the sample's own glslang SPIR-V give the same frame.
import test from 'ava';
import { join, resolve } from 'node:path';
import { runWorkload } from '../../src/driver/run-workload.js';

const APP = resolve(import.meta.dirname, '../../examples/apps/sascha-raytracingpositionfetch');

test('the GLSL shaders and the sample\'s SPIR-V render the same frame; the floor and the model are lit', async (t) => {
  const glsl = await runWorkload(join(APP, 'workload.json'), { width: 32, height: 18 });
  const spirv = await runWorkload(join(APP, 'workload.spirv.json'), { width: 32, height: 18 });
  const a = glsl.image!.levels[0]!.data;
  const b = spirv.image!.levels[0]!.data;
  t.deepEqual(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  // Hits are shaded 0.1 + diffuse (grey), misses are the miss shader's (0, 0, 0.2).
  const px = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let grey = 0;
  for (let i = 0; i < 32 * 18; i++) if (px[4 * i] === px[4 * i + 2] && px[4 * i]! > 20) grey++;
  t.true(grey > 32 * 4, `${grey} lit pixels`);
  t.is(glsl.rt.rays, 32 * 18);
});
