import test from 'ava';
import { binarySahCost, buildBinaryBvh, type BinaryBvh } from '../../../src/sim/rt/bvh-build.js';
import { loadObjScene } from '../../../src/sim/rt/load-obj.js';

function triangleBoxes(positions: Float32Array, indices: Uint32Array): Float32Array {
  const n = indices.length / 3;
  const boxes = new Float32Array(6 * n);
  for (let p = 0; p < n; p++) {
    for (let a = 0; a < 3; a++) {
      const v = [0, 1, 2].map((k) => positions[3 * indices[3 * p + k]! + a]!);
      boxes[6 * p + a] = Math.min(...v);
      boxes[6 * p + 3 + a] = Math.max(...v);
    }
  }
  return boxes;
}

function checkBinary(t: import('ava').ExecutionContext, bvh: BinaryBvh, boxes: Float32Array): void {
  const n = boxes.length / 6;
  const seen = new Uint8Array(n);
  const stack = [0];
  let leaves = 0;
  while (stack.length) {
    const node = stack.pop()!;
    const b = bvh.bounds.subarray(6 * node, 6 * node + 6);
    if (bvh.left[node]! < 0) {
      leaves++;
      const p = bvh.order[bvh.primStart[node]!]!;
      seen[p]!++;
      for (let a = 0; a < 3; a++) {
        if (b[a] !== boxes[6 * p + a] || b[3 + a] !== boxes[6 * p + 3 + a]) { t.fail(`leaf ${node} box is not its primitive's box`); return; }
      }
      continue;
    }
    for (const c of [bvh.left[node]!, bvh.right[node]!]) {
      for (let a = 0; a < 3; a++) {
        if (bvh.bounds[6 * c + a]! < b[a]! || bvh.bounds[6 * c + 3 + a]! > b[3 + a]!) { t.fail(`child ${c} escapes parent ${node}`); return; }
      }
      stack.push(c);
    }
  }
  t.is(leaves, n);
  t.true(seen.every((s) => s === 1), 'every primitive reachable exactly once');
  t.is(bvh.nodeCount, 2 * n - 1);
}

test('binned SAH on the bunny: valid tree, cheaper than an object-median split', (t) => {
  const scene = loadObjScene('/work/shared/scenes/common-3d-test-models/stanford-bunny.obj');
  const m = scene.meshes[0]!;
  t.is(m.indices.length / 3, 69451);
  const boxes = triangleBoxes(m.positions, m.indices);
  const sah = buildBinaryBvh(boxes, 'sah');
  const median = buildBinaryBvh(boxes, 'median');
  checkBinary(t, sah, boxes);
  checkBinary(t, median, boxes);
  const cs = binarySahCost(sah), cm = binarySahCost(median);
  t.log(`SAH cost: binned SAH ${cs.toFixed(1)}, median ${cm.toFixed(1)}`);
  t.true(cs < cm);
});

test('degenerate input (all centroids equal) still yields a valid tree', (t) => {
  const boxes = new Float32Array(6 * 37);
  for (let i = 0; i < 37; i++) boxes.set([0, 0, 0, 1, 1, 1], 6 * i);
  const bvh = buildBinaryBvh(boxes);
  checkBinary(t, bvh, boxes);
});

test('empty and single-primitive inputs', (t) => {
  t.is(buildBinaryBvh(new Float32Array(0)).nodeCount, 0);
  const one = buildBinaryBvh(new Float32Array([0, 1, 2, 3, 4, 5]));
  t.is(one.nodeCount, 1);
  t.is(one.left[0], -1);
});
