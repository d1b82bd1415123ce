import test from 'ava';
import { createWatertightRay, intersectTriangle, prepareWatertightRay, triangleHit } from '../../../src/sim/rt/ray-triangle.js';
import { buildAccelerationStructureFromDescriptions, GEOMETRY_FLAG } from '../../../src/sim/rt/acceleration-structure.js';
import { traverse } from '../../../src/sim/rt/traversal.js';
import { randomDirections } from './reference-tracer.js';

/** Closed, bumpy, subdivided icosahedron with shared vertices (every edge in exactly two triangles). */
function closedMesh(subdivisions: number): { positions: Float32Array; indices: Uint32Array } {
  const g = (1 + Math.sqrt(5)) / 2;
  const pos: number[][] = [[-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0], [0, -1, g], [0, 1, g], [0, -1, -g], [0, 1, -g], [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1]];
  let faces = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]];
  for (let s = 0; s < subdivisions; s++) {
    const mid = new Map<string, number>();
    const m = (a: number, b: number): number => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let i = mid.get(key);
      if (i === undefined) { i = pos.length; pos.push(pos[a]!.map((v, k) => 0.5 * (v + pos[b]![k]!))); mid.set(key, i); }
      return i;
    };
    faces = faces.flatMap(([a, b, c]) => { const ab = m(a!, b!), bc = m(b!, c!), ca = m(c!, a!); return [[a!, ab, ca], [b!, bc, ab], [c!, ca, bc], [ab, bc, ca]]; });
  }
  const positions = new Float32Array(3 * pos.length);
  pos.forEach((p, i) => {
    const len = Math.hypot(p[0]!, p[1]!, p[2]!);
    const r = 1 + 0.1 * Math.sin(7 * p[0]! / len) * Math.cos(5 * p[1]! / len);
    positions.set([r * p[0]! / len, r * p[1]! / len, r * p[2]! / len], 3 * i);
  });
  return { positions, indices: new Uint32Array(faces.flat()) };
}

test('facing follows the determinant sign and barycentrics reconstruct the hit point', (t) => {
  const v = new Float32Array([0, 0, 0, 2, 0, 0, 0, 2, 0]);
  const r = createWatertightRay();
  prepareWatertightRay(0, 0, -1, r);
  t.true(intersectTriangle(v, 0, 0.5, 0.25, 3, r, 0, 10));
  t.true(triangleHit[3]! > 0); // normal +z against the ray: front-facing
  t.is(triangleHit[0], 3);
  t.true(Math.abs(triangleHit[1]! - 0.25) < 1e-12 && Math.abs(triangleHit[2]! - 0.125) < 1e-12);
  prepareWatertightRay(0, 0, 1, r);
  t.true(intersectTriangle(v, 0, 0.5, 0.25, -3, r, 0, 10));
  t.true(triangleHit[3]! < 0);
  t.false(intersectTriangle(v, 0, 0.5, 0.25, -3, r, 0, 2.9));
  t.false(intersectTriangle(v, 0, 3, 3, -3, r, 0, 10));
  // Degenerate (zero-area) triangles never report hits.
  t.false(intersectTriangle(new Float32Array([0, 0, 0, 1, 1, 0, 2, 2, 0]), 0, 1, 1, -3, r, 0, 10));
});

test('watertight: 100k rays from inside a closed mesh all hit it (random, through vertices, through edges)', (t) => {
  const { positions, indices } = closedMesh(4);
  const as = buildAccelerationStructureFromDescriptions([{
    geometries: [{ type: 'triangles', vertexData: positions, vertexFormat: 'R32G32B32_SFLOAT', vertexStride: 12, maxVertex: positions.length / 3 - 1, indexType: 'uint32', indexData: indices, flags: GEOMETRY_FLAG.opaque, primitiveCount: indices.length / 3, primitiveOffset: 0, firstVertex: 0 }],
  }], [{ transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], instanceCustomIndex: 0, mask: 0xff, instanceShaderBindingTableRecordOffset: 0, flags: 0, blas: 0 }]);
  const dir = randomDirections(11);
  const vertexCount = positions.length / 3;
  const query = { origin: [0, 0, 0] as [number, number, number], direction: [0, 0, 0] as [number, number, number], tmin: 0, tmax: Infinity, flags: 0, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 1 };
  let misses = 0, backHits = 0;
  for (let i = 0; i < 100_000; i++) {
    const kind = i % 3;
    // Origins: the centre for vertex/edge rays (exactly through them), random inner points otherwise.
    const o = kind === 0 ? dir().map((x) => 0.3 * x) : [0, 0, 0];
    let target: number[];
    if (kind === 0) target = dir();
    else if (kind === 1) { const v = (i * 7919) % vertexCount; target = [positions[3 * v]!, positions[3 * v + 1]!, positions[3 * v + 2]!]; }
    else {
      const f = (i * 104729) % (indices.length / 3), a = indices[3 * f]!, b = indices[3 * f + 1]!;
      target = [0, 1, 2].map((k) => 0.5 * (positions[3 * a + k]! + positions[3 * b + k]!));
    }
    query.origin = o as [number, number, number];
    query.direction = (kind === 0 ? target : target.map((x, k) => x - o[k]!)) as [number, number, number];
    const h = traverse(as, query).committed;
    if (!h) misses++;
    else if (h.hitKind === 0xff) backHits++;
  }
  t.is(misses, 0);
  // Outward-wound faces are seen from inside as back faces.
  t.is(backHits, 100_000);
});
