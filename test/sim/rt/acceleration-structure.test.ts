import test from 'ava';
import {
  BVH_HEADER_BYTES,
  AccelerationStructureError, buildAccelerationStructure, buildAccelerationStructureFromDescriptions, GEOMETRY_FLAG, invertTransform, nodeSize,
  type AccelerationStructure,
} from '../../../src/sim/rt/acceleration-structure.js';
import { NODE_KIND } from '../../../src/sim/rt/bvh-layout.js';
import { loadObjScene } from '../../../src/sim/rt/load-obj.js';
import { proceduralScene } from '../../../src/sim/rt/procedural-scenes.js';
import { maxTreeDepth } from '../../../src/sim/rt/rt-stats.js';

function checkStructure(t: import('ava').ExecutionContext, as: AccelerationStructure): void {
  const width = as.width;
  // Fig. 7 sizes; addresses increasing, non-overlapping, each BVH 256-B aligned.
  const byAddress = Array.from({ length: as.nodeCount }, (_, n) => n).sort((a, b) => as.nodeAddress[a]! - as.nodeAddress[b]!);
  for (let k = 0; k < as.nodeCount; k++) {
    const n = byAddress[k]!;
    const size = nodeSize(as, n);
    t.is(size, as.nodeKind[n] === NODE_KIND.instanceLeaf ? 128 : 64);
    if (as.nodeAddress[n]! % 64 !== 0) { t.fail(`node ${n} is not 64-B aligned`); return; }
    if (k + 1 < as.nodeCount && as.nodeAddress[n]! + size > as.nodeAddress[byAddress[k + 1]!]!) { t.fail(`node ${n} overlaps the next node`); return; }
    if (as.layout === 'breadthFirst' && k !== n) { t.fail('breadth-first layout places nodes in id order'); return; }
  }
  // Each BVH starts 256-B aligned with its header; the root node follows it.
  for (const b of as.blases) if (b.nodeCount > 0) { t.is(b.rootAddress % 256, 0); t.is(as.nodeAddress[b.rootNode], b.rootAddress + BVH_HEADER_BYTES); }
  if (as.tlasRoot >= 0) { t.is(as.rootAddress % 256, 0); t.is(as.nodeAddress[as.tlasRoot], as.rootAddress + BVH_HEADER_BYTES); }
  t.true(as.baseAddress + as.totalBytes >= as.nodeAddress[as.nodeCount - 1]! + nodeSize(as, as.nodeCount - 1));
  // Internal nodes: 1..width consecutive children with consecutive addresses, parent links, boxes contain children's subtrees.
  for (let n = 0; n < as.nodeCount; n++) {
    if (as.nodeKind[n] !== NODE_KIND.internal) { t.is(as.childCount[n], 0); continue; }
    const first = as.childFirst[n]!, count = as.childCount[n]!;
    if (count < 1 || count > width) { t.fail(`node ${n} has ${count} children`); return; }
    let addr = as.nodeAddress[first]!;
    for (let c = first; c < first + count; c++) {
      if (as.nodeParent[c] !== n || as.nodeAddress[c] !== addr || as.nodeDepth[c] !== as.nodeDepth[n]! + 1 || as.nodeBlas[c] !== as.nodeBlas[n]) { t.fail(`child ${c} of ${n} is inconsistent`); return; }
      addr += nodeSize(as, c);
    }
  }
  // Every box contains the boxes of its subtree's leaves (checked against the exact leaf geometry).
  const leafBox = (n: number): number[] => {
    const r = as.leafRef[n]!;
    if (as.nodeKind[n] === NODE_KIND.triangleLeaf) {
      const v = as.triVertices.subarray(9 * r, 9 * r + 9);
      return [0, 1, 2].map((a) => Math.min(v[a]!, v[3 + a]!, v[6 + a]!)).concat([0, 1, 2].map((a) => Math.max(v[a]!, v[3 + a]!, v[6 + a]!)));
    }
    if (as.nodeKind[n] === NODE_KIND.proceduralLeaf) return Array.from(as.procBox.subarray(6 * r, 6 * r + 6));
    // Instance leaf: the BLAS root box transformed to world space, shrunk by a float32 ulp margin.
    const root = as.blases[as.instanceBlas[r]!]!.rootNode;
    const b = as.nodeBounds.subarray(6 * root, 6 * root + 6);
    const m = as.instanceObjectToWorld.subarray(12 * r, 12 * r + 12);
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let c = 0; c < 8; c++) {
      const p = [b[c & 1 ? 3 : 0]!, b[c & 2 ? 4 : 1]!, b[c & 4 ? 5 : 2]!];
      for (let a = 0; a < 3; a++) {
        const w = m[4 * a]! * p[0]! + m[4 * a + 1]! * p[1]! + m[4 * a + 2]! * p[2]! + m[4 * a + 3]!;
        lo[a] = Math.min(lo[a]!, w); hi[a] = Math.max(hi[a]!, w);
      }
    }
    const eps = 1e-6 * Math.max(1, ...hi.map(Math.abs), ...lo.map(Math.abs));
    return lo.map((v) => v + eps).concat(hi.map((v) => v - eps));
  };
  for (let n = 0; n < as.nodeCount; n++) {
    if (as.nodeKind[n] === NODE_KIND.internal) continue;
    const lb = leafBox(n);
    for (let p = as.nodeParent[n]!; p >= 0; p = as.nodeParent[p]!) {
      for (let a = 0; a < 3; a++) {
        if (as.nodeBounds[6 * p + a]! > lb[a]! || as.nodeBounds[6 * p + 3 + a]! < lb[3 + a]!) { t.fail(`node ${p} does not contain leaf ${n}`); return; }
      }
    }
  }
  // Each active primitive reachable exactly once per BLAS.
  as.blases.forEach((b, bi) => {
    const seen = new Set<string>();
    for (let n = b.firstNode; n < b.firstNode + b.nodeCount; n++) {
      const k = as.nodeKind[n]!;
      if (k === NODE_KIND.internal) continue;
      const r = as.leafRef[n]!;
      const key = k === NODE_KIND.triangleLeaf ? `${as.triGeometry[r]}:${as.triPrimitive[r]}` : `${as.procGeometry[r]}:${as.procPrimitive[r]}`;
      if (seen.has(key)) { t.fail(`BLAS ${bi} primitive ${key} appears twice`); return; }
      seen.add(key);
    }
    t.is(seen.size, b.primitiveCount);
  });
}

test('bunny BLAS (6- and 4-wide): Fig. 7 sizes, addresses, containment, every triangle once', (t) => {
  const scene = loadObjScene('/work/shared/scenes/common-3d-test-models/stanford-bunny.obj');
  for (const width of [6, 4] as const) {
    const as = buildAccelerationStructure(scene, { width, baseAddress: 0x1000_0000 });
    t.is(as.width, width);
    t.is(as.blases[0]!.primitiveCount, 69451);
    t.is(as.baseAddress, 0x1000_0000);
    t.is(as.blases[0]!.rootAddress, 0x1000_0000);
    t.is(as.nodeAddress[0], 0x1000_0000 + BVH_HEADER_BYTES);
    checkStructure(t, as);
    t.true(maxTreeDepth(as) > 5);
    checkStructure(t, buildAccelerationStructure(scene, { width, layout: 'treelet' }));
  }
});

test('scenes with instances and procedural BLASes are well formed', (t) => {
  for (const name of ['wknd', 'cornell', 'rtv6', 'tri'] as const) {
    const as = buildAccelerationStructure(proceduralScene(name, 5));
    checkStructure(t, as);
    t.true(as.tlasRoot >= 0, name);
    t.is(as.nodeKind[as.tlasRoot], NODE_KIND.internal);
  }
  const cornell = buildAccelerationStructure(proceduralScene('cornell', 0));
  t.is(cornell.instanceCount, 3);
  t.is(cornell.blases.length, 2);
  let instanceLeaves = 0;
  for (let n = 0; n < cornell.nodeCount; n++) if (cornell.nodeKind[n] === NODE_KIND.instanceLeaf) instanceLeaves++;
  t.is(instanceLeaves, 3);
});

test('explicit descriptions: uint16 indices, strides, offsets, firstVertex, inactive primitives', (t) => {
  // Interleaved vertex buffer (position + 1 padding float), stride 16 B.
  const verts = new Float32Array([9, 9, 9, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, NaN, 0, 0, 0]);
  const idx = new Uint16Array([7, 7, 7, 0, 1, 2, 3, 1, 2]);
  const as = buildAccelerationStructureFromDescriptions([{
    geometries: [{ type: 'triangles', vertexData: verts, vertexFormat: 'R32G32B32_SFLOAT', vertexStride: 16, maxVertex: 4, indexType: 'uint16', indexData: idx, flags: GEOMETRY_FLAG.opaque, primitiveCount: 2, primitiveOffset: 6, firstVertex: 1 }],
  }], [{ transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], instanceCustomIndex: 0, mask: 0xff, instanceShaderBindingTableRecordOffset: 0, flags: 0, blas: 0 }]);
  // Primitive 1 starts with vertex 4 (NaN x): inactive.
  t.is(as.blases[0]!.primitiveCount, 1);
  t.deepEqual(Array.from(as.triVertices.subarray(0, 9)), [0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const aabbData = new Float32Array([0, 0, 0, 1, 1, 1, 99, 99, 2, 2, 2, 3, 3, 3, 99, 99]);
  const boxes = buildAccelerationStructureFromDescriptions([{ geometries: [{ type: 'aabbs', data: aabbData, stride: 32, flags: 0, primitiveCount: 2, primitiveOffset: 0 }] }], []);
  t.is(boxes.blases[0]!.primitiveCount, 2);
  // The 8 bytes of padding after each record (the 99s) are skipped by the 32-B stride.
  const records = [0, 1].map((r) => Array.from(boxes.procBox.subarray(6 * r, 6 * r + 6))).sort((a, b) => a[0]! - b[0]!);
  t.deepEqual(records, [[0, 0, 0, 1, 1, 1], [2, 2, 2, 3, 3, 3]]);
  t.is(boxes.tlasRoot, -1);
});

test('explicit descriptions: user mistakes raise AccelerationStructureError naming the field', (t) => {
  const tri = { type: 'triangles' as const, vertexData: new Float32Array(9), vertexFormat: 'R32G32B32_SFLOAT' as const, vertexStride: 12, maxVertex: 2, indexType: 'none' as const, flags: 0, primitiveCount: 1, primitiveOffset: 0, firstVertex: 0 };
  const inst = { transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], instanceCustomIndex: 0, mask: 0xff, instanceShaderBindingTableRecordOffset: 0, flags: 0, blas: 0 };
  const err = (f: () => unknown, msg: RegExp): void => { const e = t.throws(f, { instanceOf: AccelerationStructureError }); t.regex(e!.message, msg); };
  err(() => buildAccelerationStructureFromDescriptions([{ geometries: [{ ...tri, primitiveCount: 2 }] }], []), /blases\[0\]\.geometries\[0\]/);
  err(() => buildAccelerationStructureFromDescriptions([{ geometries: [tri] }], [{ ...inst, blas: 3 }]), /instances\[0\]\.blas/);
  err(() => buildAccelerationStructureFromDescriptions([{ geometries: [tri] }], [{ ...inst, transform: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }]), /instances\[0\].*singular/);
  err(() => buildAccelerationStructureFromDescriptions([{ geometries: [{ ...tri, vertexStride: 4 }] }], []), /vertexStride/);
  err(() => buildAccelerationStructureFromDescriptions([{ geometries: [tri, { type: 'aabbs', data: new Float32Array(6), stride: 24, flags: 0, primitiveCount: 1, primitiveOffset: 0 }] }], []), /mixes/);
  err(() => buildAccelerationStructureFromDescriptions([{ geometries: [{ type: 'aabbs', data: new Float32Array([1, 0, 0, 0, 1, 1]), stride: 24, flags: 0, primitiveCount: 1, primitiveOffset: 0 }] }], []), /min > max/);
});

test('invertTransform inverts affine 3x4 matrices', (t) => {
  const m = [0, 0, 2, 10, 0, 3, 0, -1, -2, 0, 0, 4];
  const inv = invertTransform(m, 'm');
  const p = [0.5, -2, 7];
  const w = [0, 1, 2].map((r) => m[4 * r]! * p[0]! + m[4 * r + 1]! * p[1]! + m[4 * r + 2]! * p[2]! + m[4 * r + 3]!);
  const back = [0, 1, 2].map((r) => inv[4 * r]! * w[0]! + inv[4 * r + 1]! * w[1]! + inv[4 * r + 2]! * w[2]! + inv[4 * r + 3]!);
  back.forEach((v, i) => t.true(Math.abs(v - p[i]!) < 1e-5));
});
