/**
 * Built-in variables and constants: the ray tracing built-ins of every stage (GL_EXT_ray_tracing,
 * GL_EXT_ray_cull_mask, GL_EXT_ray_tracing_position_fetch), compute and subgroup built-ins, and the `gl_RayFlags*EXT` /
 * `gl_HitKind*EXT` constants.
 *
 * Each variable lists the stages it exists in, as the extension specification says; using one
 * elsewhere is an error naming the stage. Types are GLSL type names resolved per module.
 */
import type { Builtin, Stage } from '../../../ir/module.js';

export interface BuiltinVariable {
  builtin: Builtin;
  type: string;
  stages: readonly Stage[];
}

const RT_ALL: readonly Stage[] = ['raygen', 'closestHit', 'miss', 'anyHit', 'intersection', 'callable'];
const HIT_AND_INTERSECTION: readonly Stage[] = ['closestHit', 'anyHit', 'intersection'];
const RAY_STAGES: readonly Stage[] = ['closestHit', 'anyHit', 'intersection', 'miss'];
const HIT_ONLY: readonly Stage[] = ['closestHit', 'anyHit'];
const ALL: readonly Stage[] = [...RT_ALL, 'compute'];
const COMPUTE: readonly Stage[] = ['compute'];

export const BUILTIN_VARIABLES: Readonly<Record<string, BuiltinVariable>> = {
  gl_LaunchIDEXT: { builtin: 'LaunchId', type: 'uvec3', stages: RT_ALL },
  gl_LaunchSizeEXT: { builtin: 'LaunchSize', type: 'uvec3', stages: RT_ALL },
  gl_PrimitiveID: { builtin: 'PrimitiveId', type: 'int', stages: HIT_AND_INTERSECTION },
  gl_InstanceID: { builtin: 'InstanceId', type: 'int', stages: HIT_AND_INTERSECTION },
  gl_InstanceCustomIndexEXT: { builtin: 'InstanceCustomIndex', type: 'int', stages: HIT_AND_INTERSECTION },
  gl_GeometryIndexEXT: { builtin: 'GeometryIndex', type: 'int', stages: HIT_AND_INTERSECTION },
  gl_WorldRayOriginEXT: { builtin: 'WorldRayOrigin', type: 'vec3', stages: RAY_STAGES },
  gl_WorldRayDirectionEXT: { builtin: 'WorldRayDirection', type: 'vec3', stages: RAY_STAGES },
  gl_ObjectRayOriginEXT: { builtin: 'ObjectRayOrigin', type: 'vec3', stages: HIT_AND_INTERSECTION },
  gl_ObjectRayDirectionEXT: { builtin: 'ObjectRayDirection', type: 'vec3', stages: HIT_AND_INTERSECTION },
  gl_RayTminEXT: { builtin: 'RayTmin', type: 'float', stages: RAY_STAGES },
  gl_RayTmaxEXT: { builtin: 'RayTmax', type: 'float', stages: RAY_STAGES },
  gl_IncomingRayFlagsEXT: { builtin: 'IncomingRayFlags', type: 'uint', stages: RAY_STAGES },
  gl_HitTEXT: { builtin: 'HitT', type: 'float', stages: HIT_ONLY },
  gl_HitKindEXT: { builtin: 'HitKind', type: 'uint', stages: HIT_ONLY },
  gl_CullMaskEXT: { builtin: 'CullMask', type: 'uint', stages: RAY_STAGES },
  gl_ObjectToWorldEXT: { builtin: 'ObjectToWorld', type: 'mat4x3', stages: HIT_AND_INTERSECTION },
  gl_WorldToObjectEXT: { builtin: 'WorldToObject', type: 'mat4x3', stages: HIT_AND_INTERSECTION },
  gl_ObjectToWorld3x4EXT: { builtin: 'ObjectToWorld3x4', type: 'mat3x4', stages: HIT_AND_INTERSECTION },
  gl_WorldToObject3x4EXT: { builtin: 'WorldToObject3x4', type: 'mat3x4', stages: HIT_AND_INTERSECTION },
  // GL_EXT_ray_tracing_position_fetch: triangle hits only, so not in intersection shaders.
  gl_HitTriangleVertexPositionsEXT: { builtin: 'HitTriangleVertexPositions', type: 'vec3[3]', stages: HIT_ONLY },
  gl_SubgroupSize: { builtin: 'SubgroupSize', type: 'uint', stages: ALL },
  gl_SubgroupInvocationID: { builtin: 'SubgroupLocalInvocationId', type: 'uint', stages: ALL },
  gl_SubgroupEqMask: { builtin: 'SubgroupEqMask', type: 'uvec4', stages: ALL },
  gl_SubgroupGeMask: { builtin: 'SubgroupGeMask', type: 'uvec4', stages: ALL },
  gl_SubgroupGtMask: { builtin: 'SubgroupGtMask', type: 'uvec4', stages: ALL },
  gl_SubgroupLeMask: { builtin: 'SubgroupLeMask', type: 'uvec4', stages: ALL },
  gl_SubgroupLtMask: { builtin: 'SubgroupLtMask', type: 'uvec4', stages: ALL },
  gl_NumSubgroups: { builtin: 'NumSubgroups', type: 'uint', stages: COMPUTE },
  gl_SubgroupID: { builtin: 'SubgroupId', type: 'uint', stages: COMPUTE },
  gl_GlobalInvocationID: { builtin: 'GlobalInvocationId', type: 'uvec3', stages: COMPUTE },
  gl_LocalInvocationID: { builtin: 'LocalInvocationId', type: 'uvec3', stages: COMPUTE },
  gl_WorkGroupID: { builtin: 'WorkgroupId', type: 'uvec3', stages: COMPUTE },
  gl_NumWorkGroups: { builtin: 'NumWorkgroups', type: 'uvec3', stages: COMPUTE },
  gl_LocalInvocationIndex: { builtin: 'LocalInvocationIndex', type: 'uint', stages: COMPUTE },
};

/** `const uint` built-in constants (GL_EXT_ray_tracing, GL_EXT_ray_flags_primitive_culling). */
export const BUILTIN_CONSTANTS: Readonly<Record<string, number>> = {
  gl_RayFlagsNoneEXT: 0,
  gl_RayFlagsOpaqueEXT: 1,
  gl_RayFlagsNoOpaqueEXT: 2,
  gl_RayFlagsTerminateOnFirstHitEXT: 4,
  gl_RayFlagsSkipClosestHitShaderEXT: 8,
  gl_RayFlagsCullBackFacingTrianglesEXT: 16,
  gl_RayFlagsCullFrontFacingTrianglesEXT: 32,
  gl_RayFlagsCullOpaqueEXT: 64,
  gl_RayFlagsCullNoOpaqueEXT: 128,
  gl_RayFlagsSkipTrianglesEXT: 256,
  gl_RayFlagsSkipAABBEXT: 512,
  gl_HitKindFrontFacingTriangleEXT: 0xfe,
  gl_HitKindBackFacingTriangleEXT: 0xff,
};

/** Readable stage names for diagnostics (`closest-hit shader`). */
export const STAGE_NAMES: Readonly<Record<Stage, string>> = {
  raygen: 'ray generation', closestHit: 'closest-hit', miss: 'miss', anyHit: 'any-hit',
  intersection: 'intersection', callable: 'callable', compute: 'compute',
};

export function stageList(stages: readonly Stage[]): string {
  return stages.map((s) => STAGE_NAMES[s]).join(', ');
}
