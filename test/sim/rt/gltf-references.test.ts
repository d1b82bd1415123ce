/**
 * checkGltfReferences through loadGltfScene: a glTF whose indices or byte ranges are wrong is a
 * GltfLoadError naming the file and the JSON path, never a TypeError from the reader (issue 20.4)
 * nor silently wrong geometry; a valid one-triangle file loads.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GltfLoadError, loadGltfScene } from '../../../src/sim/rt/load-gltf.js';

const dir = mkdtempSync(join(tmpdir(), 'vv-gltf-refs-'));
const positions = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);

/** A one-triangle glTF with embedded positions, edited by `edit`. */
function triangle(name: string, edit: (g: any) => void = () => {}): string {
  const g = {
    asset: { version: '2.0' },
    buffers: [{ byteLength: 36, uri: `data:application/octet-stream;base64,${positions.toString('base64')}` }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  edit(g);
  const file = join(dir, `${name}.gltf`);
  writeFileSync(file, JSON.stringify(g));
  return file;
}

test('a valid one-triangle glTF loads', async (t) => {
  const s = await loadGltfScene(triangle('ok'));
  t.deepEqual(Array.from(s.meshes[0]!.positions), [0, 0, 0, 1, 0, 0, 0, 1, 0]);
});

const BAD: [string, (g: any) => void, string][] = [
  ['view', (g) => { g.accessors[0].bufferView = 5; }, 'accessors[0].bufferView: bufferView 5 does not exist (the file has 1)'],
  ['attribute', (g) => { g.meshes[0].primitives[0].attributes.POSITION = 9; }, 'meshes[0].primitives[0].attributes.POSITION: accessor 9 does not exist (the file has 1)'],
  ['indices', (g) => { g.meshes[0].primitives[0].indices = 7; }, 'meshes[0].primitives[0].indices: accessor 7 does not exist (the file has 1)'],
  ['count', (g) => { g.accessors[0].count = 1000; }, 'accessors[0]: 1000 elements of 12 bytes (stride 12) from byte 0 need 12000 bytes; bufferView 0 has 36'],
  ['component', (g) => { g.accessors[0].componentType = 1234; }, 'accessors[0].componentType: 1234 is not a glTF component type (5120-5123, 5125, 5126)'],
  ['buffer', (g) => { g.bufferViews[0].buffer = 3; }, 'bufferViews[0].buffer: buffer 3 does not exist (the file has 1)'],
  ['view-range', (g) => { g.bufferViews[0].byteOffset = 8; }, 'bufferViews[0]: bytes up to 44 lie outside buffer 0 of 36 bytes'],
  ['mesh', (g) => { g.nodes[0].mesh = 4; }, 'nodes[0].mesh: mesh 4 does not exist (the file has 1)'],
  ['node', (g) => { g.scenes[0].nodes = [8]; }, 'scenes[0].nodes[0]: node 8 does not exist (the file has 1)'],
  ['offset', (g) => { g.accessors[0].byteOffset = -8; }, 'accessors[0].byteOffset: -8 is not an integer >= 0'],
];

for (const [name, edit, expected] of BAD) {
  test(`a bad reference (${name}) is a GltfLoadError naming the file and the JSON path`, async (t) => {
    const file = triangle(name, edit);
    const e = await t.throwsAsync(loadGltfScene(file), { instanceOf: GltfLoadError });
    t.is(e!.message, `${file}: ${expected}`);
  });
}
