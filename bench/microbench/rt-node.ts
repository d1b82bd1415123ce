/**
 * RT-unit microbenchmarks (issue 26 part 4): node-fetch latency and throughput, on the rtnode
 * workload (bench/microbench/rtnode/): a row of triangles whose BVH each ray crosses along one
 * fixed chain of nodes, root to leaf, missing the triangle at the end (no hit store, no hit shader,
 * and an empty miss shader, so a trace costs the SM next to nothing besides the RT unit).
 *
 * The chain of one ray, as Vulkan-Sim's traversal records it (vulkan_ray_tracing.cc): the TLAS's
 * BVH header (64 B), the TLAS root (internal, 64 B), the instance leaf (128 B), the BLAS's header,
 * the BLAS's internal nodes (64 B each), the triangle leaf's primitive leaf descriptor (8 B) and
 * the triangle leaf (64 B) -- the sizes of GEN_RT_BVH_length / INTERNAL_NODE_length /
 * INSTANCE_LEAF_length / PRIMITIVE_LEAF_DESCRIPTOR_length / QUAD_LEAF_length (16, 16, 32, 2, 16
 * dwords). A ray of n nodes makes n + 3 transactions; the leaf's first chunk is the descriptor's.
 *
 * What the config implies, from Vulkan-Sim's rt_unit (shader.cc) and warp_inst_t
 * (abstract_hardware_model.cc), per transaction of k 32 B chunks and intersection latency L
 * (gpgpu_rt_intersection_latency at its TransactionType: BVH header [0], internal [1], instance
 * leaf [2], leaf descriptor [3], quad leaf [4]):
 * - memory_cycle sends at most one access per cycle: the node's first chunk from
 *   process_memory_access_queue, the other k - 1 from mem_access_q in the next cycles;
 * - an L1D hit is answered inside process_cache_access, in the cycle of the access (no response
 *   FIFO; Vulkan-Sim has no RT hit latency option); the last chunk sets intersection_delay = L;
 * - dec_thread_latency runs at the start of each cycle, before memory_cycle, so the ray's next
 *   access goes out in the cycle its delay reaches 0: a node takes k - 1 + L cycles after the cycle
 *   of its first chunk, i.e. k + L - 1 cycles per node for one ray, and the warp completes in the
 *   cycle its last delay reaches 0 (warp latency = the sum over its nodes);
 * - a miss takes the L1D's miss path without the LD/ST unit's gpgpu_l1_latency (the RT unit looks
 *   the L1D up directly): to the L2 and DRAM and back, popped from the response FIFO.
 * Throughput: at most one access (chunk) per cycle per RT unit, and at most gpgpu_rt_max_warps
 * warps in it, each ray waiting for its own node and test before its next access.
 */
import type { ConfigValues } from './config-values.js';
import type { MicrobenchRow } from './suite.js';
import type { ProbeRecord } from './probe.js';

export interface RtNodeContext {
  v: ConfigValues;
  /** Runs the rtnode workload on one SM with these push constants and launch height (warps of 32). */
  run: (push: Record<string, number>, warps: number) => Promise<{ stats: Record<string, number>; probe: ProbeRecord }>;
  /** Warps one SM holds for a launch of one-warp CTAs. */
  warpsPerSm: number;
  /** The RT unit's miss path to an L2 hit and back, and how it follows from the config. */
  l2Path: number;
  l2Formula: string;
  /** The RT unit's miss path to DRAM and back (bank precharged), and how it follows from the config. */
  memPath: number;
  memFormula: string;
  /** Lines of the L1D (the latency run loads twice as many to evict the nodes before its second trace). */
  l1Lines: number;
  add: (r: MicrobenchRow) => void;
}

/** Vulkan-Sim's transaction sizes (bytes) and TransactionType indices into gpgpu_rt_intersection_latency. */
const HEADER = { bytes: 64, type: 0 };
const INTERNAL = { bytes: 64, type: 1 };
const INSTANCE_LEAF = { bytes: 128, type: 2 };
const DESCRIPTOR = { bytes: 8, type: 3 };
const QUAD_LEAF = { bytes: 64, type: 4 };
const CHUNK = 32;
const TRI_COUNT = 1296;
const TRI_BASE = 600;

const f1 = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));

export async function rtNodeRows(x: RtNodeContext): Promise<void> {
  const { v } = x;
  const lat = v.list('gpgpu_rt_intersection_latency');
  const maxWarps = v.num('gpgpu_rt_max_warps');
  const chunks = (bytes: number): number => Math.ceil(bytes / CHUNK);
  /** The transactions of a ray of n nodes, in fetch order. */
  const chain = (n: number) => [HEADER, INTERNAL, INSTANCE_LEAF, HEADER, ...Array.from({ length: n - 3 }, () => INTERNAL), DESCRIPTOR, QUAD_LEAF];
  const latFormula = `gpgpu_rt_intersection_latency ${lat.join(',')} (header [0] ${lat[0]}, internal [1] ${lat[1]}, instance leaf [2] ${lat[2]}, descriptor [3] ${lat[3]}, quad leaf [4] ${lat[4]})`;
  const push = (traces: number, activeLanes: number, laneStride: number, evictLines = 0) =>
    ({ traces, activeLanes, triBase: TRI_BASE, triStride: 0, laneStride, triCount: TRI_COUNT, evictLines });

  // --- latency: one ray (one lane of one warp), traced three times: the first finds its nodes cold
  //     (DRAM), the second in the L2 only (the lane loaded 2x the L1D's lines in between), the third in the L1D.
  const traces = 3;
  const one = await x.run(push(traces, 1, 0, 2 * x.l1Lines), 1);
  const n = one.stats.rt_avg_nodes_per_ray!;
  const nodes = chain(n);
  const tx = nodes.length;
  const chunksPerRay = nodes.reduce((s, d) => s + chunks(d.bytes), 0);
  const measuredChunks = one.stats.rt_total_requests! / traces;
  // The expected figures assume the chain above; a scene or traversal that breaks it must not pass silently.
  if (!Number.isInteger(n) || n < 3 || measuredChunks !== chunksPerRay || one.probe.rtResidencies[0]!.length !== traces) {
    throw new Error(`microbench rtnode: expected one fixed chain per ray, got ${n} nodes, ${measuredChunks} chunks per trace (chain: ${chunksPerRay}), ${one.probe.rtResidencies[0]!.length} RT warps`);
  }
  const [cold, l2, warm] = one.probe.rtResidencies[0]! as [number, number, number];
  const hitNode = nodes.reduce((s, d) => s + chunks(d.bytes) + lat[d.type]! - 1, 0) / tx;
  const chainText = `${tx} transactions per ray (TLAS header, TLAS root, instance leaf 128 B, BLAS header, ${n - 3} BLAS internal, leaf descriptor 8 B, triangle leaf; ` +
    `rt_avg_nodes_per_ray ${f1(n)}, rt_total_transactions ${f1(one.stats.rt_total_transactions! / traces)} per trace), ${chunksPerRay} chunks (measured ${f1(measuredChunks)} per trace)`;
  x.add({
    mechanism: 'RT unit', figure: 'fetch latency, nodes in the L1D (1 ray; RT warp latency / transactions)', achieved: warm / tx, expected: hitNode, unit: 'cycles',
    formula: `per transaction k 32 B chunks one per cycle + ${latFormula} - 1 (Vulkan-Sim answers an RT L1D hit in the cycle of the access and issues the next access in the cycle the test ends; gpgpu_rt_cache_hit_latency is not a Vulkan-Sim option), averaged over the chain: ${f1(hitNode * tx)} cycles / ${tx} transactions`,
    detail: `${chainText}; third trace's warp latency ${warm} cycles`,
  });
  const l2Node = nodes.reduce((s, d) => s + chunks(d.bytes) - 1 + x.l2Path + lat[d.type]! - 1, 0) / tx;
  x.add({
    mechanism: 'RT unit', figure: 'fetch latency, nodes in the L2 (1 ray, second trace after evicting the L1D; RT warp latency / transactions)', achieved: l2 / tx, expected: l2Node, unit: 'cycles',
    formula: `per transaction (k - 1) chunk cycles + RT L2 path ${f1(x.l2Path)} (${x.l2Formula}; no gpgpu_l1_latency: the RT unit looks the L1D up directly) + intersection latency - 1 (${latFormula})`,
    detail: `${chainText}; second trace's warp latency ${l2} cycles, after ${2 * x.l1Lines} line loads (2x the L1D's ${x.l1Lines} lines)`,
  });
  const missNode = nodes.reduce((s, d) => s + chunks(d.bytes) - 1 + x.memPath + lat[d.type]! - 1, 0) / tx;
  x.add({
    mechanism: 'RT unit', figure: 'fetch latency, nodes cold (1 ray, first trace; RT warp latency / transactions)', achieved: cold / tx, expected: missNode, unit: 'cycles',
    formula: `per transaction (k - 1) chunk cycles + RT miss path ${f1(x.memPath)} (${x.memFormula}) + intersection latency - 1 (${latFormula})`,
    detail: `${chainText}; first trace's warp latency ${cold} cycles; DRAM row-buffer hit rate of the run ${one.stats.dram_row_buffer_hit_rate!.toFixed(2)} (a row hit saves tRCD x clock)`,
  });

  // --- throughput by difference: every warp slot of one SM traces the same rays (L1D hits after the first trace).
  const warps = x.warpsPerSm;
  const port = 1; // chunks per cycle (rt_unit::memory_cycle: one cache access per cycle)
  for (const c of [
    { name: 'divergent rays (32 per warp)', lanes: 32, laneStride: 37, iters: [1, 3] },
    { name: 'coherent rays (one per warp)', lanes: 1, laneStride: 0, iters: [2, 10] },
  ]) {
    const iters = c.iters;
    const a = await x.run(push(iters[0], c.lanes, c.laneStride), warps);
    const b = await x.run(push(iters[1], c.lanes, c.laneStride), warps);
    const warpTraces = (iters[1] - iters[0]) * warps;
    const dChunks = b.stats.rt_total_requests! - a.stats.rt_total_requests!;
    const dCycles = b.stats.gpu_sim_cycle! - a.stats.gpu_sim_cycle!;
    const chunksPerWarpTrace = dChunks / warpTraces;
    const portBound = port;
    // A ray makes its transactions one after the other, hitNode x tx cycles per trace: at most
    // gpgpu_rt_max_warps warps each requesting its trace's chunks (rays sharing a chunk share its request) per that time.
    const warpBound = (maxWarps * chunksPerWarpTrace) / (hitNode * tx);
    const expected = Math.min(portBound, warpBound);
    const binds = portBound <= warpBound ? 'the memory port binds' : 'gpgpu_rt_max_warps binds';
    x.add({
      mechanism: 'RT unit', figure: `chunk accesses per cycle per RT unit, ${c.name}, L1D hits`, achieved: dChunks / dCycles, expected, unit: 'chunks/cycle',
      formula: `min(one access per cycle (rt_unit::memory_cycle) = ${portBound}, gpgpu_rt_max_warps ${maxWarps} x ${chunksPerWarpTrace.toFixed(1)} chunks per warp trace / ${f1(hitNode * tx)} cycles per trace of one ray = ${warpBound.toFixed(3)}): ${binds}`,
      detail: `${warps} warps on 1 SM, ${iters[1]} vs ${iters[0]} traces per lane: ${dChunks} more chunk requests in ${dCycles} more cycles; RT warp occupancy ${b.stats.rt_avg_warp_occupancy!.toFixed(2)}; L1D miss rate ${b.stats.L1D_total_cache_miss_rate!.toFixed(3)}`,
    });
  }
}
