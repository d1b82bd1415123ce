import test from 'ava';
import { fileURLToPath } from 'node:url';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { depthFromTlasRoot, goUpAncestor } from '../../../src/sim/rt/bvh-ancestors.js';
import { NODE_KIND } from '../../../src/sim/rt/bvh-layout.js';
import { loadObjScene } from '../../../src/sim/rt/load-obj.js';

const bunny = fileURLToPath(new URL('../../../workloads/scenes/stanford-bunny.obj', import.meta.url));

test('Go Up Level k: the k-th parent inside the BLAS, then the instance leaf and the TLAS, stopping at the TLAS root', (t) => {
  const as = buildAccelerationStructure(loadObjScene(bunny));
  let leaf = -1;
  for (let n = 0; n < as.nodeCount; n++) if (as.nodeKind[n] === NODE_KIND.triangleLeaf && as.nodeDepth[n]! >= 4) { leaf = n; break; }
  t.true(leaf >= 0);
  const start = { node: leaf, instance: 0 };
  t.deepEqual(goUpAncestor(as, start, 0), start);
  t.deepEqual(goUpAncestor(as, start, 1), { node: as.nodeParent[leaf]!, instance: 0 });
  t.deepEqual(goUpAncestor(as, start, 3), { node: as.nodeParent[as.nodeParent[as.nodeParent[leaf]!]!]!, instance: 0 });
  // Past the BLAS root: the TLAS instance leaf, then the TLAS up to its root.
  const d = as.nodeDepth[leaf]!;
  const blasRoot = goUpAncestor(as, start, d);
  t.is(as.nodeParent[blasRoot.node], -1);
  t.is(blasRoot.instance, 0);
  const instLeaf = goUpAncestor(as, start, d + 1);
  t.is(instLeaf.instance, -1);
  t.is(as.nodeKind[instLeaf.node], NODE_KIND.instanceLeaf);
  t.deepEqual(goUpAncestor(as, start, 1000), { node: as.tlasRoot, instance: -1 });
  // Depth from the TLAS root decreases by one per level.
  t.is(depthFromTlasRoot(as, start) - depthFromTlasRoot(as, goUpAncestor(as, start, 2)), 2);
});
