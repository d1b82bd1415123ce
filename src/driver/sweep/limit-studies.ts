/**
 * Vulkan-Sim's memory limit studies (paper 000, Sec. VI-C, Fig. 15) as named bundles of knobs, so
 * a sweep can vary them like any knob (`--vary limit=baseline,rt-cache,perfect-bvh,perfect-mem`):
 * - baseline: the configuration as given (the RT unit shares the L1D);
 * - rt-cache: a dedicated RT cache per SM instead of the L1D (gpgpu_rt_use_l1 = 0);
 * - perfect-bvh: zero-latency BVH node accesses from the RT unit only (gpgpu_rt_perfect_mem);
 * - perfect-mem: every memory access completes at the L1 latency (gpgpu_perfect_mem).
 */
export const LIMIT_STUDY_KNOB = 'limit';

export const LIMIT_STUDIES: Record<string, { overrides: string[]; description: string }> = {
  baseline: { overrides: [], description: 'the configuration as given' },
  'rt-cache': { overrides: ['gpgpu_rt_use_l1=0'], description: 'dedicated RT cache per SM (gpgpu_rt_cache:l1) instead of the L1D' },
  'perfect-bvh': { overrides: ['gpgpu_rt_perfect_mem=1'], description: 'Perfect BVH: BVH node accesses of the RT unit complete in one cycle' },
  'perfect-mem': { overrides: ['gpgpu_perfect_mem=1'], description: 'Perfect Mem: every memory access completes after the L1 latency' },
};

/** The Fig. 15 set, in the paper's order. */
export const FIG15_LIMIT_STUDIES = ['baseline', 'rt-cache', 'perfect-bvh', 'perfect-mem'] as const;
