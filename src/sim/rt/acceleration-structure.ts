/**
 * Two-level acceleration structure: one BLAS per mesh / procedural geometry (or per explicit
 * Vulkan-style BLAS description) and a TLAS over the instances, all laid out as wide BVHs
 * (bvh-layout.ts) in one simulated address space.
 *
 * Invariants:
 * - Node ids are dense 0..nodeCount-1 and deterministic: BLAS 0's nodes, BLAS 1's, ..., then the
 *   TLAS. Within one BVH ids are breadth-first, so children of a node are consecutive ids and
 *   consecutive addresses (first-child pointer encoding).
 * - Every BVH starts 256-B aligned with its 64-byte header (`BVH_HEADER_BYTES`, Vulkan-Sim's
 *   GEN_RT_BVH: the root node's offset and the BVH's box), which `rootAddress` points at; its
 *   root node follows the header. Nodes never overlap; with the default breadth-first
 *   layout `nodeAddress[i] + nodeSize(i) <= nodeAddress[i + 1]`; with the treelet layout each
 *   treelet is contiguous. `totalBytes` spans all BVHs from `baseAddress`.
 * - `nodeBounds` of a non-root node is its dequantized box as stored in its parent (contains the
 *   exact subtree box); of a root, the exact box.
 * - Every active primitive appears in exactly one leaf of its BLAS; primitives with a NaN first
 *   vertex / AABB minimum are inactive (Vulkan spec) and appear nowhere; instances whose BLAS is
 *   empty are left out of the TLAS but keep their instance index.
 */
import { buildBinaryBvh } from './bvh-build.js';
import { collapseToWide, dequantizeChild, NODE_KIND, NODE_SIZE, quantizeChildren, type WideBvh } from './bvh-layout.js';
import type { Scene } from './scene.js';
import { formTreelets } from './treelets.js';

/** Bytes of a BVH's header (Vulkan-Sim / Mesa GEN_RT_BVH_length 16 dwords), read by a traversal before the root. */
export const BVH_HEADER_BYTES = 64;

/** VkGeometryFlagBitsKHR. */
export const GEOMETRY_FLAG = {
  opaque: 0x1,
  noDuplicateAnyHitInvocation: 0x2,
} as const;

export class AccelerationStructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccelerationStructureError';
  }
}

export type VertexFormat = 'R32G32B32_SFLOAT' | 'R32G32B32A32_SFLOAT' | 'R32G32_SFLOAT';
export type IndexType = 'uint16' | 'uint32' | 'none';

/** VkAccelerationStructureGeometryTrianglesDataKHR + its build range. */
export interface TrianglesGeometryDescription {
  type: 'triangles';
  vertexData: ArrayBuffer | ArrayBufferView;
  vertexFormat: VertexFormat;
  /** Bytes between consecutive vertices. */
  vertexStride: number;
  maxVertex: number;
  indexType: IndexType;
  indexData?: ArrayBuffer | ArrayBufferView;
  /** Optional 3x4 row-major transform applied to the vertices at build time. */
  transformData?: ArrayLike<number>;
  /** `GEOMETRY_FLAG` bits. */
  flags: number;
  primitiveCount: number;
  /** Bytes into the index buffer (or the vertex buffer when indexType is 'none'). */
  primitiveOffset: number;
  /** Added to every index. */
  firstVertex: number;
}

/** VkAccelerationStructureGeometryAabbsDataKHR + its build range. */
export interface AabbsGeometryDescription {
  type: 'aabbs';
  /** VkAabbPositionsKHR records: minX, minY, minZ, maxX, maxY, maxZ as f32. */
  data: ArrayBuffer | ArrayBufferView;
  /** Bytes between records (multiple of 8, at least 24). */
  stride: number;
  flags: number;
  primitiveCount: number;
  primitiveOffset: number;
}

export type GeometryDescription = TrianglesGeometryDescription | AabbsGeometryDescription;

export interface BottomLevelDescription {
  /** All geometries of one BLAS share its type (Vulkan requires it). */
  geometries: GeometryDescription[];
}

/** VkAccelerationStructureInstanceKHR, referencing a BLAS by its index. */
export interface InstanceDescription {
  transform: ArrayLike<number>;
  instanceCustomIndex: number;
  mask: number;
  instanceShaderBindingTableRecordOffset: number;
  flags: number;
  blas: number;
}

export interface BuildOptions {
  /** BVH width: 6 (Mesa / Vulkan-Sim, default) or 4. */
  width?: 4 | 6;
  /** Address of the first byte of the acceleration structure in the simulated address space. */
  baseAddress?: number;
  /**
   * Node placement inside each BVH: 'breadthFirst' (node id order, default) or 'treelet'
   * (each treelet contiguous, as the treelet paper packs them). Node ids are the same either way.
   */
  layout?: 'breadthFirst' | 'treelet';
  /** Treelet budget in bytes (default 8192: half the treelet paper's 16 KB L1). */
  treeletBytes?: number;
}

export interface BlasInfo {
  type: 'triangles' | 'aabbs';
  rootNode: number;
  /** The BLAS's header (the address an instance leaf points at). */
  rootAddress: number;
  firstNode: number;
  nodeCount: number;
  bytes: number;
  primitiveCount: number;
  maxDepth: number;
  geometries: { flags: number; primitiveCount: number }[];
}

export interface AccelerationStructure {
  width: 4 | 6;
  nodeCount: number;
  /** `NODE_KIND` per node. */
  nodeKind: Uint8Array;
  nodeAddress: Float64Array;
  nodeParent: Int32Array;
  /** Depth within the node's own BVH (root 0). */
  nodeDepth: Uint16Array;
  /** -1 for TLAS nodes, else the BLAS index. */
  nodeBlas: Int32Array;
  childFirst: Int32Array;
  childCount: Uint8Array;
  /** Box per node, see invariants. */
  nodeBounds: Float32Array;
  /** Internal nodes: float32 quantization origin (3 per node). */
  quantOrigin: Float32Array;
  /** Internal nodes: power-of-two exponent per axis (3 per node). */
  quantExponent: Int8Array;
  /** Non-root nodes: their 8-bit planes in the parent (qlo xyz, qhi xyz; 6 per node). */
  quantPlanes: Uint8Array;
  /** Treelet id per node (treelets never span two BVHs; ids dense, BLAS 0's first). */
  nodeTreelet: Int32Array;
  /** Bytes per treelet. */
  treeletBytes: number[];
  layout: 'breadthFirst' | 'treelet';
  /** Leaf -> triangle record, procedural record or instance index; -1 for internal nodes. */
  leafRef: Int32Array;
  triVertices: Float32Array;
  triGeometry: Uint32Array;
  triPrimitive: Uint32Array;
  procBox: Float32Array;
  procGeometry: Uint32Array;
  procPrimitive: Uint32Array;
  blases: BlasInfo[];
  instanceCount: number;
  instanceObjectToWorld: Float32Array;
  instanceWorldToObject: Float32Array;
  instanceCustomIndex: Uint32Array;
  instanceMask: Uint8Array;
  instanceSbtOffset: Uint32Array;
  instanceFlags: Uint32Array;
  instanceBlas: Int32Array;
  /** TLAS root node id, -1 when no instance is active. */
  tlasRoot: number;
  tlasNodeCount: number;
  tlasMaxDepth: number;
  /** The TLAS's header. */
  rootAddress: number;
  baseAddress: number;
  totalBytes: number;
}

export function nodeSize(as: AccelerationStructure, node: number): number {
  return NODE_SIZE[as.nodeKind[node]!]!;
}

const ALIGN = 256;

function bytesOf(data: ArrayBuffer | ArrayBufferView): DataView {
  if (data instanceof ArrayBuffer) return new DataView(data);
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** Invert a 3x4 affine row-major matrix; throws for a singular one. */
export function invertTransform(m: ArrayLike<number>, what: string): Float32Array {
  const a = m[0]!, b = m[1]!, c = m[2]!, d = m[4]!, e = m[5]!, f = m[6]!, g = m[8]!, h = m[9]!, i = m[10]!;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) throw new AccelerationStructureError(`${what}: transform is singular`);
  const inv = 1 / det;
  const r = [
    A * inv, -(b * i - c * h) * inv, (b * f - c * e) * inv,
    B * inv, (a * i - c * g) * inv, -(a * f - c * d) * inv,
    C * inv, -(a * h - b * g) * inv, (a * e - b * d) * inv,
  ];
  const tx = m[3]!, ty = m[7]!, tz = m[11]!;
  return new Float32Array([
    r[0]!, r[1]!, r[2]!, -(r[0]! * tx + r[1]! * ty + r[2]! * tz),
    r[3]!, r[4]!, r[5]!, -(r[3]! * tx + r[4]! * ty + r[5]! * tz),
    r[6]!, r[7]!, r[8]!, -(r[6]! * tx + r[7]! * ty + r[8]! * tz),
  ]);
}

interface BuiltBlas {
  type: 'triangles' | 'aabbs';
  wide: WideBvh;
  /** Per primitive (BVH input order): geometry index, primitive index. */
  geometry: Uint32Array;
  primitive: Uint32Array;
  /** Triangles: 9 floats per primitive; AABBs: 6 floats per primitive. */
  data: Float32Array;
  geometries: { flags: number; primitiveCount: number }[];
}

function readTriangles(desc: BottomLevelDescription, where: string, width: number): BuiltBlas {
  let total = 0;
  for (const g of desc.geometries) total += g.primitiveCount;
  const verts = new Float32Array(9 * total);
  const geometry = new Uint32Array(total);
  const primitive = new Uint32Array(total);
  let n = 0;
  desc.geometries.forEach((g, gi) => {
    const at = `${where}.geometries[${gi}]`;
    if (g.type !== 'triangles') throw new AccelerationStructureError(`${at}: a BLAS mixes triangles and AABBs`);
    const comps = g.vertexFormat === 'R32G32_SFLOAT' ? 2 : g.vertexFormat === 'R32G32B32_SFLOAT' || g.vertexFormat === 'R32G32B32A32_SFLOAT' ? 3 : -1;
    if (comps < 0) throw new AccelerationStructureError(`${at}.vertexFormat: unsupported format '${String(g.vertexFormat)}'`);
    if (g.vertexStride < 4 * comps) throw new AccelerationStructureError(`${at}.vertexStride: ${g.vertexStride} is smaller than one vertex`);
    const vb = bytesOf(g.vertexData);
    const ib = g.indexType === 'none' ? undefined : g.indexData ? bytesOf(g.indexData) : undefined;
    if (g.indexType !== 'none' && !ib) throw new AccelerationStructureError(`${at}.indexData: missing for indexType '${g.indexType}'`);
    const t = g.transformData;
    if (t && t.length < 12) throw new AccelerationStructureError(`${at}.transformData: needs 12 floats`);
    const isize = g.indexType === 'uint16' ? 2 : 4;
    for (let p = 0; p < g.primitiveCount; p++) {
      const o = 9 * n;
      for (let k = 0; k < 3; k++) {
        let vi: number;
        if (ib) {
          const off = g.primitiveOffset + (3 * p + k) * isize;
          if (off + isize > ib.byteLength) throw new AccelerationStructureError(`${at}.indexData: primitive ${p} reads past the end of the index buffer`);
          vi = (isize === 2 ? ib.getUint16(off, true) : ib.getUint32(off, true)) + g.firstVertex;
        } else {
          vi = 3 * p + k + g.firstVertex;
        }
        if (vi > g.maxVertex) throw new AccelerationStructureError(`${at}: primitive ${p} uses vertex ${vi} > maxVertex ${g.maxVertex}`);
        const voff = (ib ? 0 : g.primitiveOffset) + vi * g.vertexStride;
        if (voff + 4 * comps > vb.byteLength) throw new AccelerationStructureError(`${at}.vertexData: vertex ${vi} lies past the end of the vertex buffer`);
        let x = vb.getFloat32(voff, true), y = vb.getFloat32(voff + 4, true);
        let z = comps === 3 ? vb.getFloat32(voff + 8, true) : 0;
        if (t) {
          const tx = t[0]! * x + t[1]! * y + t[2]! * z + t[3]!;
          const ty = t[4]! * x + t[5]! * y + t[6]! * z + t[7]!;
          const tz = t[8]! * x + t[9]! * y + t[10]! * z + t[11]!;
          x = tx; y = ty; z = tz;
        }
        verts[o + 3 * k] = x; verts[o + 3 * k + 1] = y; verts[o + 3 * k + 2] = z;
      }
      if (Number.isNaN(verts[o]!)) continue; // inactive triangle
      geometry[n] = gi;
      primitive[n] = p;
      n++;
    }
  });
  const data = verts.subarray(0, 9 * n);
  const boxes = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const v = 9 * i, b = 6 * i;
    for (let a = 0; a < 3; a++) {
      const p0 = data[v + a]!, p1 = data[v + 3 + a]!, p2 = data[v + 6 + a]!;
      boxes[b + a] = Math.min(p0, p1, p2);
      boxes[b + 3 + a] = Math.max(p0, p1, p2);
    }
  }
  const wide = collapseToWide(buildBinaryBvh(boxes), width);
  return { type: 'triangles', wide, geometry: geometry.subarray(0, n), primitive: primitive.subarray(0, n), data, geometries: desc.geometries.map((g) => ({ flags: g.flags, primitiveCount: g.primitiveCount })) };
}

function readAabbs(desc: BottomLevelDescription, where: string, width: number): BuiltBlas {
  let total = 0;
  for (const g of desc.geometries) total += g.primitiveCount;
  const boxes = new Float32Array(6 * total);
  const geometry = new Uint32Array(total);
  const primitive = new Uint32Array(total);
  let n = 0;
  desc.geometries.forEach((g, gi) => {
    const at = `${where}.geometries[${gi}]`;
    if (g.type !== 'aabbs') throw new AccelerationStructureError(`${at}: a BLAS mixes triangles and AABBs`);
    if (g.stride < 24 || g.stride % 8 !== 0) throw new AccelerationStructureError(`${at}.stride: ${g.stride} must be a multiple of 8 and at least 24`);
    const db = bytesOf(g.data);
    for (let p = 0; p < g.primitiveCount; p++) {
      const off = g.primitiveOffset + p * g.stride;
      if (off + 24 > db.byteLength) throw new AccelerationStructureError(`${at}.data: primitive ${p} reads past the end of the AABB buffer`);
      const b = 6 * n;
      for (let k = 0; k < 6; k++) boxes[b + k] = db.getFloat32(off + 4 * k, true);
      if (Number.isNaN(boxes[b]!)) continue;
      for (let a = 0; a < 3; a++) {
        if (boxes[b + a]! > boxes[b + 3 + a]!) throw new AccelerationStructureError(`${at}: primitive ${p} has min > max on axis ${'xyz'[a]}`);
      }
      geometry[n] = gi;
      primitive[n] = p;
      n++;
    }
  });
  const data = boxes.subarray(0, 6 * n);
  const wide = collapseToWide(buildBinaryBvh(data), width);
  return { type: 'aabbs', wide, geometry: geometry.subarray(0, n), primitive: primitive.subarray(0, n), data, geometries: desc.geometries.map((g) => ({ flags: g.flags, primitiveCount: g.primitiveCount })) };
}

function buildBlas(desc: BottomLevelDescription, index: number, width: number): BuiltBlas {
  const where = `blases[${index}]`;
  const first = desc.geometries[0];
  return !first || first.type === 'triangles' ? readTriangles(desc, where, width) : readAabbs(desc, where, width);
}

/** World-space box of an instance: the 8 transformed corners of its BLAS root box. */
function transformBox(box: Float32Array, o: number, m: ArrayLike<number>, out: Float32Array, d: number): void {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let c = 0; c < 8; c++) {
    const x = box[o + (c & 1 ? 3 : 0)]!, y = box[o + 1 + (c & 2 ? 3 : 0)]!, z = box[o + 2 + (c & 4 ? 3 : 0)]!;
    const wx = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
    const wy = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
    const wz = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
    x0 = Math.min(x0, wx); y0 = Math.min(y0, wy); z0 = Math.min(z0, wz);
    x1 = Math.max(x1, wx); y1 = Math.max(y1, wy); z1 = Math.max(z1, wz);
  }
  // Round outward: the float32 box must contain the double-precision one.
  const pad = (v: number, dir: number): number => {
    const f = Math.fround(v);
    return dir < 0 ? (f <= v ? f : f - Math.abs(f) * 1.2e-7 - 1e-30) : f >= v ? f : f + Math.abs(f) * 1.2e-7 + 1e-30;
  };
  out[d] = pad(x0, -1); out[d + 1] = pad(y0, -1); out[d + 2] = pad(z0, -1);
  out[d + 3] = pad(x1, 1); out[d + 4] = pad(y1, 1); out[d + 5] = pad(z1, 1);
}

/** Build BLASes and the TLAS exactly from Vulkan-style build descriptions. */
export function buildAccelerationStructureFromDescriptions(
  blasDescs: readonly BottomLevelDescription[],
  instances: readonly InstanceDescription[],
  opts: BuildOptions = {},
): AccelerationStructure {
  const width = opts.width ?? 6;
  if (width !== 4 && width !== 6) throw new AccelerationStructureError(`width: ${String(width)} is not 4 or 6`);
  const baseAddress = opts.baseAddress ?? 0;
  const layout = opts.layout ?? 'breadthFirst';
  const treeletBytes = opts.treeletBytes ?? 8192;
  if (!(treeletBytes >= 128)) throw new AccelerationStructureError(`treeletBytes: ${treeletBytes} is smaller than one node`);
  const built = blasDescs.map((d, i) => buildBlas(d, i, width));

  // Instances.
  const I = instances.length;
  const o2w = new Float32Array(12 * I), w2o = new Float32Array(12 * I);
  const custom = new Uint32Array(I), mask = new Uint8Array(I), sbt = new Uint32Array(I), flags = new Uint32Array(I), iblas = new Int32Array(I);
  const activeInstances: number[] = [];
  instances.forEach((inst, i) => {
    const at = `instances[${i}]`;
    if (!Number.isInteger(inst.blas) || inst.blas < 0 || inst.blas >= built.length) throw new AccelerationStructureError(`${at}.blas: ${inst.blas} is not a BLAS index (0..${built.length - 1})`);
    if (!inst.transform || inst.transform.length < 12) throw new AccelerationStructureError(`${at}.transform: needs 12 floats (3x4 row-major)`);
    for (let k = 0; k < 12; k++) o2w[12 * i + k] = inst.transform[k]!;
    w2o.set(invertTransform(o2w.subarray(12 * i, 12 * i + 12), at), 12 * i);
    custom[i] = inst.instanceCustomIndex & 0xffffff;
    mask[i] = inst.mask & 0xff;
    sbt[i] = inst.instanceShaderBindingTableRecordOffset & 0xffffff;
    flags[i] = inst.flags >>> 0;
    iblas[i] = inst.blas;
    if (built[inst.blas]!.wide.nodeCount > 0) activeInstances.push(i);
  });

  // TLAS over world-space instance boxes.
  const instBoxes = new Float32Array(6 * activeInstances.length);
  activeInstances.forEach((inst, k) => {
    transformBox(built[iblas[inst]!]!.wide.bounds, 0, o2w.subarray(12 * inst, 12 * inst + 12), instBoxes, 6 * k);
  });
  const tlas = collapseToWide(buildBinaryBvh(instBoxes), width);

  // Assemble global arrays.
  let nodeCount = tlas.nodeCount;
  let triCount = 0, procCount = 0;
  for (const b of built) {
    nodeCount += b.wide.nodeCount;
    if (b.type === 'triangles') triCount += b.primitive.length;
    else procCount += b.primitive.length;
  }
  const as: AccelerationStructure = {
    width,
    nodeCount,
    nodeKind: new Uint8Array(nodeCount),
    nodeAddress: new Float64Array(nodeCount),
    nodeParent: new Int32Array(nodeCount).fill(-1),
    nodeDepth: new Uint16Array(nodeCount),
    nodeBlas: new Int32Array(nodeCount),
    childFirst: new Int32Array(nodeCount).fill(-1),
    childCount: new Uint8Array(nodeCount),
    nodeBounds: new Float32Array(6 * nodeCount),
    quantOrigin: new Float32Array(3 * nodeCount),
    quantExponent: new Int8Array(3 * nodeCount),
    quantPlanes: new Uint8Array(6 * nodeCount),
    nodeTreelet: new Int32Array(nodeCount),
    treeletBytes: [],
    layout,
    leafRef: new Int32Array(nodeCount).fill(-1),
    triVertices: new Float32Array(9 * triCount),
    triGeometry: new Uint32Array(triCount),
    triPrimitive: new Uint32Array(triCount),
    procBox: new Float32Array(6 * procCount),
    procGeometry: new Uint32Array(procCount),
    procPrimitive: new Uint32Array(procCount),
    blases: [],
    instanceCount: I,
    instanceObjectToWorld: o2w,
    instanceWorldToObject: w2o,
    instanceCustomIndex: custom,
    instanceMask: mask,
    instanceSbtOffset: sbt,
    instanceFlags: flags,
    instanceBlas: iblas,
    tlasRoot: -1,
    tlasNodeCount: tlas.nodeCount,
    tlasMaxDepth: tlas.maxDepth,
    rootAddress: baseAddress,
    baseAddress,
    totalBytes: 0,
  };

  let nextNode = 0;
  let treeletBase = 0;
  let address = baseAddress;
  let triNext = 0, procNext = 0;
  const blasRootNode: number[] = [];
  const placeBvh = (wide: WideBvh, blasIndex: number, leafKind: number, leafRef: (prim: number) => number): { first: number; bytes: number } => {
    const first = nextNode;
    const start = address;
    address += BVH_HEADER_BYTES;
    const sizeOf = (w: number): number => NODE_SIZE[wide.isLeaf[w] ? leafKind : NODE_KIND.internal]!;
    const treelets = formTreelets(wide, sizeOf, treeletBytes);
    if (layout === 'treelet') {
      // Treelet by treelet, one child group after another: siblings stay consecutive.
      for (const g of treelets.groupOrder) {
        const c0 = g < 0 ? 0 : wide.childFirst[g]!;
        const cn = g < 0 ? 1 : wide.childCount[g]!;
        for (let c = c0; c < c0 + cn; c++) { as.nodeAddress[first + c] = address; address += sizeOf(c); }
      }
    } else {
      for (let w = 0; w < wide.nodeCount; w++) { as.nodeAddress[first + w] = address; address += sizeOf(w); }
    }
    for (let t = 0; t < treelets.treeletCount; t++) as.treeletBytes.push(treelets.treeletBytes[t]!);
    for (let w = 0; w < wide.nodeCount; w++) {
      const id = first + w;
      const kind = wide.isLeaf[w] ? leafKind : NODE_KIND.internal;
      as.nodeKind[id] = kind;
      as.nodeTreelet[id] = treeletBase + treelets.treeletOfNode[w]!;
      as.nodeParent[id] = wide.parent[w]! < 0 ? -1 : first + wide.parent[w]!;
      as.nodeDepth[id] = wide.depth[w]!;
      as.nodeBlas[id] = blasIndex;
      if (wide.isLeaf[w]) {
        as.leafRef[id] = leafRef(wide.prim[w]!);
      } else {
        as.childFirst[id] = first + wide.childFirst[w]!;
        as.childCount[id] = wide.childCount[w]!;
        const q = quantizeChildren(wide.bounds, wide.childFirst[w]!, wide.childCount[w]!);
        as.quantOrigin.set(q.origin, 3 * id);
        as.quantExponent.set(q.exponent, 3 * id);
        const c0 = first + wide.childFirst[w]!;
        as.quantPlanes.set(q.planes, 6 * c0);
        for (let c = 0; c < wide.childCount[w]!; c++) dequantizeChild(q, c, as.nodeBounds, 6 * (c0 + c));
      }
    }
    if (wide.nodeCount > 0) as.nodeBounds.set(wide.bounds.subarray(0, 6), 6 * first);
    nextNode += wide.nodeCount;
    treeletBase += treelets.treeletCount;
    address = Math.ceil(address / ALIGN) * ALIGN;
    return { first, bytes: address - start };
  };

  built.forEach((b, bi) => {
    const rootAddress = address;
    let placed: { first: number; bytes: number };
    if (b.type === 'triangles') {
      placed = placeBvh(b.wide, bi, NODE_KIND.triangleLeaf, (prim) => {
        const r = triNext++;
        as.triVertices.set(b.data.subarray(9 * prim, 9 * prim + 9), 9 * r);
        as.triGeometry[r] = b.geometry[prim]!;
        as.triPrimitive[r] = b.primitive[prim]!;
        return r;
      });
    } else {
      placed = placeBvh(b.wide, bi, NODE_KIND.proceduralLeaf, (prim) => {
        const r = procNext++;
        as.procBox.set(b.data.subarray(6 * prim, 6 * prim + 6), 6 * r);
        as.procGeometry[r] = b.geometry[prim]!;
        as.procPrimitive[r] = b.primitive[prim]!;
        return r;
      });
    }
    blasRootNode.push(b.wide.nodeCount > 0 ? placed.first : -1);
    as.blases.push({
      type: b.type,
      rootNode: b.wide.nodeCount > 0 ? placed.first : -1,
      rootAddress,
      firstNode: placed.first,
      nodeCount: b.wide.nodeCount,
      bytes: placed.bytes,
      primitiveCount: b.primitive.length,
      maxDepth: b.wide.maxDepth,
      geometries: b.geometries,
    });
  });

  as.rootAddress = address;
  const tl = placeBvh(tlas, -1, NODE_KIND.instanceLeaf, (k) => activeInstances[k]!);
  as.tlasRoot = tlas.nodeCount > 0 ? tl.first : -1;
  as.totalBytes = address - baseAddress;
  return as;
}

/**
 * Build from a Scene the way the host side of a Vulkan application would: one triangle BLAS per
 * mesh (one geometry, opaque per `mesh.opaque`), one AABB BLAS per procedural geometry, and one
 * TLAS instance per scene instance.
 */
export function buildAccelerationStructure(scene: Scene, opts: BuildOptions = {}): AccelerationStructure {
  const { blases, instances } = sceneAccelerationDescriptions(scene);
  return buildAccelerationStructureFromDescriptions(blases, instances, opts);
}

/** The BLAS and instance descriptions a Vulkan host builds for a Scene (see buildAccelerationStructure); real devices build the same. */
export function sceneAccelerationDescriptions(scene: Scene): { blases: BottomLevelDescription[]; instances: InstanceDescription[] } {
  const blases: BottomLevelDescription[] = [];
  for (const m of scene.meshes) {
    blases.push({
      geometries: [{
        type: 'triangles',
        vertexData: m.positions,
        vertexFormat: 'R32G32B32_SFLOAT',
        vertexStride: 12,
        maxVertex: Math.max(0, m.positions.length / 3 - 1),
        indexType: 'uint32',
        indexData: m.indices,
        flags: m.opaque ? GEOMETRY_FLAG.opaque : 0,
        primitiveCount: m.indices.length / 3,
        primitiveOffset: 0,
        firstVertex: 0,
      }],
    });
  }
  for (const p of scene.procedurals) {
    blases.push({
      geometries: [{ type: 'aabbs', data: p.aabbs, stride: 24, flags: p.opaque ? GEOMETRY_FLAG.opaque : 0, primitiveCount: p.aabbs.length / 6, primitiveOffset: 0 }],
    });
  }
  const instances: InstanceDescription[] = scene.instances.map((inst, i) => {
    const limit = inst.source === 'mesh' ? scene.meshes.length : scene.procedurals.length;
    if (inst.geometryIndex < 0 || inst.geometryIndex >= limit) {
      throw new AccelerationStructureError(`scene '${scene.name}' instances[${i}].geometryIndex: ${inst.geometryIndex} has no ${inst.source} geometry`);
    }
    return {
      transform: inst.transform,
      instanceCustomIndex: inst.customIndex,
      mask: inst.mask,
      instanceShaderBindingTableRecordOffset: inst.sbtOffset,
      flags: inst.flags,
      blas: inst.source === 'mesh' ? inst.geometryIndex : scene.meshes.length + inst.geometryIndex,
    };
  });
  return { blases, instances };
}
