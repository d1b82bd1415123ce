/**
 * The simulator's ray tracing runtime: per-thread semantics of the `rtCall` functions a lowered
 * pipeline calls (see `RtRuntimeFn` in src/ir/inst.ts and src/passes/lower/rt-pipeline.ts) and
 * the values of the hit / ray built-in variables.
 *
 * Each thread has a stack of ray frames (one per traceRay in flight: raygen -> closest-hit ->
 * traceRay nests). A frame holds the traversal result (committed closest opaque hit + delayed
 * candidates), the pending hit an intersection / any-hit shader is deciding on, the committed hit,
 * and which hit the built-ins currently describe. Hit attributes live in the lane's 32-byte
 * hit-attribute storage (all hitAttributeEXT variables alias it); the runtime saves the committed
 * hit's attributes at commit and puts them back before closest-hit, and saves / restores the
 * caller's attributes around a nested traceRay.
 */
import type { RtRuntimeFn } from '../../ir/inst.js';
import type { Builtin } from '../../ir/module.js';
import { type RtLaneWork, TRAVERSAL_DATA_BASE, TRAVERSAL_DATA_BYTES, TRAVERSAL_DATA_OFFSET } from '../warp-step.js';
import type { AccelerationStructure } from '../rt/acceleration-structure.js';
import { RAY_FLAG, type HitRecord, type RayQuery, type TraversalResult } from '../rt/ray-query.js';
import { TRANSACTION_KIND, TransactionRecord } from '../rt/transaction-record.js';
import { traverse } from '../rt/traversal.js';

export const HIT_ATTRIBUTE_BYTES = 32;

export class RtRuntimeError extends Error {}

interface RayFrame {
  ray: RayQuery;
  /** The acceleration structure the ray traverses (position fetch reads its triangles). */
  accel: AccelerationStructure;
  missIndex: number;
  result: TraversalResult;
  /** The hit the built-ins describe (a candidate, then the committed hit before closest-hit). */
  hit: HitRecord | undefined;
  hitT: number;
  hitKind: number;
  pendingT: number;
  pendingKind: number;
  committed: HitRecord | undefined;
  committedT: number;
  committedKind: number;
  committedAttributes: Uint8Array;
  /** The caller's hit attributes, restored when this ray ends. */
  callerAttributes: Uint8Array;
  terminated: boolean;
  /** Function call coalescing: which candidates have run (allocated on first use). */
  run?: Uint8Array;
  /** Allocation order of this ray's Vulkan-Sim Traversal_data (see TRAVERSAL_DATA_BASE). */
  traversalSerial: number;
}

/** Counters named as Vulkan-Sim reports them. */
export interface RtCounters {
  rays: number;
  /** Rays by nesting depth: [0] traced from raygen, [1] from closest-hit / miss of a depth-0 ray, ... */
  raysByDepth: number[];
  /** Rays with gl_RayFlagsTerminateOnFirstHitEXT (shadow / AO style). */
  anyHitRays: number;
  closestHitRays: number;
  hits: number;
  misses: number;
  nodesVisited: number;
  /** Deepest traversal stack any ray reached (entries, before spilling). */
  maxStackDepth: number;
  candidates: number;
  proceduralCandidates: number;
}

export interface RtRuntimeOptions {
  /** Acceleration structures by handle (the value a shader's accelerationStructureEXT holds). */
  accels: readonly AccelerationStructure[];
  /** VkRayTracingPipelineCreateInfoKHR::maxPipelineRayRecursionDepth. */
  maxRecursionDepth: number;
  /** Record memory transactions for the timing model. */
  record?: boolean;
  /** On-chip traversal stack entries per ray (gpgpu_rt_stack_entries); deeper entries spill. Default 8. */
  shortStackSize?: number;
  /**
   * Function call coalescing (Vulkan-Sim IV-A): model the coalescing buffer's memory traffic. Each
   * recorded candidate inserts itself into its warp's table in GPU memory: it reads the shader id
   * of every existing row until one with its key whose thread mask lacks this thread, then that
   * row's mask; appended to the ray's transactions for the RT unit to replay.
   */
  fcc?: boolean;
  /** With `record`: attach the ray, its structure and its hit leaf to the lane work (intersection prediction). */
  recordRays?: boolean;
}

/** Where the per-warp coalescing buffers live, and their shape (16 B rows: id, mask, data pointer). */
export const FCC_BUFFER_BASE = 2 ** 42;
const FCC_BUFFER_BYTES_PER_WARP = 16384;
const FCC_ROW_BYTES = 16;

export interface LaneAccess {
  hitAttributes: Uint8Array;
}

export class RtRuntime {
  readonly counters: RtCounters = {
    rays: 0, raysByDepth: [], anyHitRays: 0, closestHitRays: 0, hits: 0, misses: 0,
    nodesVisited: 0, maxStackDepth: 0, candidates: 0, proceduralCandidates: 0,
  };
  private readonly frames: RayFrame[][] = [];
  private traversalSerial = 0;
  private readonly work = new Map<number, RtLaneWork>();
  /**
   * The transaction record every traversal writes into (issue 25: a record per ray, four typed
   * arrays, was the functional core's largest allocation); its content is copied into the ray's
   * RtLaneWork before the next traversal, and the result's reference to it is dropped.
   */
  private readonly record = new TransactionRecord();
  /** Hit-attribute buffers of ended rays (endTrace), reused by the next traversals: two typed arrays per ray otherwise. */
  private readonly freeAttributes: Uint8Array[] = [];
  /** FCC: each warp's coalescing table for its current traceRay (keys and thread masks per row). */
  private readonly fccTables = new Map<number, { tag: string; rows: { key: number; mask: number }[] }>();
  /** FCC: traceRays each thread issued per nesting depth (identifies the warp's current traceRay). */
  private readonly traceCounts = new Map<number, number[]>();

  constructor(private readonly opts: RtRuntimeOptions) {}

  call(fn: RtRuntimeFn, thread: number, args: readonly number[], lane: LaneAccess): number | undefined {
    if (fn === 'traverse') return this.traverse(thread, args, lane);
    const f = this.top(thread, fn);
    switch (fn) {
      case 'selectCandidate': {
        const c = f.result.candidates[args[0]! >>> 0];
        if (!c) throw new RtRuntimeError(`selectCandidate: no candidate ${args[0]}`);
        this.select(f, c, lane);
        return c.hitGroupIndex;
      }
      case 'candidateIsProcedural':
        return f.hit?.kind === 'procedural' ? 1 : 0;
      case 'reportIntersection': {
        const t = args[0]!;
        const limit = f.committed ? f.committedT : f.ray.tmax;
        if (f.terminated || !(t >= f.ray.tmin && t <= limit)) return 0;
        f.pendingT = t;
        f.pendingKind = args[1]! >>> 0;
        f.hitT = t;
        f.hitKind = f.pendingKind;
        return 1;
      }
      case 'acceptTriangleCandidate': {
        const c = f.hit;
        if (!c || c.kind !== 'triangle') return 0;
        const limit = f.committed ? f.committedT : f.ray.tmax;
        if (f.terminated || !(c.t < limit)) return 0;
        f.pendingT = Math.fround(c.t);
        f.pendingKind = c.hitKind;
        return 1;
      }
      case 'commitPending':
        f.committed = f.hit;
        f.committedT = f.pendingT;
        f.committedKind = f.pendingKind;
        f.committedAttributes.set(lane.hitAttributes.subarray(0, HIT_ATTRIBUTE_BYTES));
        if (f.ray.flags & RAY_FLAG.terminateOnFirstHit) f.terminated = true;
        return undefined;
      case 'terminated':
        return f.terminated ? 1 : 0;
      case 'requestTerminate':
        f.terminated = true;
        return undefined;
      case 'committedHitGroup':
        if (!f.committed) {
          this.counters.misses++;
          return -1;
        }
        this.counters.hits++;
        return f.ray.flags & RAY_FLAG.skipClosestHitShader ? -2 : f.committed.hitGroupIndex;
      case 'missIndex':
        return f.missIndex;
      case 'restoreCommitted':
        f.hit = f.committed;
        f.hitT = f.committedT;
        f.hitKind = f.committedKind;
        lane.hitAttributes.set(f.committedAttributes);
        return undefined;
      case 'nextPendingCandidate': {
        if (f.terminated) return -1;
        const cs = f.result.candidates;
        const run = (f.run ??= new Uint8Array(cs.length));
        for (let i = 0; i < cs.length; i++) if (!run[i]) return coalescingKey(cs[i]!);
        return -1;
      }
      case 'selectPendingCandidate': {
        const key = args[0]!;
        const cs = f.result.candidates;
        const run = (f.run ??= new Uint8Array(cs.length));
        if (f.terminated) return 0;
        for (let i = 0; i < cs.length; i++) {
          if (run[i] || coalescingKey(cs[i]!) !== key) continue;
          run[i] = 1;
          this.select(f, cs[i]!, lane);
          return 1;
        }
        return 0;
      }
      case 'endTrace':
        lane.hitAttributes.set(f.callerAttributes);
        this.frames[thread]!.pop();
        // Nothing reads an ended ray's frame: its buffers serve the next rays.
        this.freeAttributes.push(f.callerAttributes, f.committedAttributes);
        return undefined;
    }
  }

  builtin(name: Builtin, thread: number): readonly number[] {
    const f = this.top(thread, name);
    const ray = f.ray;
    switch (name) {
      case 'WorldRayOrigin':
        return ray.origin;
      case 'WorldRayDirection':
        return ray.direction;
      case 'RayTmin':
        return [ray.tmin];
      case 'RayTmax':
        // Intersection / any-hit see the closest hit so far; closest-hit sees its own t; miss the ray's.
        return [f.committed ? f.committedT : ray.tmax];
      case 'IncomingRayFlags':
        return [ray.flags];
      case 'CullMask':
        return [ray.cullMask];
      case 'HitT':
        return [f.hitT];
      case 'HitKind':
        return [f.hitKind];
    }
    const hit = f.hit;
    if (!hit) throw new RtRuntimeError(`${name} read outside a hit shader`);
    switch (name) {
      case 'PrimitiveId':
        return [hit.primitiveIndex];
      case 'InstanceId':
        return [hit.instanceIndex];
      case 'InstanceCustomIndex':
        return [hit.instanceCustomIndex];
      case 'GeometryIndex':
        return [hit.geometryIndex];
      case 'ObjectRayOrigin':
        return hit.objectRayOrigin;
      case 'ObjectRayDirection':
        return hit.objectRayDirection;
      case 'ObjectToWorld':
        return rowMajor3x4ToMat4x3(hit.objectToWorld);
      case 'WorldToObject':
        return rowMajor3x4ToMat4x3(hit.worldToObject);
      case 'ObjectToWorld3x4':
        return rowMajor3x4ToMat3x4(hit.objectToWorld);
      case 'WorldToObject3x4':
        return rowMajor3x4ToMat3x4(hit.worldToObject);
      case 'HitTriangleVertexPositions': {
        // The three object-space vertices as the BLAS stores them (after its build-time transform).
        const as = f.accel;
        if (hit.kind !== 'triangle' || hit.leafNode === undefined || !as) throw new RtRuntimeError('gl_HitTriangleVertexPositionsEXT read for a hit that is not a triangle');
        const r = as.leafRef[hit.leafNode]!;
        return Array.from(as.triVertices.subarray(9 * r, 9 * r + 9));
      }
      default:
        throw new RtRuntimeError(`built-in ${name} is not provided by the ray tracing runtime`);
    }
  }

  /**
   * FCC's coalescing-buffer inserts for this thread's candidates (see `fcc` in the options). A
   * warp is 32 consecutive launch indices (the rows mapping); its table is per traceRay, told
   * apart by nesting depth and how many traceRays the thread issued at that depth.
   */
  private recordCoalescingBuffer(thread: number, depth: number, result: TraversalResult, record: TransactionRecord): void {
    const warp = Math.floor(thread / 32);
    const lane = 1 << (thread & 31);
    const counts = this.traceCounts.get(thread) ?? [];
    counts[depth] = (counts[depth] ?? 0) + 1;
    this.traceCounts.set(thread, counts);
    const tag = `${depth}:${counts[depth]}`;
    let table = this.fccTables.get(warp);
    if (!table || table.tag !== tag) this.fccTables.set(warp, (table = { tag, rows: [] }));
    const base = FCC_BUFFER_BASE + warp * FCC_BUFFER_BYTES_PER_WARP;
    for (const c of result.candidates) {
      const key = coalescingKey(c);
      let row = 0;
      for (; row < table.rows.length; row++) {
        record.push(base + row * FCC_ROW_BYTES, 4, TRANSACTION_KIND.coalescingBuffer, 0);
        const r = table.rows[row]!;
        if (r.key === key && !(r.mask & lane)) break;
      }
      if (row === table.rows.length) table.rows.push({ key, mask: 0 });
      record.push(base + row * FCC_ROW_BYTES + 4, 4, TRANSACTION_KIND.coalescingBuffer, 0);
      table.rows[row]!.mask |= lane;
    }
  }

  /** Makes a candidate current: hit built-ins describe it; a triangle's barycentrics become the attributes. */
  private select(f: RayFrame, c: HitRecord, lane: LaneAccess): void {
    f.hit = c;
    f.hitT = Math.fround(c.t); // gl_HitTEXT is a float: shaders must see the f32 value
    f.hitKind = c.hitKind;
    if (c.kind === 'triangle') writeBarycentrics(lane.hitAttributes, c.u, c.v);
  }

  /** The RT-unit work of the last traversal of `thread` (timing model), taken once. */
  takeLaneWork(thread: number): RtLaneWork | undefined {
    const w = this.work.get(thread);
    if (w) this.work.delete(thread);
    return w;
  }

  private traverse(thread: number, args: readonly number[], lane: LaneAccess): number {
    const stack = (this.frames[thread] ??= []);
    if (stack.length >= this.opts.maxRecursionDepth) {
      throw new RtRuntimeError(
        `traceRayEXT nested ${stack.length + 1} deep exceeds the pipeline's maxRecursionDepth ${this.opts.maxRecursionDepth} (thread ${thread})`,
      );
    }
    const handle = args[0]! >>> 0;
    const as = this.opts.accels[handle];
    if (!as) throw new RtRuntimeError(`traceRayEXT on acceleration structure handle ${handle}, which is not bound`);
    const ray: RayQuery = {
      flags: args[1]! >>> 0,
      cullMask: args[2]! & 0xff,
      sbtRecordOffset: args[3]! >>> 0,
      sbtRecordStride: args[4]! >>> 0,
      origin: [args[6]!, args[7]!, args[8]!],
      tmin: args[9]!,
      direction: [args[10]!, args[11]!, args[12]!],
      tmax: args[13]!,
    };
    const record = this.opts.record ? this.record : undefined;
    const result = traverse(as, ray, record ? { recordInto: record, shortStackSize: this.opts.shortStackSize ?? 8 } : {});
    if (record && this.opts.fcc) this.recordCoalescingBuffer(thread, stack.length, result, record);
    if (record) {
      result.transactions = undefined;
      const work = record.toLaneWork(thread & 31);
      if (this.opts.recordRays) {
        const leaf = result.committed ?? result.candidates[0];
        work.ray = { query: ray, accel: as, shortStackSize: this.opts.shortStackSize ?? 8 };
        if (leaf?.leafNode !== undefined) work.ray.hitLeaf = { node: leaf.leafNode, instance: leaf.instanceIndex };
      }
      this.work.set(thread, work);
    }
    const c = this.counters;
    c.rays++;
    c.raysByDepth[stack.length] = (c.raysByDepth[stack.length] ?? 0) + 1;
    if (ray.flags & RAY_FLAG.terminateOnFirstHit) c.anyHitRays++;
    else c.closestHitRays++;
    c.nodesVisited += result.nodesVisited;
    c.maxStackDepth = Math.max(c.maxStackDepth, result.maxStackDepth);
    c.candidates += result.candidates.length;
    for (const h of result.candidates) if (h.kind === 'procedural') c.proceduralCandidates++;

    const callerAttributes = this.freeAttributes.pop() ?? new Uint8Array(HIT_ATTRIBUTE_BYTES);
    callerAttributes.set(lane.hitAttributes.subarray(0, HIT_ATTRIBUTE_BYTES));
    const committedAttributes = this.freeAttributes.pop()?.fill(0) ?? new Uint8Array(HIT_ATTRIBUTE_BYTES);
    const committed = result.committed;
    if (committed) writeBarycentrics(committedAttributes, committed.u, committed.v);
    stack.push({
      ray, accel: as, missIndex: args[5]! >>> 0, result,
      hit: undefined, hitT: Math.fround(ray.tmax), hitKind: 0, pendingT: 0, pendingKind: 0,
      committed, committedT: committed ? Math.fround(committed.t) : ray.tmax, committedKind: committed ? committed.hitKind : 0,
      committedAttributes, callerAttributes, terminated: result.terminatedEarly,
      traversalSerial: this.traversalSerial++,
    });
    return result.candidates.length;
  }

  /** Address of the Traversal_data member a hit / miss shader reads `name` (WorldRayOrigin / WorldRayDirection) from. */
  traversalDataAddress(name: 'WorldRayDirection' | 'WorldRayOrigin', thread: number): number {
    return TRAVERSAL_DATA_BASE + this.top(thread, name).traversalSerial * TRAVERSAL_DATA_BYTES + TRAVERSAL_DATA_OFFSET[name];
  }

  private top(thread: number, what: string): RayFrame {
    const f = this.frames[thread]?.at(-1);
    if (!f) throw new RtRuntimeError(`${what} used with no ray in flight (thread ${thread})`);
    return f;
  }
}

/** FCC coalescing-table key: one row per shader (intersection or any-hit of a hit group). */
function coalescingKey(c: HitRecord): number {
  return 2 * c.hitGroupIndex + (c.kind === 'procedural' ? 1 : 0);
}

const f32Scratch = new Float32Array(2);
const f32Bytes = new Uint8Array(f32Scratch.buffer);

/** Triangle hit attributes: `hitAttributeEXT vec2` barycentrics of vertices 1 and 2. */
function writeBarycentrics(out: Uint8Array, u: number, v: number): void {
  f32Scratch[0] = u;
  f32Scratch[1] = v;
  out.set(f32Bytes, 0);
}

/** VkTransformMatrixKHR (3 rows x 4) -> GLSL mat4x3 (4 columns of vec3), column-major components. */
function rowMajor3x4ToMat4x3(m: Float32Array): number[] {
  const out: number[] = [];
  for (let col = 0; col < 4; col++) for (let row = 0; row < 3; row++) out.push(m[row * 4 + col]!);
  return out;
}

/** VkTransformMatrixKHR -> GLSL mat3x4 (3 columns of vec4) = the transpose, column-major components. */
function rowMajor3x4ToMat3x4(m: Float32Array): number[] {
  return Array.from(m);
}
