/**
 * The PTX Vulkan-Sim's translator writes for a traceRay (mesa-vulkan-sim ptx_lower_instructions.py
 * `translate_trace_ray`, baseline intersection table), charged on the instructions of our lowering
 * that run as often as each part of it (passes/lower/rt-pipeline.ts, candidate-loop.ts):
 *
 *   trace_ray; mov counter                                   -> rtCall traverse           2
 *   loop: intersection_exit; @exit bra                        -> the loop test's branch    2 per test
 *         get_intersection_shader_data_address;
 *         get_intersection_shaderID;
 *         per intersection shader: setp.ne; @skip bra;         -> rtCall selectCandidate   4 + 2 x intersection shaders
 *         call_intersection_shader (the matching one)         -> the shader call            1
 *         add counter; bra loop
 *   hit_geometry; @!hit bra                                  -> rtCall committedHitGroup  2
 *   get_closest_hit_shaderID; per closest-hit shader:
 *         setp.ne; @skip bra; call_closest_hit_shader          -> rtCall restoreCommitted  1 + 2 x closest-hit shaders, the call 1
 *   @hit bra; call_miss_shader                               -> rtCall endTrace           2 (with end_trace_ray), the call 1
 *   end_trace_ray
 *
 * Everything else our lowering writes (its switches, loop counter, flags, jumps) issues nothing; the
 * payload copies around shader calls have no PTX anywhere (ptx-ops-of.ts).
 * The shader counts are the pipeline's: the translator takes them from every stage it compiled.
 * Each shader stage also starts with a few instructions of the translator's own (`prologue`).
 */
import type { Inst } from '../../ir/inst.js';
import type { Block, Function, Module } from '../../ir/module.js';

export interface TracePtx {
  /**
   * PTX the translator puts at the start of a shader stage, run on each invocation: add_consts'
   * four movs (1 as u16, 0 as u32, 0 and 1 as f32), and in the ray generation shader
   * add_extra_thread_return's launch-bounds check (launch id, launch size, three setp, three bra).
   */
  prologue(fn: Function): number;
  /** PTX instructions of an instruction of `block` when it is a lowered traceRay block; undefined: its own. */
  countOf(inst: Inst, block: Block): number | undefined;
}

export function tracePtx(m: Module): TracePtx {
  const stages = (stage: string): number => m.functions.filter((f) => f.stage === stage).length;
  const intersections = stages('intersection');
  const closestHits = stages('closestHit');
  const raygen = new Set(m.entryPoints.filter((e) => e.stage === 'raygen').map((e) => e.function));
  return {
    prologue(fn) {
      if (raygen.has(fn.id)) return 4 + 8;
      return fn.stage !== undefined && fn.stage !== 'compute' ? 4 : 0;
    },
    countOf(inst, block) {
      if (block.lowered !== 'traceRay') return undefined;
      switch (inst.op) {
        case 'rtCall':
          switch (inst.fn) {
            case 'traverse':
              return 2;
            case 'selectCandidate':
              return 4 + 2 * intersections;
            case 'committedHitGroup':
              return 2;
            case 'restoreCommitted':
              return 1 + 2 * closestHits;
            case 'endTrace':
              return 2;
            default:
              return 0;
          }
        case 'call':
          return 1;
        case 'condBranch':
          // The candidate loop's test (intersection_exit and its branch).
          return block.merge?.kind === 'loop' ? 2 : 0;
        default:
          return 0;
      }
    },
  };
}
