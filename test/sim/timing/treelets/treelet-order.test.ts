import test from 'ava';
import { treeletSegments } from '../../../../src/sim/timing/treelets/treelet-order.js';
import type { RtTransaction } from '../../../../src/sim/warp-step.js';

const node = (treelet: number, k: number): RtTransaction => ({ address: 0x4000_0000 + treelet * 8192 + k * 64, size: 64, kind: 'internal' });
const map = new Map<number, number>();
for (let t = 0; t < 3; t++) for (let k = 0; k < 128; k++) map.set(node(t, k).address, t);

test('treeletSegments regroups a ray treelet by treelet in first-visit order (treelet stack order)', (t) => {
  const tx = [node(0, 0), node(2, 0), node(0, 1), { address: 0x9000, size: 32, kind: 'stackSpill' as const }, node(1, 3), node(2, 1), node(0, 2)];
  const s = treeletSegments(tx, map);
  t.deepEqual(s.segTreelet, [0, 2, 1]);
  t.deepEqual(s.segEnd, [4, 6, 7]);
  t.deepEqual(s.tx, [node(0, 0), node(0, 1), tx[3]!, node(0, 2), node(2, 0), node(2, 1), node(1, 3)], 'the spill stays with the node before it');
  const one = treeletSegments([node(1, 0), node(1, 1)], map);
  t.deepEqual(one.segTreelet, [1]);
});

