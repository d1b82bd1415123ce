// Vertex attributes in separate buffers (nvpro's glTF tutorial: `vec3 v[]`, `vec3 n[]`, `vec2 t[]`):
// `"field"` says which scene field a scalar or vector element holds; without it, records of several
// fields are refused with a message that names "field".
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareRun } from '../../../src/driver/run-workload.js';
import { loadManifest } from '../../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../../src/sim/workload/manifest.js';

const RCHIT = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_scalar_block_layout : require
layout(set = 0, binding = 3, scalar) readonly buffer Positions { vec3 v[]; };
layout(set = 0, binding = 4, scalar) readonly buffer Normals { vec3 n[]; };
layout(set = 0, binding = 5, scalar) readonly buffer TexCoords { vec2 t[]; };
layout(location = 0) rayPayloadInEXT vec3 hitValue;
void main() { hitValue = v[0] + n[0] + vec3(t[0], 0.0); }
`;
const RGEN = '#version 460\n#extension GL_EXT_ray_tracing : require\nvoid main() {}\n';
const RMISS = '#version 460\n#extension GL_EXT_ray_tracing : require\nvoid main() {}\n';
const OBJ = resolve(import.meta.dirname, '../../../workloads/scenes/crate.obj');

function manifest(normals: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vv-fields-'));
  writeFileSync(join(dir, 'hit.rchit'), RCHIT);
  writeFileSync(join(dir, 'main.rgen'), RGEN);
  writeFileSync(join(dir, 'miss.rmiss'), RMISS);
  writeFileSync(join(dir, 'workload.json'), JSON.stringify({
    name: 'fields',
    shaders: { raygen: ['main.rgen'], closestHit: ['hit.rchit'], miss: ['miss.rmiss'] },
    hitGroups: [{ closestHit: 'hit.rchit' }],
    miss: ['miss.rmiss'],
    descriptors: [
      { set: 0, binding: 3, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'vertices', field: 'position' },
      { set: 0, binding: 4, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'vertices', ...normals },
      { set: 0, binding: 5, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'vertices', field: 'texCoord' },
    ],
    scene: { obj: OBJ },
    launch: { width: 1, height: 1 },
  }));
  return join(dir, 'workload.json');
}

test('"field" packs one scene field per element, tightly in scalar layout', async (t) => {
  const p = await prepareRun(manifest({ field: 'normal' }), {});
  const mesh = p.scene.meshes[0]!;
  const floats = (binding: number) => {
    const b = p.host.resources.buffers!.find((x) => x.binding === binding)!;
    return new Float32Array(b.data.buffer, b.data.byteOffset, b.data.byteLength / 4);
  };
  const n = mesh.positions.length / 3;
  t.deepEqual([...floats(3).subarray(0, 3 * n)], [...mesh.positions]);
  t.deepEqual([...floats(4).subarray(0, 3 * n)], [...mesh.normals!]);
  t.deepEqual([...floats(5).subarray(0, 2 * n)], [...mesh.uvs!]);
});

test('vec3 elements of the vertices without "field": the message says to give it; an unknown field is named', async (t) => {
  const e = await t.throwsAsync(prepareRun(manifest({}), {}), { instanceOf: ManifestError });
  t.regex((e as ManifestError).problems.join('\n'), /descriptors\[1\]: .*reads the vertices as vec3<f32> elements, not a struct: give "field"/);
  const bad = t.throws(() => loadManifest(manifest({ field: 'nrm' })), { instanceOf: ManifestError });
  t.regex((bad as ManifestError).problems.join('\n'), /descriptors\[1\]\.field: no field "nrm" in the scene's vertices \(fields: position, normal, texCoord, color\)/);
});
