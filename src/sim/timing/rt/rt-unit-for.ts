/**
 * The RT unit an SM's configuration asks for: the one unit (rt-unit.ts) with the traversal policy
 * the knobs select -- treelet queues or ray virtualization (`rt_treelet_queues`,
 * `rt_ray_virtualization`, paper 001), with the intersection predictor's lookup in front when
 * `gpgpu_rt_predictor` is on too; else the intersection predictor (`gpgpu_rt_predictor`, paper
 * 002) on the baseline order; else the baseline order. simulate() refuses the predictor's warp
 * repacking under the treelet policy (gpu.ts).
 */
import type { GpuConfig } from '../../config/gpu-config.js';
import type { TreeletMap } from '../../rt/treelets.js';
import { PredictorPolicy } from '../predictor/predictor-policy.js';
import { TreeletPolicy } from '../treelets/treelet-policy.js';
import { BaselineOrder } from './baseline-order.js';
import { RtUnit, type RtUnitPorts } from './rt-unit.js';

/** Without rt_treelet_queues the treelet policy still needs a map (ray virtualization alone never reads it). */
const NO_TREELETS: TreeletMap = { treeletOfAddress: new Map(), treeletStart: [], treeletBytes: [], budget: 8192 };

export function rtUnitFor(cfg: GpuConfig, ports: RtUnitPorts, smId: number, treelets?: TreeletMap): RtUnit {
  if (cfg.treelet.queues || cfg.treelet.virtualization) {
    if (cfg.treelet.queues && !treelets) throw new Error('internal: rt_treelet_queues needs the BVH\'s treelet map');
    return new RtUnit(cfg, ports, cfg.rt.maxWarps, (u) => new TreeletPolicy(u, treelets ?? NO_TREELETS, smId));
  }
  if (cfg.rt.predictor.enabled) return new RtUnit(cfg, ports, PredictorPolicy.entries({ cfg }), (u) => new PredictorPolicy(u));
  return new RtUnit(cfg, ports, cfg.rt.maxWarps, (u) => new BaselineOrder(u));
}
