import test from 'ava';
import { buildAccelerationStructure, buildAccelerationStructureFromDescriptions, GEOMETRY_FLAG, type BottomLevelDescription, type InstanceDescription, type TrianglesGeometryDescription } from '../../../src/sim/rt/acceleration-structure.js';
import { traverse, TraversalError } from '../../../src/sim/rt/traversal.js';
import { HIT_KIND, RAY_FLAG, type RayQuery } from '../../../src/sim/rt/ray-query.js';
import { INSTANCE_FLAG } from '../../../src/sim/rt/scene.js';
import { loadObjScene } from '../../../src/sim/rt/load-obj.js';
import { proceduralScene } from '../../../src/sim/rt/procedural-scenes.js';
import { TRANSACTION_KIND } from '../../../src/sim/rt/transaction-record.js';
import { NODE_KIND } from '../../../src/sim/rt/bvh-layout.js';
import { bruteForceAabbHits, bruteForceClosestTriangle, randomDirections, raySphere } from './reference-tracer.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/** A unit triangle in the z=0 plane, counter-clockwise seen from +z (normal +z). */
function triangleBlas(flags: number = GEOMETRY_FLAG.opaque): BottomLevelDescription {
  return {
    geometries: [{
      type: 'triangles', vertexData: new Float32Array([-1, -1, 0, 1, -1, 0, 0, 1, 0]), vertexFormat: 'R32G32B32_SFLOAT', vertexStride: 12,
      maxVertex: 2, indexType: 'none', flags, primitiveCount: 1, primitiveOffset: 0, firstVertex: 0,
    }],
  };
}

function aabbBlas(flags: number = GEOMETRY_FLAG.opaque): BottomLevelDescription {
  return { geometries: [{ type: 'aabbs', data: new Float32Array([-1, -1, -1, 1, 1, 1]), stride: 24, flags, primitiveCount: 1, primitiveOffset: 0 }] };
}

function instance(blas: number, patch: Partial<InstanceDescription> = {}): InstanceDescription {
  return { transform: IDENTITY, instanceCustomIndex: 0, mask: 0xff, instanceShaderBindingTableRecordOffset: 0, flags: 0, blas, ...patch };
}

function ray(patch: Partial<RayQuery> = {}): RayQuery {
  return { origin: [0, 0, 5], direction: [0, 0, -1], tmin: 0, tmax: 100, flags: 0, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 1, ...patch };
}

test('front-facing opaque triangle is committed with Vulkan hit kind, barycentrics and built-ins', (t) => {
  const as = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0, { instanceCustomIndex: 42, instanceShaderBindingTableRecordOffset: 3 })]);
  const r = traverse(as, ray({ origin: [0.5, -0.5, 5], sbtRecordOffset: 1 }));
  t.truthy(r.committed);
  const h = r.committed!;
  t.is(h.kind, 'triangle');
  t.is(h.hitKind, HIT_KIND.frontFacingTriangle);
  t.true(Math.abs(h.t - 5) < 1e-12);
  // (0.5,-0.5) = v0 + u*(v1 - v0) + v*(v2 - v0) = (-1,-1) + u*(2,0) + v*(1,2): v = 0.25, u = 0.625.
  t.true(Math.abs(h.u - 0.625) < 1e-6 && Math.abs(h.v - 0.25) < 1e-6);
  t.is(h.instanceCustomIndex, 42);
  t.is(h.hitGroupIndex, 4);
  t.true(h.opaque);
  t.deepEqual(r.candidates, []);
  const back = traverse(as, ray({ origin: [0, 0, -5], direction: [0, 0, 1] }));
  t.is(back.committed?.hitKind, HIT_KIND.backFacingTriangle);
});

test('cull back/front facing flags, and instance cull-disable and flip-facing', (t) => {
  const as = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0)]);
  t.truthy(traverse(as, ray({ flags: RAY_FLAG.cullBackFacingTriangles })).committed);
  t.is(traverse(as, ray({ flags: RAY_FLAG.cullFrontFacingTriangles })).committed, undefined);
  const fromBelow = ray({ origin: [0, 0, -5], direction: [0, 0, 1], flags: RAY_FLAG.cullBackFacingTriangles });
  t.is(traverse(as, fromBelow).committed, undefined);

  const noCull = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0, { flags: INSTANCE_FLAG.triangleFacingCullDisable })]);
  t.truthy(traverse(noCull, ray({ flags: RAY_FLAG.cullFrontFacingTriangles })).committed);

  const flipped = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0, { flags: INSTANCE_FLAG.triangleFlipFacing })]);
  const h = traverse(flipped, ray()).committed;
  t.is(h?.hitKind, HIT_KIND.backFacingTriangle);
  t.is(traverse(flipped, ray({ flags: RAY_FLAG.cullBackFacingTriangles })).committed, undefined);
});

test('opacity: geometry flag, instance force flags, ray flags and opaque culling', (t) => {
  const nonOpaque = buildAccelerationStructureFromDescriptions([triangleBlas(0)], [instance(0)]);
  let r = traverse(nonOpaque, ray());
  t.is(r.committed, undefined);
  t.is(r.candidates.length, 1);
  t.false(r.candidates[0]!.opaque);
  t.is(r.candidates[0]!.kind, 'triangle');
  t.truthy(traverse(nonOpaque, ray({ flags: RAY_FLAG.opaque })).committed);
  t.is(traverse(nonOpaque, ray({ flags: RAY_FLAG.cullNoOpaque })).candidates.length, 0);

  const forcedOpaque = buildAccelerationStructureFromDescriptions([triangleBlas(0)], [instance(0, { flags: INSTANCE_FLAG.forceOpaque })]);
  t.truthy(traverse(forcedOpaque, ray()).committed);
  t.is(traverse(forcedOpaque, ray({ flags: RAY_FLAG.noOpaque })).committed, undefined);

  const forcedNoOpaque = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0, { flags: INSTANCE_FLAG.forceNoOpaque })]);
  r = traverse(forcedNoOpaque, ray());
  t.is(r.committed, undefined);
  t.is(r.candidates.length, 1);

  const opaque = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0)]);
  t.is(traverse(opaque, ray({ flags: RAY_FLAG.cullOpaque })).committed, undefined);
  t.truthy(traverse(opaque, ray({ flags: RAY_FLAG.cullNoOpaque })).committed);
});

test('skip triangles / skip AABBs and procedural candidates', (t) => {
  const as = buildAccelerationStructureFromDescriptions([triangleBlas(), aabbBlas()], [
    instance(0),
    instance(1, { transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -3], instanceShaderBindingTableRecordOffset: 2 }),
  ]);
  // Box at z in [-4,-2] lies behind the triangle: dropped as farther than the committed hit.
  let r = traverse(as, ray());
  t.truthy(r.committed);
  t.is(r.candidates.length, 0);
  r = traverse(as, ray({ flags: RAY_FLAG.skipTriangles }));
  t.is(r.committed, undefined);
  t.is(r.candidates.length, 1);
  const c = r.candidates[0]!;
  t.is(c.kind, 'procedural');
  t.is(c.instanceIndex, 1);
  t.is(c.hitGroupIndex, 2);
  t.true(Math.abs(c.t - 7) < 1e-9);
  t.deepEqual(c.objectRayOrigin, [0, 0, 8]);
  r = traverse(as, ray({ flags: RAY_FLAG.skipAABBs, origin: [0, 0, -10], direction: [0, 0, 1] }));
  t.is(r.candidates.length, 0);
  t.truthy(r.committed);
  // From below, the box comes first: it stays a candidate in front of the committed triangle.
  r = traverse(as, ray({ origin: [0, 0, -10], direction: [0, 0, 1] }));
  t.is(r.candidates.length, 1);
  t.true(r.candidates[0]!.t < r.committed!.t);
});

test('cull mask against instance mask', (t) => {
  const as = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0, { mask: 0x02 })]);
  t.is(traverse(as, ray({ cullMask: 0x01 })).committed, undefined);
  t.truthy(traverse(as, ray({ cullMask: 0x03 })).committed);
});

test('tmin / tmax bound the accepted distance', (t) => {
  const as = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0)]);
  t.is(traverse(as, ray({ tmax: 4.999 })).committed, undefined);
  t.truthy(traverse(as, ray({ tmax: 5 })).committed);
  t.is(traverse(as, ray({ tmin: 5.001 })).committed, undefined);
  t.truthy(traverse(as, ray({ tmin: 5 })).committed);
  t.is(traverse(as, ray({ tmin: 3, tmax: 2 })).committed, undefined);
  t.throws(() => traverse(as, ray({ tmin: -1 })), { instanceOf: TraversalError });
});

test('a ray with a NaN or infinite origin / direction misses without walking the BVH (no transactions)', (t) => {
  // Regression: ao on cornellBox.gltf traced occlusion rays whose direction was NaN (a degenerate
  // triangle's normal); every slab test passed and each such ray fetched all ~21,000 nodes, one
  // lane's 8 rays holding an RT unit for ~23M cycles.
  const scene = loadObjScene('/work/shared/scenes/common-3d-test-models/teapot.obj');
  const as = buildAccelerationStructure(scene);
  const good = traverse(as, ray({ origin: [0, 1, 10], direction: [0, 0, -1], tmax: Infinity }), { record: true });
  t.truthy(good.committed);
  t.true(good.nodesVisited > 0 && good.nodesVisited < as.nodeCount / 4);
  const bad: Partial<RayQuery>[] = [
    { direction: [NaN, NaN, NaN] },
    { direction: [0, NaN, -1] },
    { direction: [0, 0, -Infinity] },
    { origin: [NaN, 1, 10] },
    { origin: [0, 1, Infinity] },
    { tmax: NaN },
  ];
  for (const patch of bad) {
    for (const flags of [0, RAY_FLAG.terminateOnFirstHit | RAY_FLAG.skipClosestHitShader | RAY_FLAG.opaque]) {
      const r = traverse(as, ray({ origin: [0, 1, 10], direction: [0, 0, -1], tmax: Infinity, flags, ...patch }), { record: true });
      const what = JSON.stringify(patch, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
      t.is(r.nodesVisited, 0, what);
      t.is(r.transactions!.count, 0, what);
      t.is(r.committed, undefined, what);
      t.deepEqual(r.candidates, [], what);
    }
  }
  // A zero direction is valid: it only enters boxes that contain the origin (here none).
  t.is(traverse(as, ray({ origin: [0, 1, 10], direction: [0, 0, 0], tmax: Infinity })).nodesVisited <= 1, true);
});

test('terminate on first hit stops at an opaque hit; skip-closest-hit does not change traversal', (t) => {
  const blas: BottomLevelDescription = {
    geometries: [{
      type: 'triangles', vertexData: new Float32Array([-1, -1, 0, 1, -1, 0, 0, 1, 0, -1, -1, 1, 1, -1, 1, 0, 1, 1, -1, -1, 2, 1, -1, 2, 0, 1, 2]),
      vertexFormat: 'R32G32B32_SFLOAT', vertexStride: 12, maxVertex: 8, indexType: 'none', flags: GEOMETRY_FLAG.opaque, primitiveCount: 3, primitiveOffset: 0, firstVertex: 0,
    }],
  };
  const as = buildAccelerationStructureFromDescriptions([blas], [instance(0)]);
  const full = traverse(as, ray());
  t.is(full.committed?.primitiveIndex, 2);
  t.false(full.terminatedEarly);
  const first = traverse(as, ray({ flags: RAY_FLAG.terminateOnFirstHit }));
  t.true(first.terminatedEarly);
  t.truthy(first.committed);
  t.true(first.nodesVisited <= full.nodesVisited);
  const skip = traverse(as, ray({ flags: RAY_FLAG.skipClosestHitShader }));
  t.deepEqual({ ...skip, transactions: undefined }, { ...full, transactions: undefined });
});

test('instanced, rotated and scaled geometry: object-space ray and matrices', (t) => {
  // Rotate 90 degrees about y (object +z -> world +x), scale 2, translate (10, 0, 0).
  const m = [0, 0, 2, 10, 0, 2, 0, 0, -2, 0, 0, 0];
  const as = buildAccelerationStructureFromDescriptions([triangleBlas()], [instance(0), instance(0, { transform: m, instanceCustomIndex: 7 })]);
  const r = traverse(as, ray({ origin: [20, 0.5, 0], direction: [-1, 0, 0] }));
  const h = r.committed!;
  t.is(h.instanceIndex, 1);
  t.is(h.instanceCustomIndex, 7);
  t.true(Math.abs(h.t - 10) < 1e-5);
  t.is(h.hitKind, HIT_KIND.frontFacingTriangle);
  t.true(Math.abs(h.objectRayOrigin[2] - 5) < 1e-6 && Math.abs(h.objectRayOrigin[1] - 0.25) < 1e-6);
  t.true(Math.abs(h.objectRayDirection[2] + 0.5) < 1e-6);
  t.deepEqual(Array.from(h.objectToWorld), m);
  // worldToObject * objectToWorld = identity on a test point.
  const p = [1, 2, 3];
  const w = [0, 1, 2].map((i) => m[4 * i]! * p[0]! + m[4 * i + 1]! * p[1]! + m[4 * i + 2]! * p[2]! + m[4 * i + 3]!);
  const q = [0, 1, 2].map((i) => h.worldToObject[4 * i]! * w[0]! + h.worldToObject[4 * i + 1]! * w[1]! + h.worldToObject[4 * i + 2]! * w[2]! + h.worldToObject[4 * i + 3]!);
  q.forEach((v, i) => t.true(Math.abs(v - p[i]!) < 1e-5));
});

test('SBT hit group index uses sbtOffset + sbtRecordOffset + stride * geometryIndex', (t) => {
  const base = triangleBlas().geometries[0] as TrianglesGeometryDescription;
  const twoGeoms: BottomLevelDescription = { geometries: [base, { ...base, transformData: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1] }] };
  const as = buildAccelerationStructureFromDescriptions([twoGeoms], [instance(0, { instanceShaderBindingTableRecordOffset: 5 })]);
  const h = traverse(as, ray({ sbtRecordOffset: 1, sbtRecordStride: 2 })).committed!;
  t.is(h.geometryIndex, 1);
  t.is(h.hitGroupIndex, 5 + 1 + 2 * 1);
});

test('bunny: traversal agrees with brute-force closest hit on random rays (6- and 4-wide)', (t) => {
  const scene = loadObjScene('/work/shared/scenes/common-3d-test-models/stanford-bunny.obj');
  const p = scene.meshes[0]!.positions;
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a]!, p[i + a]!); hi[a] = Math.max(hi[a]!, p[i + a]!); }
  const centre = lo.map((v, a) => 0.5 * (v + hi[a]!));
  const radius = Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  const dir = randomDirections(7);
  for (const width of [6, 4] as const) {
    const as = buildAccelerationStructure(scene, { width });
    let hits = 0;
    for (let i = 0; i < 60; i++) {
      const out = dir(), jitter = dir();
      const o = centre.map((c, a) => c + radius * out[a]!);
      const target = centre.map((c, a) => c + 0.3 * radius * jitter[a]!);
      const d = target.map((v, a) => v - o[a]!);
      const ref = bruteForceClosestTriangle(scene, o, d, 0, Infinity);
      const got = traverse(as, ray({ origin: o as [number, number, number], direction: d as [number, number, number], tmax: Infinity })).committed;
      if (!ref) { t.is(got, undefined); continue; }
      hits++;
      t.truthy(got);
      t.is(got!.t, ref.t);
      t.is(got!.primitiveIndex, ref.primitive);
    }
    t.true(hits > 10);
  }
});

test('wknd: candidates equal brute-force AABB overlaps, and the closest sphere matches', (t) => {
  const scene = proceduralScene('wknd', 1);
  const as = buildAccelerationStructure(scene);
  const g = scene.procedurals[0]!;
  const dir = randomDirections(3);
  let sphereHits = 0;
  for (let i = 0; i < 300; i++) {
    const d0 = dir();
    const o: [number, number, number] = [13, 2, 3];
    const d: [number, number, number] = [-13 + 4 * d0[0], -2 + 2 * d0[1], -3 + 4 * d0[2]];
    const r = traverse(as, ray({ origin: o, direction: d, tmin: 0.001, tmax: Infinity }));
    const got = r.candidates.map((c) => `${c.instanceIndex}:${c.primitiveIndex}`).sort();
    t.deepEqual(got, bruteForceAabbHits(scene, o, d, 0.001, Infinity));
    // The closest sphere via candidates equals the brute-force closest sphere.
    let best = Infinity, bestRef = Infinity;
    for (const c of r.candidates) { const s = raySphere(g.params, c.primitiveIndex, o, d, 0.001, Infinity); if (s >= 0 && s < best) best = s; }
    for (let p = 0; p < g.materialIds.length; p++) { const s = raySphere(g.params, p, o, d, 0.001, Infinity); if (s >= 0 && s < bestRef) bestRef = s; }
    t.is(best, bestRef);
    if (best < Infinity) sphereHits++;
  }
  t.true(sphereHits > 100);
});

test('transactions: node addresses and sizes in traversal order, stack spills past the short stack', (t) => {
  const scene = loadObjScene('/work/shared/scenes/common-3d-test-models/teapot.obj');
  const as = buildAccelerationStructure(scene);
  const r = traverse(as, ray({ origin: [0, 1, 10], direction: [0, 0, -1], tmax: Infinity }), { record: true, shortStackSize: 2, stackSpillAddress: 0x9000_0000 });
  const rec = r.transactions!;
  t.truthy(rec);
  t.true(rec.count > 0);
  // Vulkan-Sim's order: the TLAS header, the TLAS root, ..., the instance leaf, the BLAS header, the BLAS root;
  // each triangle leaf after its 8-byte descriptor at the same address.
  t.is(rec.addresses[0], as.rootAddress);
  t.is(rec.kinds[0], TRANSACTION_KIND.structure);
  t.is(rec.addresses[1], as.nodeAddress[as.tlasRoot]);
  t.is(rec.kinds[1], TRANSACTION_KIND.internal);
  const kinds = Array.from(rec.kinds.subarray(0, rec.count));
  const firstLeaf = kinds.indexOf(TRANSACTION_KIND.instanceLeaf);
  t.true(firstLeaf > 0);
  t.is(rec.addresses[firstLeaf + 1], as.blases[0]!.rootAddress);
  t.is(rec.kinds[firstLeaf + 1], TRANSACTION_KIND.structure);
  t.is(rec.addresses[firstLeaf + 2], as.nodeAddress[as.blases[0]!.rootNode]);
  let fetches = 0, spills = 0, headers = 0, descriptors = 0;
  for (let i = 0; i < rec.count; i++) {
    const k = rec.kinds[i];
    if (k === TRANSACTION_KIND.stackSpill) { spills++; t.is(rec.sizes[i], 8); t.true(rec.addresses[i]! >= 0x9000_0000); continue; }
    if (k === TRANSACTION_KIND.structure) { headers++; t.is(rec.sizes[i], 64); continue; }
    if (k === TRANSACTION_KIND.leafDescriptor) {
      descriptors++;
      t.is(rec.sizes[i], 8);
      t.true(rec.kinds[i + 1] === TRANSACTION_KIND.triangleLeaf || rec.kinds[i + 1] === TRANSACTION_KIND.triangleLeafHit);
      t.is(rec.addresses[i + 1], rec.addresses[i]);
      continue;
    }
    fetches++;
    t.is(rec.sizes[i], rec.kinds[i] === TRANSACTION_KIND.instanceLeaf ? 128 : 64);
  }
  t.is(headers, 1 + kinds.filter((k) => k === TRANSACTION_KIND.instanceLeaf).length);
  t.is(descriptors, kinds.filter((k) => k === TRANSACTION_KIND.triangleLeaf || k === TRANSACTION_KIND.triangleLeafHit).length);
  // The ray hits the teapot: at least one triangle test hit in its interval (Vulkan-Sim BVH_QUAD_LEAF_HIT).
  t.true(r.committed !== undefined && kinds.includes(TRANSACTION_KIND.triangleLeafHit));
  t.is(fetches, r.nodesVisited);
  t.true(r.maxStackDepth > 2 ? spills > 0 : spills === 0);
  // Fetch i+1 is a child of fetch i or a node popped from the stack: replay the walk from node addresses.
  const byAddress = new Map<number, number>();
  for (let n = 0; n < as.nodeCount; n++) byAddress.set(as.nodeAddress[n]!, n);
  const isNode = (k: number): boolean => k !== TRANSACTION_KIND.stackSpill && k !== TRANSACTION_KIND.structure && k !== TRANSACTION_KIND.leafDescriptor;
  const visited = Array.from(rec.addresses.subarray(0, rec.count)).filter((_, i) => isNode(rec.kinds[i]!)).map((a) => byAddress.get(a));
  t.false(visited.includes(undefined));
  // Replay: every fetched node's parent was fetched earlier (a BLAS root follows its instance leaf),
  // and no node is fetched twice.
  const fetched = new Set<number>();
  visited.forEach((n, i) => {
    const node = n!;
    t.false(fetched.has(node));
    const parent = as.nodeParent[node]!;
    if (i === 0) t.is(node, as.tlasRoot);
    else if (parent >= 0) t.true(fetched.has(parent), `node ${node} fetched before its parent`);
    else t.true(as.blases.some((b) => b.rootNode === node) && fetched.size > 0);
    fetched.add(node);
  });
  t.is(rec.toRtTransactions().length, rec.count);
  t.is(rec.toLaneWork(3).lane, 3);
  // Recording must not change the functional result.
  const plain = traverse(as, ray({ origin: [0, 1, 10], direction: [0, 0, -1], tmax: Infinity }));
  t.deepEqual(plain.committed, r.committed);
  t.is(plain.transactions, undefined);
});

test('startNodes: traversal from a predicted leaf or its ancestors finds the same hit with fewer fetches', (t) => {
  const m = [0, 0, 2, 10, 0, 2, 0, 0, -2, 0, 0, 0];
  const scene = loadObjScene('/work/shared/scenes/common-3d-test-models/teapot.obj');
  const base = buildAccelerationStructure(scene);
  const as = buildAccelerationStructureFromDescriptions([{
    geometries: [{ type: 'triangles', vertexData: scene.meshes[0]!.positions, vertexFormat: 'R32G32B32_SFLOAT', vertexStride: 12, maxVertex: scene.meshes[0]!.positions.length / 3 - 1, indexType: 'uint32', indexData: scene.meshes[0]!.indices, flags: GEOMETRY_FLAG.opaque, primitiveCount: scene.meshes[0]!.indices.length / 3, primitiveOffset: 0, firstVertex: 0 }],
  }], [instance(0), instance(0, { transform: m })]);
  t.true(base.nodeCount > 0);
  const q = ray({ origin: [30, 1, 0], direction: [-1, 0, 0], tmax: Infinity });
  const full = traverse(as, q);
  const h = full.committed!;
  t.is(h.instanceIndex, 1);
  const leaf = h.leafNode!;
  t.is(as.nodeKind[leaf], NODE_KIND.triangleLeaf);
  t.is(as.triPrimitive[as.leafRef[leaf]!], h.primitiveIndex);
  let node = leaf;
  for (let level = 0; level <= 3; level++) {
    const r = traverse(as, q, { startNodes: [{ node, instance: 1 }] });
    t.is(r.committed?.primitiveIndex, h.primitiveIndex, `go up level ${level}`);
    t.is(r.committed?.t, h.t);
    t.true(r.nodesVisited < full.nodesVisited);
    node = as.nodeParent[node]!;
  }
  // A prediction in the wrong instance's space misses; a TLAS node is traversed in world space.
  t.is(traverse(as, q, { startNodes: [{ node: leaf, instance: 0 }] }).committed?.instanceIndex, undefined);
  t.is(traverse(as, q, { startNodes: [{ node: as.tlasRoot, instance: -1 }] }).committed?.primitiveIndex, h.primitiveIndex);
  t.is(traverse(as, q, { startNodes: [] }).committed, undefined);
  t.throws(() => traverse(as, q, { startNodes: [{ node: as.tlasRoot, instance: 1 }] }), { instanceOf: TraversalError, message: /startNodes\[0\]/ });
  t.is(traverse(as, { ...q, cullMask: 0 }, { startNodes: [{ node: leaf, instance: 1 }] }).committed, undefined);
});

test('rtv6: sphere and box candidates come from two instances with hit groups 0 and 1', (t) => {
  const scene = proceduralScene('rtv6', 4);
  const as = buildAccelerationStructure(scene);
  const seen = new Set<string>();
  const dir = randomDirections(9);
  for (let i = 0; i < 200; i++) {
    const d = dir();
    const o: [number, number, number] = [4, 4.5, 12];
    const q = ray({ origin: o, direction: [-4 + 5 * d[0], -0.75 + 0.8 * d[1], -12], tmax: Infinity });
    const r = traverse(as, q);
    t.is(r.committed, undefined);
    for (const c of r.candidates) {
      t.is(c.kind, 'procedural');
      t.is(c.hitGroupIndex, c.instanceIndex);
      seen.add(`${scene.procedurals[c.instanceIndex]!.kind}:${c.hitGroupIndex}`);
    }
    t.deepEqual(r.candidates.map((c) => `${c.instanceIndex}:${c.primitiveIndex}`).sort(), bruteForceAabbHits(scene, o, q.direction, 0, Infinity));
  }
  t.deepEqual([...seen].sort(), ['box:1', 'sphere:0']);
});
