// rtv6: shade a sphere: lambert with a shadow ray, coloured by the hit group's shader record.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "host-device.glsl"
#include "offset-ray.glsl"
#include "rtv6-common.glsl"

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;

layout(shaderRecordEXT, std430) buffer SphereRecord
{
  vec4 albedo;
  vec4 instanceTint;  // mixed in by gl_InstanceID, to tell instances apart
};

layout(location = 0) rayPayloadInEXT ShadingPayload prd;
layout(location = 1) rayPayloadEXT bool shadowed;
hitAttributeEXT vec3 sphereNormal;

void main()
{
  const vec3 worldPos = gl_WorldRayOriginEXT + gl_HitTEXT * gl_WorldRayDirectionEXT;
  const vec3 normal   = normalize(gl_ObjectToWorldEXT * vec4(sphereNormal, 0.0));
  const vec3 L        = normalize(settings.lightDirection.xyz);

  float lambert = max(dot(normal, L), 0.0);
  if(lambert > 0.0)
  {
    shadowed = true;
    traceRayEXT(topLevelAS, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
                0xFF, SBT_OFFSET_SHADOW, SBT_STRIDE, MISS_SHADOW, offsetRay(worldPos, normal), 0.0, L, 1000.0, 1);
    lambert *= shadowed ? 0.0 : 1.0;
  }

  const vec3 base = mix(albedo.rgb, instanceTint.rgb, float(gl_InstanceID & 1) * instanceTint.a);
  prd.color       = base * (settings.ambient.rgb + lambert * settings.lightColor.rgb);
  prd.hitKind     = 0;
}
