/**
 * What the one RT unit (rt-unit.ts) asks of its traversal policy, and the ray, warp and traceRay
 * records the two share. The unit owns the Warp Buffer's entries, the warp and memory schedulers,
 * the memory port, the Response FIFO and the operation units; the policy decides which rays form a
 * warp of the buffer, in which order a ray's transactions are replayed and when a warp or a
 * traceRay is finished:
 * - rt/baseline-order.ts: one SM warp's traceRay is one warp of the buffer (Vulkan-Sim III-C);
 * - predictor/predictor-policy.ts: the same, with an intersection-predictor lookup before the
 *   traversal and repacking of predicted rays (paper 002);
 * - treelets/treelet-policy.ts: rays stored away and regrouped into treelet warps (paper 001),
 *   optionally behind the predictor's lookup (predictor/predictor-lookup.ts).
 *
 * Invariants: a ray is in at most one warp; a ray with status WAIT_MEM is in the `rays` of each
 * chunk request it waits on; a warp is in the buffer exactly while `buffer[entry] === warp`.
 */
import type { RtLaneWork, RtNodeKind, RtTransaction } from '../../warp-step.js';
import type { Waiter } from '../mem-request.js';

/** Ray status. READY..DONE are the unit's; the rest belong to one policy each. */
export const READY = 0;
export const WAIT_MEM = 1;
export const IN_OP = 2;
export const DONE = 3;
/** Predictor: in the lookup queue or table access. */
export const LOOKUP = 4;
/** Predictor: in the partial warp collector, waiting to be repacked. */
export const COLLECTED = 5;
/** Treelets: in a treelet queue. */
export const QUEUED = 6;
/** Treelets: in a warp, waiting for its ray data. */
export const LOADING = 7;

/** Response tags: chunk requests count up from 0; -1 acknowledges an intersection-table store; below that, the policy's own. */
export const TAG_STORE_ACK = -1;

/**
 * One SM warp's traceRay: it completes (and the SM warp may continue) once all its rays are done
 * and its intersection-table stores acknowledged. It is the waiter of those acknowledgements.
 */
export interface TraceSource extends Waiter {
  /** What the unit reports back to the SM (rtDone): the SM context, or a virtualization ticket. */
  token: number;
  /** Its rays not done, wherever they are. */
  left: number;
  /** Intersection-table stores sent or queued and not yet acknowledged. */
  pendingStores: number;
}

export interface RtRay {
  /** The warp of the buffer it is scheduled with; null while outside one (treelet queues). */
  warp: RtWarp | null;
  src: TraceSource;
  lane: number;
  /** The transactions the unit replays, in order; `idx` is the next. */
  tx: RtTransaction[];
  idx: number;
  status: number;
  pendingChunks: number;
  /** The cycle it was accepted. */
  start: number;
  /** While IN_OP: the cycle its operation completes (for the deadlock report). */
  opDone: number;
  /** While WAIT_MEM: the cycle its current transaction's chunk requests were queued (or merged). */
  sentAt: number;
  /** Intersection-table store addresses not yet queued (queued when the ray's first node arrives). */
  stores: number[] | null;
}

/** A warp of the Warp Buffer: what the warp and memory schedulers pick from. */
export interface RtWarp {
  entry: number;
  /** Formation order: the warp scheduler prefers the oldest. */
  age: number;
  /** Rays of the warp not done (and, with treelets, not left for a queue). */
  active: number;
  /** Rays in READY status, in the order they became ready. */
  readyRays: RtRay[];
  /** Rays waiting for memory, in an operation or loading ray data (treelets drain them). */
  inflight: number;
  /** Not scheduled: a diverged treelet warp draining its in-flight accesses. */
  draining: boolean;
}

/** Operation-unit latency index per node kind (gpgpu_rt_intersection_latency order); -1: memory only. */
export const LATENCY_INDEX: Record<RtNodeKind, number> = {
  structure: 0, internal: 1, instanceLeaf: 2, leafDescriptor: 3, triangleLeaf: 4, triangleLeafHit: 5, proceduralLeaf: 6, stackSpill: -1, coalescingBuffer: -1,
};

export interface TraversalPolicy {
  /** Rays in the unit's traversal, summed per cycle into `rt_avg_active_rays`. */
  readonly activeRays: number;
  /** Rays accepted and not done (the SM's ray-virtualization admission reads it). */
  readonly raysInFlight: number;
  /** Intersection predictor table bytes per SM; 0 without a predictor. */
  readonly predictorTableBytes: number;
  /** Whether a traceRay of a full warp would be accepted now. */
  hasRoom(): boolean;
  /** Takes an SM warp's traceRay; false when there is no room. */
  tryAccept(token: number, work: readonly RtLaneWork[], now: number): boolean;
  /** Before the unit decides whether it has work this cycle (treelets: traceRays without a ray complete). */
  beforeCycle(now: number): void;
  /** First step of a busy cycle, after the accounting (predictor: lookups, updates, the collector). */
  cycle(now: number): void;
  /** After the Response FIFO, before the schedulers (treelets: warp formation). */
  afterResponses(now: number): void;
  /** The ray's transaction is done (its operation finished, or it needed none). */
  advance(ray: RtRay, now: number): void;
  /**
   * The ray's next transaction was scheduled: `fresh` new chunk requests, `merged` chunks merged
   * into pending ones (the predictor counts them per class of ray).
   */
  requested(ray: RtRay, fresh: number, merged: number): void;
  /** The ray starts an operation on a node of `kind` (treelets count tests per traversal mode). */
  opStarted(ray: RtRay, kind: RtNodeKind): void;
  /** The source's last ray is done and its last store acknowledged. */
  sourceDone(src: TraceSource, now: number): void;
  /** A response with a policy tag (below TAG_STORE_ACK). */
  onResponse(w: Waiter, now: number): void;
  /**
   * The memory port's turn after the stores, before node chunks: true when the policy used it
   * (treelets: ray-data loads).
   */
  portBeforeChunks(now: number): boolean;
  /** The memory port's turn when no node chunk is queued (treelets: treelet lines into the L1D). */
  portIdle(now: number): void;
  /** `dt` cycles passed with warps resident (treelets: warp-cycles per traversal mode). */
  accountResident(dt: number): void;
  /** Work of the policy's own that keeps the unit ticking. */
  busy(): boolean;
  /** No ray, queue or pending state of the policy's own. */
  idle(): boolean;
  /** The earliest cycle the policy has work of its own; Infinity when it has none. */
  nextEvent(now: number): number;
  /** For the deadlock watchdog: the oldest traceRay in the unit and where its first unfinished ray is. */
  stall(): { context: number; detail: string } | null;
  /** The run ends: fold remaining counters into the stats. */
  finish(now: number): void;
}
