import test from 'ava';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { nodeSize } from '../../../src/sim/rt/acceleration-structure.js';
import { loadObjScene } from '../../../src/sim/rt/load-obj.js';
import { proceduralScene } from '../../../src/sim/rt/procedural-scenes.js';
import { traverse } from '../../../src/sim/rt/traversal.js';
import { randomDirections } from './reference-tracer.js';

const bunny = loadObjScene('/work/shared/scenes/common-3d-test-models/stanford-bunny.obj');

test('treelets: within budget, connected, packed contiguously with the treelet layout', (t) => {
  const as = buildAccelerationStructure(bunny, { layout: 'treelet', treeletBytes: 8192 });
  const count = as.treeletBytes.length;
  t.true(count > 10);
  const bytes = new Array<number>(count).fill(0);
  const lo = new Array<number>(count).fill(Infinity), hi = new Array<number>(count).fill(-Infinity);
  const roots = new Array<number>(count).fill(0);
  for (let n = 0; n < as.nodeCount; n++) {
    const tr = as.nodeTreelet[n]!;
    t.true(tr >= 0 && tr < count);
    bytes[tr]! += nodeSize(as, n);
    lo[tr] = Math.min(lo[tr]!, as.nodeAddress[n]!);
    hi[tr] = Math.max(hi[tr]!, as.nodeAddress[n]! + nodeSize(as, n));
    const p = as.nodeParent[n]!;
    // A node outside its parent's treelet starts a treelet: its whole sibling group does.
    if (p < 0 || as.nodeTreelet[p] !== tr) roots[tr]!++;
  }
  bytes.forEach((b, i) => {
    t.is(b, as.treeletBytes[i]);
    t.true(b <= 8192);
    t.is(hi[i]! - lo[i]!, b, `treelet ${i} is contiguous`);
  });
  // Each treelet is entered through exactly one child group (or the root).
  for (let i = 0; i < count; i++) t.true(roots[i]! >= 1 && roots[i]! <= 6);
  // Growth stops only when the next child group does not fit: a treelet that hands a child group
  // to another treelet is within one group (6 x 128 B at most) of the budget.
  const cut = new Array<boolean>(count).fill(false);
  for (let n = 0; n < as.nodeCount; n++) {
    const p = as.nodeParent[n]!;
    if (p >= 0 && as.nodeTreelet[p] !== as.nodeTreelet[n]) cut[as.nodeTreelet[p]!] = true;
  }
  t.true(cut.filter(Boolean).length > 0);
  cut.forEach((c, i) => { if (c) t.true(bytes[i]! > 8192 - 6 * 128, `treelet ${i}: ${bytes[i]} B`); });
});

test('the treelet layout changes addresses, not traversal results or node ids', (t) => {
  for (const scene of [bunny, proceduralScene('wknd', 2)]) {
    const bfs = buildAccelerationStructure(scene);
    const tl = buildAccelerationStructure(scene, { layout: 'treelet', treeletBytes: 2048 });
    t.deepEqual(bfs.nodeKind, tl.nodeKind);
    t.deepEqual(bfs.nodeParent, tl.nodeParent);
    t.notDeepEqual(bfs.nodeAddress, tl.nodeAddress);
    const dir = randomDirections(5);
    const origin: [number, number, number] = scene.name === 'wknd' ? [13, 2, 3] : [0, 0.1, 0.5];
    for (let i = 0; i < 50; i++) {
      const d = dir();
      const q = { origin, direction: [-origin[0] + d[0], -origin[1] + d[1], -origin[2] + d[2]] as [number, number, number], tmin: 0, tmax: Infinity, flags: 0, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 1 };
      const a = traverse(bfs, q), b = traverse(tl, q);
      t.deepEqual(a.committed, b.committed);
      t.deepEqual(a.candidates, b.candidates);
      t.is(a.nodesVisited, b.nodesVisited);
    }
  }
});
