// Acceleration structures declared in a manifest the way a Vulkan application builds them: the
// JSON checks (key paths), the data-range checks when the buffers are read, and a build of the
// resulting descriptions by src/sim/rt.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAccelerationStructureFromDescriptions } from '../../../src/sim/rt/acceleration-structure.js';
import { loadAccelerationStructureDescriptions } from '../../../src/sim/workload/acceleration-structures.js';
import { loadManifest } from '../../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../../src/sim/workload/manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'vv-as-'));
for (const f of ['raygen.rgen', 'miss.rmiss']) writeFileSync(join(dir, f), '');
// Two unit boxes as VkAabbPositionsKHR, and a quad's indices as raw uint16.
writeFileSync(join(dir, 'boxes.bin'), Buffer.from(new Float32Array([0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1]).buffer));
writeFileSync(join(dir, 'quad-indices.bin'), Buffer.from(new Uint16Array([0, 1, 2, 0, 2, 3]).buffer));
writeFileSync(join(dir, 'quad-vertices.json'), JSON.stringify([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]));

function manifest(as: unknown): Record<string, unknown> {
  return {
    name: 'replay', shaders: { raygen: ['raygen.rgen'], miss: ['miss.rmiss'] }, miss: ['miss.rmiss'],
    scene: { procedural: 'tri' }, launch: { width: 8, height: 8 }, accelerationStructures: as,
  };
}

const good = {
  blas: [
    {
      geometries: [
        { type: 'triangles', vertexData: 'quad-vertices.json', vertexFormat: 'R32G32B32_SFLOAT', maxVertex: 3, indexType: 'uint16', indexData: 'quad-indices.bin', primitiveCount: 2 },
        { type: 'triangles', vertexData: [0, 0, 1, 1, 0, 1, 0, 1, 1], maxVertex: 2, primitiveCount: 1, opaque: false },
      ],
    },
    { geometries: [{ type: 'aabbs', data: 'boxes.bin', primitiveCount: 2 }] },
  ],
  instances: [
    { blas: 0 },
    { blas: 1, transform: [[1, 0, 0, 0], [0, 1, 0, 5], [0, 0, 1, 0]], customIndex: 7, mask: 2, sbtOffset: 1, flags: ['forceOpaque'] },
  ],
};

function load(as: unknown, name: string) {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(manifest(as)));
  return loadManifest(p);
}

function problems(as: unknown): string[] {
  try {
    const m = load(as, 'bad.json');
    loadAccelerationStructureDescriptions(m.accelerationStructures!, m.path);
  } catch (e) {
    if (e instanceof ManifestError) return e.problems;
    throw e;
  }
  return [];
}

function has(t: import('ava').ExecutionContext, ps: string[], re: RegExp): void {
  t.true(ps.some((p) => re.test(p)), `expected ${re} among:\n${ps.join('\n')}`);
}

test('a declared BLAS/TLAS loads into build descriptions that src/sim/rt builds', (t) => {
  const m = load(good, 'good.json');
  const { blas, instances } = loadAccelerationStructureDescriptions(m.accelerationStructures!, m.path);
  t.is(blas.length, 2);
  const tri = blas[0]!.geometries[0]!;
  t.true(tri.type === 'triangles' && tri.vertexStride === 12 && tri.indexType === 'uint16' && tri.flags === 1);
  t.is(blas[0]!.geometries[1]!.flags, 0, 'opaque: false clears the opaque flag');
  t.deepEqual(instances[1], {
    transform: [1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1, 0], instanceCustomIndex: 7, mask: 2, instanceShaderBindingTableRecordOffset: 1, flags: 0x4, blas: 1,
  });
  const as = buildAccelerationStructureFromDescriptions(blas, instances);
  t.true(as.nodeCount >= 3);
});

test('JSON mistakes name the key path', (t) => {
  const bad = structuredClone(good) as typeof good & { blas: { geometries: Record<string, unknown>[] }[] };
  bad.blas[0]!.geometries.push({ type: 'aabbs', data: 'boxes.bin', primitiveCount: 1, stride: 20 });
  delete bad.blas[0]!.geometries[0]!.indexData;
  bad.blas[0]!.geometries[1]!.vertexFormat = 'R8G8B8_UNORM';
  (bad.instances as Record<string, unknown>[]).push({ blas: 4, mask: 256 });
  const ps = problems(bad);
  has(t, ps, /accelerationStructures\.blas\[0\]\.geometries: mixes triangles and aabbs/);
  has(t, ps, /accelerationStructures\.blas\[0\]\.geometries\[2\]\.stride: expected a multiple of 8 of at least 24, found 20/);
  has(t, ps, /accelerationStructures\.blas\[0\]\.geometries\[0\]\.indexData: missing \(indexType is uint16\)/);
  has(t, ps, /accelerationStructures\.blas\[0\]\.geometries\[1\]\.vertexFormat: expected one of "R32G32B32_SFLOAT"/);
  has(t, ps, /accelerationStructures\.instances\[2\]\.blas: 4 is out of range \(2 BLAS declared\)/);
  has(t, ps, /accelerationStructures\.instances\[2\]\.mask: expected an 8-bit mask/);
});

test('build ranges outside their data are reported when the buffers are read', (t) => {
  const bad = structuredClone(good) as unknown as { blas: { geometries: Record<string, unknown>[] }[] };
  bad.blas[0]!.geometries[0]!.primitiveCount = 3; // 18 indices, the file has 6
  bad.blas[0]!.geometries[1]!.maxVertex = 1; // 3 non-indexed vertices
  bad.blas[1]!.geometries[0]!.primitiveCount = 3; // 3 boxes, the file has 2
  const ps = problems(bad);
  has(t, ps, /geometries\[0\]\.indexData: 3 triangles from byte 0 need 18 bytes of uint16 indices, the data has 12/);
  has(t, ps, /geometries\[1\]\.maxVertex: 1 non-indexed triangles read vertex 2, beyond maxVertex 1/);
  has(t, ps, /blas\[1\]\.geometries\[0\]\.data: 3 AABBs from byte 0 at stride 24 need 72 bytes, the data has 48/);
});

test('an index above maxVertex and vertex data too short for the indices are reported', (t) => {
  const bad = structuredClone(good) as unknown as { blas: { geometries: Record<string, unknown>[] }[] };
  bad.blas[0]!.geometries[0]!.maxVertex = 2;
  bad.blas[0]!.geometries[1]!.vertexData = [0, 0, 1, 1, 0, 1];
  const ps = problems(bad);
  has(t, ps, /geometries\[0\]\.indexData: index 3 \(element 5\) exceeds maxVertex 2/);
  has(t, ps, /geometries\[1\]\.vertexData: vertex 2 at stride 12 needs 36 bytes, the data has 24/);
});
