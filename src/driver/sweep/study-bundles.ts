/**
 * Named bundles of knobs that a sweep varies like one knob (`--vary <study>=<bundle>,...`), one
 * pseudo-knob per study of the papers:
 *
 * `limit`: Vulkan-Sim's memory limit studies (paper 000, Sec. VI-C, Fig. 15):
 * - baseline: the configuration as given (the RT unit shares the L1D);
 * - rt-cache: a dedicated RT cache per SM instead of the L1D (gpgpu_rt_use_l1 = 0);
 * - perfect-bvh: zero-latency BVH node accesses from the RT unit only (gpgpu_rt_perfect_mem);
 * - perfect-mem: every memory access completes at the L1 latency (gpgpu_perfect_mem).
 *
 * `predictor`: the ray intersection predictor (paper 002) against the baseline RT unit, with
 * the paper's Table 3 defaults: Fig. 15's Default (no repacking), Repack and Repack 4 (four
 * additional warps), and Fig. 2's limit studies (oracle lookup, training, update).
 *
 * `treelets`: virtualized treelet queues (paper 001) against the baseline RT unit: ray
 * virtualization alone, naive treelet queues (Fig. 12), grouped queues without repacking and with
 * the 16- and 22-ray repack thresholds (Fig. 13a), and a limit study with nearly free CTA state.
 */
export interface StudyBundle {
  overrides: string[];
  description: string;
}

export const STUDY_BUNDLES: Record<string, Record<string, StudyBundle>> = {
  limit: {
    baseline: { overrides: [], description: 'the configuration as given' },
    'rt-cache': { overrides: ['gpgpu_rt_use_l1=0'], description: 'dedicated RT cache per SM (gpgpu_rt_cache:l1) instead of the L1D' },
    'perfect-bvh': { overrides: ['gpgpu_rt_perfect_mem=1'], description: 'Perfect BVH: BVH node accesses of the RT unit complete in one cycle' },
    'perfect-mem': { overrides: ['gpgpu_perfect_mem=1'], description: 'Perfect Mem: every memory access completes after the L1 latency' },
  },
  predictor: {
    baseline: { overrides: ['gpgpu_rt_predictor=0'], description: 'the baseline RT unit, no predictor' },
    default: { overrides: ['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_repack=0'], description: 'predictor without warp repacking (Fig. 15 "Default")' },
    repack: { overrides: ['gpgpu_rt_predictor=1'], description: 'predictor with warp repacking, the paper\'s configuration (Table 3, Fig. 15 "Repack")' },
    'repack-4': { overrides: ['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_extra_warps=4'], description: 'repacking with four additional warps (Fig. 15 "Repack 4")' },
    'oracle-lookup': { overrides: ['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=lookup'], description: 'oracle lookup: the table entry that verifies the ray, if any (Fig. 2 "OL")' },
    'oracle-training': { overrides: ['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=training'], description: 'oracle training: any node an earlier ray hit, unbounded table (Fig. 2 "OT")' },
    'oracle-update': { overrides: ['gpgpu_rt_predictor=1', 'gpgpu_rt_predictor_oracle=update'], description: 'oracle update: training with updates at lookup time (Fig. 2 "OU")' },
  },
  treelets: {
    baseline: { overrides: ['rt_ray_virtualization=0', 'rt_treelet_queues=0'], description: 'the baseline RT unit' },
    virtualization: { overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=0'], description: 'ray virtualization alone (Sec. 3.1)' },
    naive: {
      overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=1', 'rt_treelet_group_underpopulated=0', 'rt_treelet_repack_threshold=0'],
      description: 'naive treelet queues: every queue treelet-stationary (Fig. 12)',
    },
    'no-repack': { overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=1', 'rt_treelet_repack_threshold=0'], description: 'grouped underpopulated queues, no repacking (Fig. 13a)' },
    'repack-16': { overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=1', 'rt_treelet_repack_threshold=16'], description: 'warp repacking below 16 active rays (Fig. 13a)' },
    'repack-22': { overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=1', 'rt_treelet_repack_threshold=22'], description: 'warp repacking below 22 active rays, the paper\'s configuration (Fig. 13a)' },
    'free-state': {
      overrides: ['rt_ray_virtualization=1', 'rt_treelet_queues=1', 'rt_treelet_repack_threshold=22', 'rt_cta_saved_registers=1', 'rt_cta_simt_stack_bytes=0'],
      description: 'repack-22 with nearly free CTA state (limit study of the save / restore traffic)',
    },
  },
};

/** Vulkan-Sim Fig. 15's set, in the paper's order. */
export const FIG15_LIMIT_STUDIES = ['baseline', 'rt-cache', 'perfect-bvh', 'perfect-mem'] as const;

/** Paper 002's predictor study (Fig. 15 and the Fig. 2 oracles), in the paper's order. */
export const PREDICTOR_STUDY = ['baseline', 'default', 'repack', 'repack-4', 'oracle-lookup', 'oracle-training', 'oracle-update'] as const;

/** Paper 001's treelet study, in the order of its figures. */
export const TREELET_STUDY = ['baseline', 'virtualization', 'naive', 'no-repack', 'repack-16', 'repack-22', 'free-state'] as const;

export function isStudyKnob(knob: string): boolean {
  return Object.hasOwn(STUDY_BUNDLES, knob);
}
