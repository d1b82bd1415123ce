/**
 * The RT unit's counters (Vulkan-Sim III-C, Fig. 13-14), the same whichever traversal policy runs;
 * stats.ts derives the reported figures from them. The predictor's counters ride along here
 * (`predictor`); the treelet queues keep theirs in treelets/treelet-stats.ts.
 */
import { PredictorStats } from '../predictor/intersection-predictor.js';

export class RtStats {
  warpsCompleted = 0;
  warpLatencySum = 0;
  /** Per-warp latency in the RT unit, cycles (Fig. 13). */
  readonly warpLatencies: number[] = [];
  raysCompleted = 0;
  rayLatencySum = 0;
  /**
   * Where the rays' cycles in the unit go, summed over rays: waiting for their chunk responses
   * (from the requests' queueing or merging to the last response) and in intersection operations
   * (queued start included); the rest of rayLatencySum is waiting to be scheduled (the port, the
   * policy's queues).
   */
  rayMemoryCycles = 0;
  rayOpCycles = 0;
  /**
   * Vulkan-Sim's per-warp measures (shader.cc rt_unit::cycle): the sum over warps of
   * sum(thread end - warp start) / (32 x warp latency), and of sum(thread end - warp start) / 32.
   * Both divide by the warp size, not the active lanes: a warp of few rays is inefficient.
   */
  warpEfficiencySum = 0;
  warpThreadLatencySum = 0;
  /**
   * The two factors of a warp's efficiency, summed over warps: its rays / 32 (how many lanes
   * trace together: the shader's control flow decides it) and sum(thread end - warp start) /
   * (rays x warp latency) (how nearly together its rays finish: the timing decides it), the second
   * over the warps with a ray and a latency (`warpsWithRays`). A warp's efficiency is their product.
   */
  warpRayFractionSum = 0;
  warpUniformitySum = 0;
  warpsWithRays = 0;
  /** Node fetches (internal nodes and leaves; not BVH headers, leaf descriptors or stack spills). */
  nodes = 0;
  /** Every memory transaction of the traversals (Vulkan-Sim gpgpu_n_rt_access_insn). */
  transactions = 0;
  stackSpills = 0;
  /** Function call coalescing: coalescing-buffer reads (Vulkan-Sim IV-A's extra RT-unit loads). */
  coalescingAccesses = 0;
  /** Intersection tests and transforms (roofline operations). */
  ops = 0;
  /** Sum over operations of their pipeline latency (stage-cycles occupied). */
  opStageCycles = 0;
  /** Unique chunk requests sent to the cache (cache blocks fetched). */
  chunkRequests = 0;
  /** Stores (Vulkan-Sim rt_writes): two 32-byte intersection-table writes per procedural-leaf candidate, one 32-byte result per triangle hit. */
  stores = 0;
  /** Chunk requests merged into an identical pending request (within the warp / across warps). */
  mergedInWarp = 0;
  mergedAcrossWarps = 0;
  /** Cycles with at least one warp resident. */
  activeCycles = 0;
  /** Intersection prediction (paper 002), zero when the predictor is off. */
  readonly predictor = new PredictorStats();
  /** Sum over cycles of resident warps / rays still traversing. */
  warpCycles = 0;
  activeRayCycles = 0;
  /** A warp of `rays` rays left the Warp Buffer after `latency` cycles; its rays spent `threadCycles` in it together. */
  warpDone(latency: number, threadCycles: number, rays: number): void {
    this.warpsCompleted++;
    this.warpLatencySum += latency;
    this.warpLatencies.push(latency);
    this.warpThreadLatencySum += threadCycles / 32;
    if (latency > 0) this.warpEfficiencySum += threadCycles / (32 * latency);
    this.warpRayFractionSum += rays / 32;
    if (latency > 0 && rays > 0) {
      this.warpUniformitySum += threadCycles / (rays * latency);
      this.warpsWithRays++;
    }
  }

  add(o: RtStats): void {
    this.warpsCompleted += o.warpsCompleted;
    this.warpLatencySum += o.warpLatencySum;
    for (const l of o.warpLatencies) this.warpLatencies.push(l);
    this.raysCompleted += o.raysCompleted;
    this.rayLatencySum += o.rayLatencySum;
    this.rayMemoryCycles += o.rayMemoryCycles;
    this.rayOpCycles += o.rayOpCycles;
    this.warpEfficiencySum += o.warpEfficiencySum;
    this.warpThreadLatencySum += o.warpThreadLatencySum;
    this.warpRayFractionSum += o.warpRayFractionSum;
    this.warpUniformitySum += o.warpUniformitySum;
    this.warpsWithRays += o.warpsWithRays;
    this.nodes += o.nodes;
    this.transactions += o.transactions;
    this.stackSpills += o.stackSpills;
    this.coalescingAccesses += o.coalescingAccesses;
    this.ops += o.ops;
    this.opStageCycles += o.opStageCycles;
    this.chunkRequests += o.chunkRequests;
    this.stores += o.stores;
    this.mergedInWarp += o.mergedInWarp;
    this.mergedAcrossWarps += o.mergedAcrossWarps;
    this.activeCycles += o.activeCycles;
    this.warpCycles += o.warpCycles;
    this.activeRayCycles += o.activeRayCycles;
    this.predictor.add(o.predictor);
  }
}
