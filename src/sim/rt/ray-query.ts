/**
 * What a traceRayEXT / rayQuery hands to traversal, and what traversal hands back: the committed
 * closest opaque triangle hit plus, in traversal order, the candidates that need shaders (Vulkan-Sim
 * "delayed intersection and any-hit execution": procedural AABB hits for the intersection shader,
 * non-opaque triangle hits for the any-hit shader).
 *
 * Invariants:
 * - Flag values are the SPIR-V / GLSL gl_RayFlags*EXT and gl_HitKind*EXT values.
 * - `HitRecord.hitGroupIndex = instance sbtOffset + sbtRecordOffset + sbtRecordStride * geometryIndex`.
 * - Matrices are 3x4 row-major (12 floats), like VkTransformMatrixKHR.
 */
import type { TransactionRecord } from './transaction-record.js';

/** gl_RayFlags*EXT. */
export const RAY_FLAG = {
  none: 0x0,
  opaque: 0x1,
  noOpaque: 0x2,
  terminateOnFirstHit: 0x4,
  skipClosestHitShader: 0x8,
  cullBackFacingTriangles: 0x10,
  cullFrontFacingTriangles: 0x20,
  cullOpaque: 0x40,
  cullNoOpaque: 0x80,
  skipTriangles: 0x100,
  skipAABBs: 0x200,
} as const;

/** gl_HitKind*EXT for triangles; procedural hit kinds come from reportIntersectionEXT. */
export const HIT_KIND = {
  frontFacingTriangle: 0xfe,
  backFacingTriangle: 0xff,
} as const;

export interface RayQuery {
  origin: [number, number, number];
  direction: [number, number, number];
  tmin: number;
  tmax: number;
  /** `RAY_FLAG` bits. */
  flags: number;
  /** 8-bit cull mask ANDed with each instance mask. */
  cullMask: number;
  sbtRecordOffset: number;
  sbtRecordStride: number;
}

export interface HitRecord {
  kind: 'triangle' | 'procedural';
  /**
   * Triangles: the hit distance. Procedural candidates: the distance at which the ray enters the
   * AABB (clamped to tmin) — the intersection shader decides the real t.
   */
  t: number;
  /** Barycentrics of vertices 1 and 2 (gl_HitAttributeEXT for triangles); 0 for procedurals. */
  u: number;
  v: number;
  /** `HIT_KIND` for triangles; 0 for procedural candidates. */
  hitKind: number;
  /** gl_InstanceID: index of the instance in the TLAS. */
  instanceIndex: number;
  /** gl_InstanceCustomIndexEXT. */
  instanceCustomIndex: number;
  /** gl_GeometryIndexEXT within the BLAS. */
  geometryIndex: number;
  /** gl_PrimitiveID within the geometry. */
  primitiveIndex: number;
  /** Shader binding table hit group record to run. */
  hitGroupIndex: number;
  objectRayOrigin: [number, number, number];
  objectRayDirection: [number, number, number];
  objectToWorld: Float32Array;
  worldToObject: Float32Array;
  /** Opacity after geometry, instance and ray flags were applied. */
  opaque: boolean;
  /** Node id of the leaf that produced the hit (for predictors' Go Up Level via `nodeParent`). */
  leafNode?: number;
}

export interface TraversalResult {
  /** Closest opaque triangle hit committed by traversal itself, if any. */
  committed: HitRecord | undefined;
  /**
   * Hits that need an intersection or any-hit shader, in traversal order. Triangle candidates
   * farther than `committed` are dropped (they can never be accepted); procedural candidates
   * whose AABB is entered beyond `committed.t` are dropped too.
   */
  candidates: HitRecord[];
  /** True when gl_RayFlagsTerminateOnFirstHitEXT stopped traversal at an opaque hit. */
  terminatedEarly: boolean;
  /** Node fetches (internal, instance, triangle and procedural leaves). */
  nodesVisited: number;
  /** Deepest traversal stack reached (entries), before any spilling. */
  maxStackDepth: number;
  /** Memory transactions and operations, present when `record` was requested. */
  transactions?: TransactionRecord;
}

export interface TraverseOptions {
  /** Record memory transactions (default false; the timing model turns it on). */
  record?: boolean;
  /** Reuse this record (cleared first) instead of allocating one per ray. */
  recordInto?: TransactionRecord;
  /** Entries the RT unit keeps on chip; deeper entries spill (default 8, Vulkan-Sim III-C2). */
  shortStackSize?: number;
  /** Base address of this ray's spill area (8 B per entry); default 0. */
  stackSpillAddress?: number;
  /**
   * Traverse only these subtrees, in order, instead of starting at the TLAS root (intersection
   * prediction): `instance` -1 for a TLAS node, else the instance whose BLAS holds `node`
   * (the ray is transformed into its object space). Hits found are reported as usual.
   */
  startNodes?: readonly { node: number; instance: number }[];
  /**
   * Enumerate instead of search (the predictor's oracle limit studies): every opaque triangle
   * hit and every candidate within [tmin, tmax] is reported with its leaf node and instance;
   * nothing is committed, tmax never shrinks and the ray never terminates early.
   */
  onEveryHit?: (leafNode: number, instance: number) => void;
}
