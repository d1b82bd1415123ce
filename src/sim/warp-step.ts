/**
 * The contract between the functional SIMT core and the timing model (execution-driven, like
 * Vulkan-Sim): the timing model asks a warp to execute its next step (one basic block, or the part
 * of it up to a call / RT-runtime boundary) for the lanes the reconvergence scheme selects; the
 * functional core executes it and returns what the timing model needs to charge cycles:
 * the instructions issued (by class), every memory access with per-lane addresses, and the
 * RT-unit work (per-lane traversal transaction records).
 *
 * Invariants:
 * - `opClasses.length === insts`; `memory[i].instIndex < insts`, in issue order.
 * - Addresses are byte addresses in the one simulated address space shared by buffers, images,
 *   textures and the BVH (each resource is placed at a base address by the host side).
 * - Lanes are 0..31; `activeMask` bit i set iff lane i executed this step.
 */
import type { AccelerationStructure } from './rt/acceleration-structure.js';
import type { RayQuery } from './rt/ray-query.js';

/** Issue classes the timing model assigns latencies / initiation intervals to. */
export const enum OpClass {
  /** Integer / float add, mul, compare, select, conversions, bit ops, composites. */
  Alu = 0,
  /** Transcendentals, division, sqrt (special function unit). */
  Sfu = 1,
  /** Loads / stores / atomics to memory visible to the memory hierarchy. */
  Memory = 2,
  /** Texture sampling and image access. */
  Texture = 3,
  /** traceRay's traverseAS: the warp waits for the RT unit. */
  Rt = 4,
  /** Branches, calls, returns, subgroup votes (control / sync). */
  Control = 5,
  /** Loads/stores of registers-promoted locals (function storage): no memory traffic. */
  Register = 6,
}

/**
 * `local`: per-thread memory interleaved across a warp's lanes (CUDA local memory);
 * `rtState`: the ray tracing pipeline's per-thread state (payloads, hit attributes, callable
 * data) at the same interleaved addresses; the timing model re-lays it out per
 * gpgpu_rt_thread_state.
 */
export type MemorySpace = 'global' | 'constant' | 'texture' | 'local' | 'rtState' | 'traversal';

/**
 * Vulkan-Sim's Traversal_data: every traceRay of every thread allocates one (gpgpusim_alloc, 256 B
 * aligned, written functionally), and a hit or miss shader reads gl_WorldRayOrigin /
 * gl_WorldRayDirection from it with global loads (`load_ray_world_origin` returns its address).
 * Those reads are `traversal` accesses at TRAVERSAL_DATA_BASE + serial * 256 + the member's offset.
 */
export const TRAVERSAL_DATA_BASE = 2 ** 45;
export const TRAVERSAL_DATA_BYTES = 256;
/** Byte offsets of ray_world_direction and ray_world_origin in Vulkan-Sim's Traversal_data (after hit_geometry and a 176-byte Hit_data). */
export const TRAVERSAL_DATA_OFFSET: Readonly<Record<'WorldRayDirection' | 'WorldRayOrigin', number>> = { WorldRayDirection: 180, WorldRayOrigin: 192 };

/**
 * Where a lane's private (local / rtState) memory lives in the simulated address space: word w of
 * lane l of warp k at LOCAL_BASE + k * LOCAL_WARP_BYTES + w * 128 + l * 4, interleaved across
 * the warp's lanes as CUDA local memory is (a warp's access to one word is one 128-byte line).
 */
export const LOCAL_BASE = 2 ** 44;
export const LOCAL_WARP_BYTES = 2 ** 24;

export function localAddress(warp: number, word: number, lane: number): number {
  return LOCAL_BASE + warp * LOCAL_WARP_BYTES + word * 128 + lane * 4;
}

/** The inverse of `localAddress` (for an address it produced). */
export function decodeLocalAddress(a: number): { warp: number; word: number; lane: number } {
  const off = a - LOCAL_BASE;
  const warp = Math.floor(off / LOCAL_WARP_BYTES);
  const inWarp = off - warp * LOCAL_WARP_BYTES;
  return { warp, word: Math.floor(inWarp / 128), lane: (inWarp % 128) >> 2 };
}

export interface MemAccess {
  /** Index of the instruction in this step (0-based, < insts). */
  instIndex: number;
  kind: 'load' | 'store' | 'atomic';
  space: MemorySpace;
  /** Bytes accessed per lane. */
  size: number;
  /** Per-lane address; only lanes in `laneMask` are meaningful. Length 32. */
  addresses: Float64Array;
  laneMask: number;
  /**
   * The 32-bit words of each lane's `size` bytes that are sent, bit k for word k; -1 for all. Only
   * per-word accesses (per-thread rtState) read it: a store NIR writes in part (redundant-stores.ts).
   */
  wordMask: number;
}

/** One memory transaction of a traversal, in order (Vulkan-Sim RTMemoryTransactionRecord). */
export interface RtTransaction {
  address: number;
  size: number;
  /** Node kind, for stats and operation latency (gpgpu_rt_intersection_latency). */
  kind: RtNodeKind;
}

export type RtNodeKind =
  | 'internal' | 'instanceLeaf' | 'triangleLeaf' | 'proceduralLeaf' | 'stackSpill'
  /** A triangle leaf whose test hits within the ray's interval (Vulkan-Sim BVH_QUAD_LEAF_HIT): its own latency, and a 32-byte result store. */
  | 'triangleLeafHit'
  /** The 64-byte BVH header of the TLAS or of a BLAS (Vulkan-Sim BVH_STRUCTURE), read before its root. */
  | 'structure'
  /** A leaf's primitive leaf descriptor (its first 8 bytes), read before the leaf itself (BVH_PRIMITIVE_LEAF_DESCRIPTOR). */
  | 'leafDescriptor'
  /** Function call coalescing: reads of the warp's coalescing buffer (shader ids, thread masks). */
  | 'coalescingBuffer';

/** Whether a transaction fetches a BVH node (what `rt_avg_nodes_per_ray` counts, as Vulkan-Sim's total_nodes_accessed). */
export function isBvhNode(kind: RtNodeKind): boolean {
  return kind === 'internal' || kind === 'instanceLeaf' || kind === 'triangleLeaf' || kind === 'triangleLeafHit' || kind === 'proceduralLeaf';
}

/** The RT-unit work of one traceRay for one lane. */
export interface RtLaneWork {
  lane: number;
  transactions: RtTransaction[];
  /** Intersection operations by kind, for the operation units. */
  boxTests: number;
  triangleTests: number;
  transforms: number;
  /** The ray itself, when the RT unit needs more than the replay (intersection prediction). */
  ray?: RtRayRecord;
}

/** What an RT-unit mechanism that re-traverses a ray needs: the query, the structure, the outcome. */
export interface RtRayRecord {
  query: RayQuery;
  accel: AccelerationStructure;
  /** The leaf (and instance) of the hit the full traversal reports: the committed opaque hit, else the first candidate. */
  hitLeaf?: { node: number; instance: number };
  shortStackSize: number;
}

/** What the issue stage reads of a step's instructions: one record per instruction in an Int32Array (step-deps-layout.ts). */
export type { StepDeps } from './step-deps-layout.js';
import type { StepDeps } from './step-deps-layout.js';

export interface WarpStep {
  /** Global warp index in the launch. */
  warp: number;
  /** Function and block executed (ids from the IR module). */
  fn: number;
  block: number;
  activeMask: number;
  /** Warp instructions issued in this step. */
  insts: number;
  /** Issue class of each instruction, in order (often shared per block; do not mutate). */
  opClasses: Uint8Array;
  /** In-step register dependencies (absent: none are modelled, e.g. replayed traces). */
  deps?: StepDeps;
  memory: MemAccess[];
  /** Present when the step ended in a traversal (traceRay lowered to rtCall traverse). */
  rt?: RtLaneWork[];
  /** True when the warp finished with this step. */
  done: boolean;
  /**
   * The step starts where the previous step's branch went other than its fall-through block (the
   * block after it in the function's layout). GPGPU-Sim fetches the fall-through after every
   * instruction; the scheduler then finds it is not the SIMT stack's pc and flushes the instruction
   * buffer (a control hazard), so the step's first instruction issues a cycle later (sm.ts).
   * Under ITS, per split (a split's first step has none). Absent: no control hazard.
   */
  redirect?: boolean;
  /**
   * Independent thread scheduling only: id of the split that executed this step (unique within
   * the warp; see its-splits.ts). Absent under SIMT-stack reconvergence, where a warp has one
   * schedulable split at a time.
   */
  split?: number;
}

/**
 * Receives steps as the functional core produces them; the timing model or the instrumentation
 * counters implement it. Only constructed when needed: functional-only runs pass none, and the core
 * then skips recording addresses.
 */
export interface StepObserver {
  onStep(step: WarpStep): void;
}
