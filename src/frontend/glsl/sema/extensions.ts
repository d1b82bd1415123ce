/**
 * Which `#extension` enables which language feature, so a shader using a feature it did not
 * enable is rejected as glslang rejects it (e.g. `uint64_t` without
 * GL_EXT_shader_explicit_arithmetic_types_int64). Any behaviour but `disable` enables an extension;
 * umbrella extensions (GL_EXT_shader_explicit_arithmetic_types, later subgroup extensions, the
 * `2` variants) enable what they include.
 */
export type Feature =
  | 'int64' | 'int16' | 'int8' | 'float16'
  | 'bufferReference' | 'scalarLayout'
  | 'rayTracing' | 'rayCullMask' | 'rayFlagsPrimitiveCulling' | 'rayTracingPositionFetch'
  | 'subgroupBasic' | 'subgroupVote' | 'subgroupBallot' | 'subgroupArithmetic' | 'subgroupShuffle' | 'subgroupShuffleRelative'
  | 'controlFlowAttributes'
  | 'shaderClock' | 'realtimeClock' | 'debugPrintf' | 'nonuniform' | 'atomicInt64' | 'atomicFloat';

const SUBGROUP_ALL = [
  'GL_KHR_shader_subgroup_basic', 'GL_KHR_shader_subgroup_vote', 'GL_KHR_shader_subgroup_ballot', 'GL_KHR_shader_subgroup_arithmetic',
  'GL_KHR_shader_subgroup_shuffle', 'GL_KHR_shader_subgroup_shuffle_relative', 'GL_KHR_shader_subgroup_clustered', 'GL_KHR_shader_subgroup_quad',
];

/** Extensions that enable each feature; the first is the one named in diagnostics. */
export const FEATURE_EXTENSIONS: Readonly<Record<Feature, readonly string[]>> = {
  int64: ['GL_EXT_shader_explicit_arithmetic_types_int64', 'GL_EXT_shader_explicit_arithmetic_types', 'GL_ARB_gpu_shader_int64', 'GL_AMD_gpu_shader_int64', 'GL_NV_gpu_shader5'],
  int16: ['GL_EXT_shader_explicit_arithmetic_types_int16', 'GL_EXT_shader_explicit_arithmetic_types', 'GL_AMD_gpu_shader_int16', 'GL_EXT_shader_16bit_storage'],
  int8: ['GL_EXT_shader_explicit_arithmetic_types_int8', 'GL_EXT_shader_explicit_arithmetic_types', 'GL_EXT_shader_8bit_storage'],
  float16: ['GL_EXT_shader_explicit_arithmetic_types_float16', 'GL_EXT_shader_explicit_arithmetic_types', 'GL_AMD_gpu_shader_half_float', 'GL_EXT_shader_16bit_storage'],
  bufferReference: ['GL_EXT_buffer_reference', 'GL_EXT_buffer_reference2', 'GL_EXT_buffer_reference_uvec2'],
  scalarLayout: ['GL_EXT_scalar_block_layout'],
  rayTracing: ['GL_EXT_ray_tracing'],
  rayCullMask: ['GL_EXT_ray_cull_mask'],
  rayTracingPositionFetch: ['GL_EXT_ray_tracing_position_fetch'],
  rayFlagsPrimitiveCulling: ['GL_EXT_ray_flags_primitive_culling'],
  subgroupBasic: SUBGROUP_ALL,
  subgroupVote: ['GL_KHR_shader_subgroup_vote'],
  subgroupBallot: ['GL_KHR_shader_subgroup_ballot'],
  subgroupArithmetic: ['GL_KHR_shader_subgroup_arithmetic'],
  subgroupShuffle: ['GL_KHR_shader_subgroup_shuffle'],
  subgroupShuffleRelative: ['GL_KHR_shader_subgroup_shuffle_relative'],
  controlFlowAttributes: ['GL_EXT_control_flow_attributes', 'GL_EXT_control_flow_attributes2'],
  shaderClock: ['GL_ARB_shader_clock', 'GL_EXT_shader_realtime_clock'],
  realtimeClock: ['GL_EXT_shader_realtime_clock'],
  debugPrintf: ['GL_EXT_debug_printf'],
  nonuniform: ['GL_EXT_nonuniform_qualifier'],
  atomicInt64: ['GL_EXT_shader_atomic_int64', 'GL_NV_shader_atomic_int64'],
  atomicFloat: ['GL_EXT_shader_atomic_float', 'GL_EXT_shader_atomic_float2'],
};

/** True when one of the extensions enabling `feature` is enabled. */
export function featureEnabled(enabled: ReadonlySet<string>, feature: Feature): boolean {
  if (enabled.has('all')) return true;
  return FEATURE_EXTENSIONS[feature].some((e) => enabled.has(e));
}

/** The message for using `what` without its extension. */
export function missingExtensionMessage(feature: Feature, what: string): string {
  const exts = FEATURE_EXTENSIONS[feature];
  const alt = exts.length > 1 ? ` (or ${exts.slice(1, 3).join(', ')})` : '';
  return `'${what}' requires #extension ${exts[0]}${alt}`;
}

/** The feature a built-in type name needs, if any (`uint64_t`, `i64vec3`, `float16_t`, ...). */
export function typeNameFeature(name: string): Feature | undefined {
  if (/^(u?int64_t|[iu]64vec[234])$/.test(name)) return 'int64';
  if (/^(u?int16_t|[iu]16vec[234])$/.test(name)) return 'int16';
  if (/^(u?int8_t|[iu]8vec[234])$/.test(name)) return 'int8';
  if (/^(float16_t|f16vec[234]|f16mat[234](x[234])?)$/.test(name)) return 'float16';
  return undefined;
}
