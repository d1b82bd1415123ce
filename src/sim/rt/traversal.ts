/**
 * Functional acceleration-structure traversal, Vulkan-Sim Algorithm 2: TLAS internal nodes ->
 * instance leaf (world-to-object transform) -> BLAS internal nodes -> triangle / procedural
 * leaves, back to the TLAS when the BLAS part of the stack is exhausted.
 *
 * - Nearest-child-first: an internal node's children are box-tested, the nearest is visited next
 *   and the others are pushed far-to-near. Stack entries carry their entry distance and are
 *   dropped on pop when a committed hit is already closer (no fetch is recorded for them).
 * - Recorded transactions follow Vulkan-Sim's traversal (vulkan_ray_tracing.cc): the TLAS's BVH
 *   header before its root, a BLAS's header after the instance leaf that enters it, and a leaf's
 *   8-byte primitive leaf descriptor before the leaf itself, a triangle leaf whose test hits in
 *   [tmin, tmax] as 'triangleLeafHit' (BVH_QUAD_LEAF_HIT); only node fetches count as nodes.
 * - The stack is unbounded functionally; entries beyond `shortStackSize` (default 8) are recorded
 *   as 8-byte 'stackSpill' transactions on push and on pop, the Aila/Laine short-stack model the
 *   timing model replays.
 * - Delayed intersection / any-hit (Vulkan-Sim III-A): the closest OPAQUE triangle hit is
 *   committed here (it shrinks tmax); procedural AABB hits and non-opaque triangle hits become
 *   candidates in traversal order and do not shrink tmax.
 * - t is comparable across instances because the object-space direction is not renormalized.
 * - `startNodes` (intersection prediction) runs the same loop once per given subtree instead of
 *   from the TLAS root; hits report their `leafNode` so a predictor can go up levels via parents.
 * - `onEveryHit` (the predictor's oracles) reports every hit and candidate instead of committing.
 * - A ray with tmax < tmin, or a NaN / infinite origin or direction component (invalid in Vulkan),
 *   misses without visiting any node (no transactions).
 * - Opacity: geometry flag, overridden by instance force-opaque / force-no-opaque, overridden by
 *   ray opaque / no-opaque flags; culling by facing is skipped for instances with
 *   triangle-facing-cull-disable.
 */
import type { AccelerationStructure } from './acceleration-structure.js';
import { BVH_HEADER_BYTES, GEOMETRY_FLAG } from './acceleration-structure.js';
import { NODE_KIND, NODE_SIZE } from './bvh-layout.js';
import { HIT_KIND, RAY_FLAG, type HitRecord, type RayQuery, type TraversalResult, type TraverseOptions } from './ray-query.js';
import { intersectRayBox } from './ray-box.js';
import { createWatertightRay, intersectTriangle, prepareWatertightRay, triangleHit } from './ray-triangle.js';
import { TRANSACTION_KIND, TransactionRecord } from './transaction-record.js';
import { INSTANCE_FLAG } from './scene.js';

export type { HitRecord, RayQuery, TraversalResult, TraverseOptions } from './ray-query.js';

export class TraversalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraversalError';
  }
}

const SPILL_ENTRY_BYTES = 8;
/** A leaf's primitive leaf descriptor (Mesa GEN_RT_BVH_PRIMITIVE_LEAF_DESCRIPTOR_length 2 dwords). */
const LEAF_DESCRIPTOR_BYTES = 8;

// Scratch reused by every call: traversal is single-threaded and not re-entrant.
let stackNode = new Int32Array(1024);
let stackT = new Float64Array(1024);
const childT = new Float64Array(8);
const childN = new Int32Array(8);
const objectRay = createWatertightRay();

const objectSpace = new Float64Array(6);

/** World ray -> object space of instance `i` (origin xyz, direction xyz into `objectSpace`). */
function toObjectSpace(as: AccelerationStructure, i: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): void {
  const m = as.instanceWorldToObject, b = 12 * i;
  objectSpace[0] = m[b]! * ox + m[b + 1]! * oy + m[b + 2]! * oz + m[b + 3]!;
  objectSpace[1] = m[b + 4]! * ox + m[b + 5]! * oy + m[b + 6]! * oz + m[b + 7]!;
  objectSpace[2] = m[b + 8]! * ox + m[b + 9]! * oy + m[b + 10]! * oz + m[b + 11]!;
  objectSpace[3] = m[b]! * dx + m[b + 1]! * dy + m[b + 2]! * dz;
  objectSpace[4] = m[b + 4]! * dx + m[b + 5]! * dy + m[b + 6]! * dz;
  objectSpace[5] = m[b + 8]! * dx + m[b + 9]! * dy + m[b + 10]! * dz;
}

function growStack(): void {
  const n = new Int32Array(stackNode.length * 2); n.set(stackNode); stackNode = n;
  const t = new Float64Array(stackT.length * 2); t.set(stackT); stackT = t;
}

function effectiveOpaque(geometryFlags: number, instanceFlags: number, rayFlags: number): boolean {
  let opaque = (geometryFlags & GEOMETRY_FLAG.opaque) !== 0;
  if (instanceFlags & INSTANCE_FLAG.forceOpaque) opaque = true;
  else if (instanceFlags & INSTANCE_FLAG.forceNoOpaque) opaque = false;
  if (rayFlags & RAY_FLAG.opaque) opaque = true;
  else if (rayFlags & RAY_FLAG.noOpaque) opaque = false;
  return opaque;
}

function makeHit(
  as: AccelerationStructure, ray: RayQuery, kind: 'triangle' | 'procedural',
  t: number, u: number, v: number, hitKind: number, inst: number, geom: number, prim: number,
  ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, opaque: boolean, leafNode: number,
): HitRecord {
  return {
    kind, t, u, v, hitKind, leafNode,
    instanceIndex: inst,
    instanceCustomIndex: as.instanceCustomIndex[inst]!,
    geometryIndex: geom,
    primitiveIndex: prim,
    hitGroupIndex: as.instanceSbtOffset[inst]! + ray.sbtRecordOffset + ray.sbtRecordStride * geom,
    objectRayOrigin: [ox, oy, oz],
    objectRayDirection: [dx, dy, dz],
    objectToWorld: as.instanceObjectToWorld.slice(12 * inst, 12 * inst + 12),
    worldToObject: as.instanceWorldToObject.slice(12 * inst, 12 * inst + 12),
    opaque,
  };
}

/** Traverse `as` with one ray; see the file comment for the exact semantics. */
export function traverse(as: AccelerationStructure, ray: RayQuery, opts: TraverseOptions = {}): TraversalResult {
  const rec = opts.record || opts.recordInto ? (opts.recordInto ?? new TransactionRecord()) : undefined;
  if (rec) rec.clear();
  const shortStack = opts.shortStackSize ?? 8;
  const spillBase = opts.stackSpillAddress ?? 0;
  const flags = ray.flags | 0;
  const tmin = ray.tmin;
  if (!(tmin >= 0)) throw new TraversalError(`ray tmin must be a non-negative number, got ${tmin}`);
  const wox = ray.origin[0], woy = ray.origin[1], woz = ray.origin[2];
  const wdx = ray.direction[0], wdy = ray.direction[1], wdz = ray.direction[2];
  let ox = wox, oy = woy, oz = woz, dx = wdx, dy = wdy, dz = wdz;
  let ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
  let tFar = ray.tmax;
  let hasCommitted = false;
  let cT = 0, cU = 0, cV = 0, cKind = 0, cInst = 0, cGeom = 0, cPrim = 0, cNode = -1;
  let cox = 0, coy = 0, coz = 0, cdx = 0, cdy = 0, cdz = 0;
  const candidates: HitRecord[] = [];
  let terminatedEarly = false;
  let nodesVisited = 0;
  let maxStackDepth = 0;

  const nodeKind = as.nodeKind, nodeAddress = as.nodeAddress, nodeBounds = as.nodeBounds;
  const childFirst = as.childFirst, childCount = as.childCount, leafRef = as.leafRef;
  const cullMask = ray.cullMask & 0xff;
  const cullFacing = flags & (RAY_FLAG.cullBackFacingTriangles | RAY_FLAG.cullFrontFacingTriangles);

  let node = -1;
  let sp = 0;
  let inBlas = false;
  let blasBase = 0;
  let inst = -1;
  let instFlags = 0;
  let blasGeometries: { flags: number }[] = [];
  const starts = opts.startNodes;
  const onEveryHit = opts.onEveryHit;
  const startCount = starts ? starts.length : 1;

  // A ray with a NaN or infinite origin / direction component (invalid in Vulkan, e.g. a
  // direction built from a degenerate triangle's NaN normal) would pass every slab test -- the
  // box test ignores NaN slabs, see ray-box.ts -- and visit the whole BVH (tens of thousands of
  // fetches for one ray). Like a ray with tmax < tmin, it misses without visiting any node.
  const valid = ray.tmax >= tmin && Number.isFinite(wox) && Number.isFinite(woy) && Number.isFinite(woz)
    && Number.isFinite(wdx) && Number.isFinite(wdy) && Number.isFinite(wdz);

  traversal: for (let s = 0; s < startCount && valid; s++) {
    sp = 0;
    inBlas = false;
    ox = wox; oy = woy; oz = woz; dx = wdx; dy = wdy; dz = wdz;
    ix = 1 / dx; iy = 1 / dy; iz = 1 / dz;
    if (!starts) {
      if (rec) rec.push(as.rootAddress, BVH_HEADER_BYTES, TRANSACTION_KIND.structure, 0);
      node = as.tlasRoot;
    } else {
      const st = starts[s]!;
      node = st.node;
      const blasOfNode = node >= 0 && node < as.nodeCount ? as.nodeBlas[node]! : -2;
      const expected = st.instance >= 0 && st.instance < as.instanceCount ? as.instanceBlas[st.instance]! : -1;
      if (blasOfNode === -2 || blasOfNode !== expected) {
        throw new TraversalError(`startNodes[${s}]: node ${st.node} does not belong to ${st.instance < 0 ? 'the TLAS' : `the BLAS of instance ${st.instance}`}`);
      }
      if (st.instance >= 0) {
        if ((as.instanceMask[st.instance]! & cullMask) === 0) continue;
        const blas = as.blases[expected]!;
        if (blas.type === 'triangles' ? (flags & RAY_FLAG.skipTriangles) !== 0 : (flags & RAY_FLAG.skipAABBs) !== 0) continue;
        toObjectSpace(as, st.instance, wox, woy, woz, wdx, wdy, wdz);
        ox = objectSpace[0]!; oy = objectSpace[1]!; oz = objectSpace[2]!;
        dx = objectSpace[3]!; dy = objectSpace[4]!; dz = objectSpace[5]!;
        ix = 1 / dx; iy = 1 / dy; iz = 1 / dz;
        if (blas.type === 'triangles') prepareWatertightRay(dx, dy, dz, objectRay);
        inBlas = true;
        blasBase = 0;
        inst = st.instance;
        instFlags = as.instanceFlags[inst]!;
        blasGeometries = blas.geometries;
        if (rec) rec.transforms++;
      }
    }
    for (;;) {
      if (node >= 0) {
        nodesVisited++;
        const kind = nodeKind[node]!;
        if (kind === NODE_KIND.internal) {
          const first = childFirst[node]!, count = childCount[node]!;
          if (rec) { rec.push(nodeAddress[node]!, NODE_SIZE[kind]!, TRANSACTION_KIND.internal, count); rec.boxTests += count; }
          let hits = 0;
          for (let c = 0; c < count; c++) {
            const te = intersectRayBox(nodeBounds, 6 * (first + c), ox, oy, oz, ix, iy, iz, tmin, tFar);
            if (te < 0) continue;
            // Insertion into the distance-sorted child list.
            let k = hits++;
            while (k > 0 && childT[k - 1]! > te) { childT[k] = childT[k - 1]!; childN[k] = childN[k - 1]!; k--; }
            childT[k] = te; childN[k] = first + c;
          }
          if (hits > 0) {
            for (let k = hits - 1; k >= 1; k--) {
              if (sp >= stackNode.length) growStack();
              if (rec && sp >= shortStack) rec.push(spillBase + SPILL_ENTRY_BYTES * (sp - shortStack), SPILL_ENTRY_BYTES, TRANSACTION_KIND.stackSpill, 0);
              stackNode[sp] = childN[k]!; stackT[sp] = childT[k]!; sp++;
            }
            if (sp > maxStackDepth) maxStackDepth = sp;
            node = childN[0]!;
            continue;
          }
        } else if (kind === NODE_KIND.instanceLeaf) {
          const i = leafRef[node]!;
          if (rec) { rec.push(nodeAddress[node]!, NODE_SIZE[kind]!, TRANSACTION_KIND.instanceLeaf, 1); rec.transforms++; }
          const blas = as.blases[as.instanceBlas[i]!]!;
          const skip = (as.instanceMask[i]! & cullMask) === 0
            || (blas.type === 'triangles' ? (flags & RAY_FLAG.skipTriangles) !== 0 : (flags & RAY_FLAG.skipAABBs) !== 0);
          if (!skip) {
            toObjectSpace(as, i, wox, woy, woz, wdx, wdy, wdz);
            ox = objectSpace[0]!; oy = objectSpace[1]!; oz = objectSpace[2]!;
            dx = objectSpace[3]!; dy = objectSpace[4]!; dz = objectSpace[5]!;
            ix = 1 / dx; iy = 1 / dy; iz = 1 / dz;
            if (blas.type === 'triangles') prepareWatertightRay(dx, dy, dz, objectRay);
            inBlas = true;
            blasBase = sp;
            inst = i;
            instFlags = as.instanceFlags[i]!;
            blasGeometries = blas.geometries;
            if (rec) rec.push(blas.rootAddress, BVH_HEADER_BYTES, TRANSACTION_KIND.structure, 0);
            node = blas.rootNode;
            continue;
          }
        } else if (kind === NODE_KIND.triangleLeaf) {
          const r = leafRef[node]!;
          const inInterval = intersectTriangle(as.triVertices, 9 * r, ox, oy, oz, objectRay, tmin, tFar);
          if (rec) {
            rec.push(nodeAddress[node]!, LEAF_DESCRIPTOR_BYTES, TRANSACTION_KIND.leafDescriptor, 0);
            rec.push(nodeAddress[node]!, NODE_SIZE[kind]!, inInterval ? TRANSACTION_KIND.triangleLeafHit : TRANSACTION_KIND.triangleLeaf, 1);
            rec.triangleTests++;
          }
          if (inInterval && !(hasCommitted && triangleHit[0]! >= tFar)) {
            const t = triangleHit[0]!;
            let front = triangleHit[3]! > 0;
            if (instFlags & INSTANCE_FLAG.triangleFlipFacing) front = !front;
            const culledByFacing = cullFacing !== 0 && (instFlags & INSTANCE_FLAG.triangleFacingCullDisable) === 0
              && (front ? (flags & RAY_FLAG.cullFrontFacingTriangles) !== 0 : (flags & RAY_FLAG.cullBackFacingTriangles) !== 0);
            if (!culledByFacing) {
              const geom = as.triGeometry[r]!;
              const opaque = effectiveOpaque(blasGeometries[geom]!.flags, instFlags, flags);
              if (!(opaque ? flags & RAY_FLAG.cullOpaque : flags & RAY_FLAG.cullNoOpaque)) {
                const hitKind = front ? HIT_KIND.frontFacingTriangle : HIT_KIND.backFacingTriangle;
                if (onEveryHit) {
                  onEveryHit(node, inst);
                } else if (opaque) {
                  hasCommitted = true;
                  tFar = t;
                  cT = t; cU = triangleHit[1]!; cV = triangleHit[2]!; cKind = hitKind;
                  cInst = inst; cGeom = geom; cPrim = as.triPrimitive[r]!;
                  cox = ox; coy = oy; coz = oz; cdx = dx; cdy = dy; cdz = dz;
                  cNode = node;
                  if (flags & RAY_FLAG.terminateOnFirstHit) { terminatedEarly = true; break traversal; }
                } else {
                  candidates.push(makeHit(as, ray, 'triangle', t, triangleHit[1]!, triangleHit[2]!, hitKind, inst, geom, as.triPrimitive[r]!, ox, oy, oz, dx, dy, dz, false, node));
                }
              }
            }
          }
        } else {
          const r = leafRef[node]!;
          if (rec) {
            rec.push(nodeAddress[node]!, LEAF_DESCRIPTOR_BYTES, TRANSACTION_KIND.leafDescriptor, 0);
            rec.push(nodeAddress[node]!, NODE_SIZE[kind]!, TRANSACTION_KIND.proceduralLeaf, 1);
            rec.boxTests++;
          }
          const te = intersectRayBox(as.procBox, 6 * r, ox, oy, oz, ix, iy, iz, tmin, tFar);
          if (te >= 0) {
            const geom = as.procGeometry[r]!;
            const opaque = effectiveOpaque(blasGeometries[geom]!.flags, instFlags, flags);
            if (!(opaque ? flags & RAY_FLAG.cullOpaque : flags & RAY_FLAG.cullNoOpaque)) {
              if (onEveryHit) onEveryHit(node, inst);
              else candidates.push(makeHit(as, ray, 'procedural', te, 0, 0, 0, inst, geom, as.procPrimitive[r]!, ox, oy, oz, dx, dy, dz, opaque, node));
            }
          }
        }
      }
      // Pop the next node worth visiting.
      node = -1;
      for (;;) {
        if (inBlas && sp === blasBase) {
          inBlas = false;
          ox = wox; oy = woy; oz = woz; dx = wdx; dy = wdy; dz = wdz;
          ix = 1 / dx; iy = 1 / dy; iz = 1 / dz;
        }
        if (sp === 0) break;
        sp--;
        if (rec && sp >= shortStack) rec.push(spillBase + SPILL_ENTRY_BYTES * (sp - shortStack), SPILL_ENTRY_BYTES, TRANSACTION_KIND.stackSpill, 0);
        const te = stackT[sp]!;
        if (hasCommitted ? te >= tFar : te > tFar) continue;
        node = stackNode[sp]!;
        break;
      }
      if (node < 0) break;
    }
  }

  const committed = hasCommitted
    ? makeHit(as, ray, 'triangle', cT, cU, cV, cKind, cInst, cGeom, cPrim, cox, coy, coz, cdx, cdy, cdz, true, cNode)
    : undefined;
  let kept = candidates;
  if (committed && candidates.length > 0) {
    kept = candidates.filter((c) => (c.kind === 'triangle' ? c.t < cT : c.t <= cT));
  }
  const result: TraversalResult = { committed, candidates: kept, terminatedEarly, nodesVisited, maxStackDepth };
  if (rec) result.transactions = rec;
  return result;
}
