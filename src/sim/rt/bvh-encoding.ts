/**
 * The byte image of an acceleration structure in the simulated address space, node formats as
 * Vulkan-Sim Fig. 7 (little-endian; pointers are 64-byte-unit offsets from `baseAddress` inside
 * internal nodes, absolute 64-bit addresses in instance leaves):
 *
 * BVH header, 64 B (at `rootAddress` of the TLAS and of each BLAS)
 *   0  u64  root node offset in bytes from the header (0: empty BVH)   8 f32[6] root box (min xyz, max xyz)
 *   32 reserved
 * internal node, 64 B
 *   0  u32  first child offset (64-B units)      4  f32[3] quantization origin
 *   16 i8[3] exponents                          19 u8 child count
 *   20 u8[6] child kinds (NODE_KIND)            26 u8[6] qlo x, u8[6] qhi x, ... y, ... z (36 B)
 *   62 u16  reserved
 * instance (top-level) leaf, 128 B
 *   0  u8 kind, u8 instance flags, u8 mask, u8 0   4 u32 custom index   8 u32 SBT offset
 *   12 u32 instance index   16 u64 BLAS header address   24 reserved
 *   32 f32[12] object-to-world   80 f32[12] world-to-object
 * triangle leaf, 64 B
 *   0  u8 kind, u8 geometry flags, u16 0   4 u32 geometry index   8 u32 primitive index
 *   12 f32[9] vertices   48 reserved
 * procedural leaf, 64 B
 *   0  u8 kind, u8 geometry flags, u16 0   4 u32 geometry index   8 u32 primitive index
 *   12 f32[6] AABB   36 reserved
 *
 * Invariant: decoding an internal node's child planes reproduces `as.nodeBounds` of its children
 * bit for bit (dequantizeChild's rounding rule).
 */
import type { AccelerationStructure } from './acceleration-structure.js';
import { NODE_KIND } from './bvh-layout.js';

const NODE_UNIT = 64;

export function encodeAccelerationStructure(as: AccelerationStructure): Uint8Array {
  const image = new Uint8Array(as.totalBytes);
  const view = new DataView(image.buffer);
  const header = (at: number, root: number): void => {
    if (root < 0) return;
    view.setBigUint64(at - as.baseAddress, BigInt(as.nodeAddress[root]! - at), true);
    for (let k = 0; k < 6; k++) view.setFloat32(at - as.baseAddress + 8 + 4 * k, as.nodeBounds[6 * root + k]!, true);
  };
  for (const b of as.blases) header(b.rootAddress, b.rootNode);
  header(as.rootAddress, as.tlasRoot);
  for (let n = 0; n < as.nodeCount; n++) {
    const at = as.nodeAddress[n]! - as.baseAddress;
    const kind = as.nodeKind[n]!;
    if (kind === NODE_KIND.internal) {
      const first = as.childFirst[n]!, count = as.childCount[n]!;
      view.setUint32(at, (as.nodeAddress[first]! - as.baseAddress) / NODE_UNIT, true);
      for (let a = 0; a < 3; a++) {
        view.setFloat32(at + 4 + 4 * a, as.quantOrigin[3 * n + a]!, true);
        view.setInt8(at + 16 + a, as.quantExponent[3 * n + a]!);
      }
      view.setUint8(at + 19, count);
      for (let c = 0; c < count; c++) {
        const child = first + c;
        view.setUint8(at + 20 + c, as.nodeKind[child]!);
        for (let a = 0; a < 3; a++) {
          view.setUint8(at + 26 + 12 * a + c, as.quantPlanes[6 * child + a]!);
          view.setUint8(at + 26 + 12 * a + 6 + c, as.quantPlanes[6 * child + 3 + a]!);
        }
      }
    } else if (kind === NODE_KIND.instanceLeaf) {
      const i = as.leafRef[n]!;
      view.setUint8(at, kind);
      view.setUint8(at + 1, as.instanceFlags[i]! & 0xff);
      view.setUint8(at + 2, as.instanceMask[i]!);
      view.setUint32(at + 4, as.instanceCustomIndex[i]!, true);
      view.setUint32(at + 8, as.instanceSbtOffset[i]!, true);
      view.setUint32(at + 12, i, true);
      view.setBigUint64(at + 16, BigInt(as.blases[as.instanceBlas[i]!]!.rootAddress), true);
      for (let k = 0; k < 12; k++) {
        view.setFloat32(at + 32 + 4 * k, as.instanceObjectToWorld[12 * i + k]!, true);
        view.setFloat32(at + 80 + 4 * k, as.instanceWorldToObject[12 * i + k]!, true);
      }
    } else {
      const r = as.leafRef[n]!;
      const tri = kind === NODE_KIND.triangleLeaf;
      const geom = tri ? as.triGeometry[r]! : as.procGeometry[r]!;
      view.setUint8(at, kind);
      view.setUint8(at + 1, as.blases[as.nodeBlas[n]!]!.geometries[geom]!.flags & 0xff);
      view.setUint32(at + 4, geom, true);
      view.setUint32(at + 8, tri ? as.triPrimitive[r]! : as.procPrimitive[r]!, true);
      const src = tri ? as.triVertices.subarray(9 * r, 9 * r + 9) : as.procBox.subarray(6 * r, 6 * r + 6);
      for (let k = 0; k < src.length; k++) view.setFloat32(at + 12 + 4 * k, src[k]!, true);
    }
  }
  return image;
}

/** Child boxes of the internal node at byte `offset` of `image`, decoded (6 floats per child). */
export function decodeInternalNodeChildBoxes(image: Uint8Array, offset: number): Float32Array {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const count = view.getUint8(offset + 19);
  const out = new Float32Array(6 * count);
  const down = new Float32Array(1);
  for (let a = 0; a < 3; a++) {
    const org = view.getFloat32(offset + 4 + 4 * a, true);
    const s = 2 ** view.getInt8(offset + 16 + a);
    for (let c = 0; c < count; c++) {
      const lo = org + view.getUint8(offset + 26 + 12 * a + c) * s;
      const hi = org + view.getUint8(offset + 26 + 12 * a + 6 + c) * s;
      down[0] = lo;
      out[6 * c + a] = down[0]! > lo ? nextDown(down[0]!) : down[0]!;
      down[0] = hi;
      out[6 * c + 3 + a] = down[0]! < hi ? nextUp(down[0]!) : down[0]!;
    }
  }
  return out;
}

const f = new Float32Array(1);
const u = new Uint32Array(f.buffer);
function nextUp(x: number): number {
  if (x === 0) return 1.401298464324817e-45;
  f[0] = x;
  if (x > 0) u[0]!++; else u[0]!--;
  return f[0]!;
}
function nextDown(x: number): number {
  if (x === 0) return -1.401298464324817e-45;
  f[0] = x;
  if (x > 0) u[0]!--; else u[0]!++;
  return f[0]!;
}
