/**
 * The `stats.json` of a functional run: counters named as Vulkan-Sim / GPGPU-Sim print them
 * where such a name exists (gpu_sim_insn = thread instructions), plus the RT figures and timings.
 */
import { maxTreeDepth } from '../sim/rt/rt-stats.js';
import type { RunResult } from './run-workload.js';
import type { FrameRun } from './frame-totals.js';

export function functionalStats(r: RunResult) {
  const c = r.counters;
  return {
    workload: r.manifest.name,
    width: r.params.width,
    height: r.params.height,
    spp: r.params.spp,
    seed: r.params.seed,
    threads: c.threads,
    warps: c.warps,
    gpu_sim_insn: c.threadInsts,
    warp_insts: c.warpInsts,
    simt_efficiency: c.warpInsts === 0 ? 0 : c.activeLanes / (32 * c.warpInsts),
    rays: r.rt.rays,
    rays_by_depth: r.rt.raysByDepth,
    rt_avg_nodes_per_ray: r.rt.rays === 0 ? 0 : r.rt.nodesVisited / r.rt.rays,
    rt_max_tree_depth: maxTreeDepth(r.accel),
    rt_max_stack_depth: r.rt.maxStackDepth,
    rt_hits: r.rt.hits,
    rt_misses: r.rt.misses,
    rt_any_hit_rays: r.rt.anyHitRays,
    rt_closest_hit_rays: r.rt.closestHitRays,
    rt_candidates: r.rt.candidates,
    shaders: c.functions.filter((f) => f.warpInsts > 0).map((f) => ({
      function: f.name,
      warp_insts: f.warpInsts,
      thread_insts: f.threadInsts,
      simt_efficiency: f.warpInsts === 0 ? 0 : f.threadInsts / (32 * f.warpInsts),
    })),
    memory: c.memory,
    printf: c.printf.length,
    timings_ms: Object.fromEntries(Object.entries(r.timings).map(([k, v]) => [k, Math.round(v)])),
    frames: r.params.frames,
    /** Multi-frame runs: each frame's own figures (the fields above are the run's totals). */
    ...(r.frames.length > 1 ? { per_frame: r.frames.map(frameStats) } : {}),
  };
}

/** One frame's headline figures (stats.json `per_frame`, the report's per-frame series). */
export function frameStats(f: FrameRun) {
  const c = f.counters;
  return {
    frame: f.frame,
    gpu_sim_insn: c.threadInsts,
    warp_insts: c.warpInsts,
    simt_efficiency: c.warpInsts === 0 ? 0 : c.activeLanes / (32 * c.warpInsts),
    rays: f.rt.rays,
    rt_avg_nodes_per_ray: f.rt.rays === 0 ? 0 : f.rt.nodesVisited / f.rt.rays,
    rt_hits: f.rt.hits,
    rt_misses: f.rt.misses,
    simulate_ms: Math.round(f.simulateMs),
  };
}
