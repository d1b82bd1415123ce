// Sascha Willems' raytracingreflections, shaders unmodified (examples/apps/sascha-raytracingreflections):
// a binding-2 uniform block declared without `vertexSize` by the raygen and with it by the
// closest-hit, vertex pulling from `vec4 v[]` in the glTF loader's 96-byte layout, uint indices,
// the loader's PreTransformVertices | PreMultiplyVertexColors | FlipY, and an unflipped projection.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareRun, runWorkload } from '../../src/driver/run-workload.js';
import { readTexel } from '../../src/sim/functional/images.js';

const APP = resolve(import.meta.dirname, '../../examples/apps/sascha-raytracingreflections');
const MANIFEST = join(APP, 'workload.json');

test('renders the boxes, the mirror floor and reflections at 32x24', async (t) => {
  const r = await runWorkload(MANIFEST, { width: 32, height: 24, spp: 1 });
  const img = r.image!;
  const px = new Float64Array(4);
  const rgb = (x: number, y: number): number[] => {
    px.fill(0);
    readTexel(img, 0, x, y, 0, 0, px);
    return [px[0]!, px[1]!, px[2]!];
  };
  const count = (x0: number, x1: number, y0: number, y1: number, pred: (c: number[]) => boolean): number => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (pred(rgb(x, y))) n++;
    return n;
  };
  const red = (c: number[]) => c[0]! > 0.4 && c[0]! > 3 * c[2]!;
  const blue = (c: number[]) => c[2]! > 0.4 && c[2]! > 3 * c[0]!;
  // Red box on the left, blue box on the right; upright: the wall (grey) is above the image centre.
  t.true(count(0, 10, 8, 20, red) > 40, 'red box on the left');
  t.true(count(22, 32, 8, 20, blue) > 40, 'blue box on the right');
  t.is(count(0, 32, 0, 12, blue) + count(0, 32, 0, 12, red) < 32 * 12, true);
  const grey = (c: number[]) => Math.abs(c[0]! - c[1]!) < 0.05 && c[0]! > 0.3 && c[2]! < 0.8;
  t.true(count(10, 22, 0, 6, grey) > 20, 'the back wall above the horizon');
  // The white floor and the white crate are reflectors: the raygen loop traces more rays than pixels.
  t.true(r.rt.rays > 32 * 24 * 1.2, `rays ${r.rt.rays}`);
  t.true(r.rt.raysByDepth[0]! === r.rt.rays, 'reflections are traced from the raygen loop, not recursively');
});

test('the uniform buffer is what the host binds: 160 bytes with vertexSize, though raygen declares 144', async (t) => {
  const p = await prepareRun(MANIFEST, { width: 8, height: 8 });
  const ubo = p.host.resources.buffers!.find((b) => b.set === 0 && b.binding === 2)!;
  t.true(ubo.data.byteLength >= 148);
  const view = new DataView(ubo.data.buffer, ubo.data.byteOffset, ubo.data.byteLength);
  t.is(view.getInt32(144, true), 96);
  t.is(view.getFloat32(128, true), 40); // lightPos.x
  // The vertex buffer holds 96-byte vkglTF vertices: vertex 0's colour (floats 8..11) is the floor's white.
  const vertices = p.host.resources.buffers!.find((b) => b.set === 0 && b.binding === 3)!;
  const v = new Float32Array(vertices.data.buffer, vertices.data.byteOffset, 24 * 2);
  t.deepEqual([...v.slice(8, 12)], [1, 1, 1, 1]);
  t.is(v[1], -0); // flipY of the floor's y = 0
});

test('raw UBO data longer than every declaration is kept whole, never cut', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-sascha-'));
  const json = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, unknown>;
  const bytes = new Uint8Array(176); // 160-byte UniformData plus 16 bytes a later host version might add
  const dv = new DataView(bytes.buffer);
  dv.setInt32(144, 96, true);
  dv.setUint32(160, 0xdeadbeef, true);
  writeFileSync(join(dir, 'ubo.bin'), bytes);
  const descriptors = (json.descriptors as Record<string, unknown>[]).map((d) => d.binding === 2
    ? { set: 0, binding: 2, kind: 'uniformBuffer', layout: 'std140', data: join(dir, 'ubo.bin') }
    : d);
  const relocated = JSON.stringify({ ...json, descriptors, $schema: undefined })
    .replace(/"([^"]+\.(?:rgen|rchit|rmiss|obj))"/g, (_, f: string) => JSON.stringify(resolve(APP, f)));
  writeFileSync(join(dir, 'workload.json'), relocated);
  const p = await prepareRun(join(dir, 'workload.json'), { width: 8, height: 8 });
  const ubo = p.host.resources.buffers!.find((b) => b.set === 0 && b.binding === 2)!;
  t.is(ubo.data.byteLength, 176);
  t.is(new DataView(ubo.data.buffer, ubo.data.byteOffset).getUint32(160, true), 0xdeadbeef);
});

test('the BLAS is built from the named vertex and index buffers; a wrong name is reported when the manifest loads', async (t) => {
  const p = await prepareRun(MANIFEST, { width: 8, height: 8 });
  const indices = p.host.resources.buffers!.find((b) => b.binding === 4)!;
  const triangles = p.scene.meshes.reduce((n, m) => n + m.indices.length / 3, 0);
  t.true(indices.data.byteLength >= triangles * 12);
  t.is(p.scene.meshes.length, 1, 'preTransformVertices: one mesh, as one BLAS over the whole buffer');
  const json = readFileSync(MANIFEST, 'utf8').replace('"vertexData": { "buffer": "vertices" }', '"vertexData": { "buffer": "vertex" }');
  const dir = mkdtempSync(join(tmpdir(), 'vv-sascha-'));
  writeFileSync(join(dir, 'workload.json'), json.replace(/"([^"]+\.(?:rgen|rchit|rmiss|obj))"/g, (_, f: string) => JSON.stringify(resolve(APP, f))).replace('"$schema"', '"notes"'));
  const e = await t.throwsAsync(prepareRun(join(dir, 'workload.json'), { width: 8, height: 8 }));
  t.regex((e as unknown as { problems: string[] }).problems.join('\n'), /accelerationStructures\.blas\[0\]\.geometries\[0\]\.vertexData\.buffer: no buffer named "vertex" \(buffers: vertices, indices\)/);
});

test('without hostStruct, vertices read as vec4 v[] get a message that says what to give', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-sascha-'));
  const json = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { descriptors: Record<string, unknown>[] } & Record<string, unknown>;
  const descriptors = json.descriptors.map((d) => {
    if (d.binding !== 3) return d;
    const { hostStruct: _h, fields: _f, ...rest } = d;
    return rest;
  });
  writeFileSync(join(dir, 'workload.json'), JSON.stringify({ ...json, descriptors, $schema: undefined })
    .replace(/"([^"]+\.(?:rgen|rchit|rmiss|obj))"/g, (_, f: string) => JSON.stringify(resolve(APP, f))));
  const e = await t.throwsAsync(prepareRun(join(dir, 'workload.json'), { width: 8, height: 8 }));
  t.regex((e as unknown as { problems: string[] }).problems.join('\n'), /descriptors\[3\]: .*closesthit\.rchit reads the vertices as vec4<f32> elements, not a struct: give "field" .*, or "hostStruct"/);
});
