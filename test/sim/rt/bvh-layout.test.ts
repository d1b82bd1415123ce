import test from 'ava';
import { buildBinaryBvh } from '../../../src/sim/rt/bvh-build.js';
import { collapseToWide, NODE_KIND, NODE_SIZE, quantizeChildBoxes } from '../../../src/sim/rt/bvh-layout.js';
import { randomDirections } from './reference-tracer.js';

test('Fig. 7 node sizes', (t) => {
  t.is(NODE_SIZE[NODE_KIND.internal], 64);
  t.is(NODE_SIZE[NODE_KIND.instanceLeaf], 128);
  t.is(NODE_SIZE[NODE_KIND.triangleLeaf], 64);
  t.is(NODE_SIZE[NODE_KIND.proceduralLeaf], 64);
});

function randomBoxes(n: number, seed: number): Float32Array {
  const r = randomDirections(seed);
  const boxes = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const c = r(), e = r();
    for (let a = 0; a < 3; a++) {
      boxes[6 * i + a] = 100 * c[a]! - 0.5 * Math.abs(e[a]!);
      boxes[6 * i + 3 + a] = 100 * c[a]! + 0.5 * Math.abs(e[a]!);
    }
  }
  return boxes;
}

test('collapse: BFS ids, consecutive children, width respected, nodes mostly full', (t) => {
  const boxes = randomBoxes(5000, 1);
  for (const width of [4, 6]) {
    const w = collapseToWide(buildBinaryBvh(boxes), width);
    const seen = new Uint8Array(5000);
    let internal = 0, children = 0;
    for (let n = 0; n < w.nodeCount; n++) {
      if (w.isLeaf[n]) { seen[w.prim[n]!]!++; continue; }
      internal++;
      children += w.childCount[n]!;
      t.true(w.childCount[n]! >= 2 && w.childCount[n]! <= width);
      t.true(w.childFirst[n]! > n);
      for (let c = w.childFirst[n]!; c < w.childFirst[n]! + w.childCount[n]!; c++) t.is(w.parent[c], n);
    }
    t.true(seen.every((s) => s === 1));
    t.is(w.nodeCount, internal + 5000);
    // The SAH collapse fills most slots (a binary-like tree would have fan-out 2).
    t.true(children / internal > 0.6 * width, `average fan-out ${children / internal}`);
    // Breadth-first: depth never decreases with id.
    for (let n = 1; n < w.nodeCount; n++) t.true(w.depth[n]! >= w.depth[n - 1]!);
  }
});

test('one primitive: the root is still an internal node with one leaf child', (t) => {
  const w = collapseToWide(buildBinaryBvh(new Float32Array([0, 0, 0, 1, 1, 1])), 6);
  t.is(w.nodeCount, 2);
  t.is(w.isLeaf[0], 0);
  t.is(w.childCount[0], 1);
  t.is(w.prim[1], 0);
});

test('quantized child boxes are conservative and tight (within one 8-bit step)', (t) => {
  const boxes = randomBoxes(6, 3);
  const out = new Float32Array(36);
  quantizeChildBoxes(boxes, 0, 6, out, 0);
  let ux0 = Infinity, ux1 = -Infinity;
  for (let i = 0; i < 6; i++) { ux0 = Math.min(ux0, boxes[6 * i]!); ux1 = Math.max(ux1, boxes[6 * i + 3]!); }
  const step = (ux1 - ux0) / 255;
  for (let i = 0; i < 36; i++) {
    const isMin = i % 6 < 3;
    t.true(isMin ? out[i]! <= boxes[i]! : out[i]! >= boxes[i]!);
    t.true(Math.abs(out[i]! - boxes[i]!) <= 2 * step * 1.0001 + 1e-6, `plane ${i}`);
  }
  // Degenerate (flat) boxes stay valid.
  const flat = new Float32Array([1, 2, 3, 1, 2, 3]);
  const o2 = new Float32Array(6);
  quantizeChildBoxes(flat, 0, 1, o2, 0);
  for (let a = 0; a < 3; a++) t.true(o2[a]! <= flat[a]! && o2[3 + a]! >= flat[3 + a]!);
});
