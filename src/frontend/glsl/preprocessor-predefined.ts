/**
 * Macros every shader sees before its first line, as glslangValidator defines them when compiling
 * for Vulkan (`-V`): `VULKAN 100`, `GL_core_profile`, and one `GL_<extension> 1` per extension
 * glslang supports, so `#ifdef GL_EXT_ray_tracing` style tests take the same branch here.
 * Invariant: only extensions relevant to Vulkan ray tracing / compute shaders are listed; a
 * shader testing another one takes its fallback branch.
 */
const EXTENSIONS = [
  'GL_ARB_gpu_shader_int64', 'GL_ARB_shader_clock', 'GL_ARB_shading_language_420pack', 'GL_ARB_separate_shader_objects',
  'GL_ARB_shader_ballot', 'GL_ARB_gpu_shader_fp64', 'GL_ARB_shader_bit_encoding',
  'GL_EXT_ray_tracing', 'GL_EXT_ray_query', 'GL_EXT_ray_flags_primitive_culling', 'GL_EXT_ray_cull_mask',
  'GL_EXT_ray_tracing_position_fetch',
  'GL_EXT_buffer_reference', 'GL_EXT_buffer_reference2', 'GL_EXT_buffer_reference_uvec2',
  'GL_EXT_scalar_block_layout', 'GL_EXT_nonuniform_qualifier', 'GL_EXT_control_flow_attributes',
  'GL_EXT_samplerless_texture_functions', 'GL_EXT_shader_realtime_clock', 'GL_EXT_debug_printf',
  'GL_EXT_shader_16bit_storage', 'GL_EXT_shader_8bit_storage', 'GL_EXT_shader_atomic_float',
  'GL_EXT_shader_atomic_int64', 'GL_EXT_shader_image_load_formatted', 'GL_EXT_shader_image_int64',
  'GL_EXT_shader_explicit_arithmetic_types', 'GL_EXT_shader_explicit_arithmetic_types_int8',
  'GL_EXT_shader_explicit_arithmetic_types_int16', 'GL_EXT_shader_explicit_arithmetic_types_int32',
  'GL_EXT_shader_explicit_arithmetic_types_int64', 'GL_EXT_shader_explicit_arithmetic_types_float16',
  'GL_EXT_shader_explicit_arithmetic_types_float32', 'GL_EXT_shader_explicit_arithmetic_types_float64',
  'GL_EXT_shader_subgroup_extended_types_int8', 'GL_EXT_shader_subgroup_extended_types_int16',
  'GL_EXT_shader_subgroup_extended_types_int64', 'GL_EXT_shader_subgroup_extended_types_float16',
  'GL_KHR_shader_subgroup_basic', 'GL_KHR_shader_subgroup_vote', 'GL_KHR_shader_subgroup_arithmetic',
  'GL_KHR_shader_subgroup_ballot', 'GL_KHR_shader_subgroup_shuffle', 'GL_KHR_shader_subgroup_shuffle_relative',
  'GL_KHR_shader_subgroup_clustered', 'GL_KHR_shader_subgroup_quad',
  'GL_GOOGLE_include_directive', 'GL_GOOGLE_cpp_style_line_directive',
];

/** Name/value pairs, defined in this order before any `-D` define. */
export const PREDEFINED_MACROS: ReadonlyArray<readonly [string, string]> = [
  ['GL_core_profile', '1'],
  ['VULKAN', '100'],
  ...EXTENSIONS.map((e): [string, string] => [e, '1']),
];
