import test from 'ava';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { decodeInternalNodeChildBoxes, encodeAccelerationStructure } from '../../../src/sim/rt/bvh-encoding.js';
import { NODE_KIND } from '../../../src/sim/rt/bvh-layout.js';
import { proceduralScene } from '../../../src/sim/rt/procedural-scenes.js';
import { loadObjScene } from '../../../src/sim/rt/load-obj.js';

test('encoded internal nodes decode to the boxes traversal tests; leaves carry their data', (t) => {
  for (const scene of [loadObjScene('/work/shared/scenes/common-3d-test-models/teapot.obj'), proceduralScene('cornell', 0), proceduralScene('rtv6', 2)]) {
    const as = buildAccelerationStructure(scene, { baseAddress: 0x4000 });
    const image = encodeAccelerationStructure(as);
    t.is(image.length, as.totalBytes);
    const view = new DataView(image.buffer);
    for (let n = 0; n < as.nodeCount; n++) {
      const at = as.nodeAddress[n]! - as.baseAddress;
      const kind = as.nodeKind[n]!;
      if (kind === NODE_KIND.internal) {
        const first = as.childFirst[n]!;
        t.is(view.getUint32(at, true) * 64 + as.baseAddress, as.nodeAddress[first]);
        const boxes = decodeInternalNodeChildBoxes(image, at);
        const expected = as.nodeBounds.subarray(6 * first, 6 * (first + as.childCount[n]!));
        if (!boxes.every((v, i) => v === expected[i])) { t.fail(`node ${n} decodes differently`); return; }
      } else if (kind === NODE_KIND.instanceLeaf) {
        const i = as.leafRef[n]!;
        t.is(Number(view.getBigUint64(at + 16, true)), as.blases[as.instanceBlas[i]!]!.rootAddress);
        t.is(view.getUint32(at + 8, true), as.instanceSbtOffset[i]);
        t.is(view.getFloat32(at + 32 + 12, true), as.instanceObjectToWorld[12 * i + 3]);
      } else {
        t.is(view.getUint8(at), kind);
        const r = as.leafRef[n]!;
        t.is(view.getUint32(at + 8, true), kind === NODE_KIND.triangleLeaf ? as.triPrimitive[r] : as.procPrimitive[r]);
      }
    }
  }
});
