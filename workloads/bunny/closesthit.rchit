// bunny: shade the bunny: direct light with a shadow ray, times ambient occlusion from
// AO_SAMPLES short rays (both traced from here, recursion depth 2).
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require

#include "host-device.glsl"
#include "random.glsl"
#include "sampling.glsl"
#include "offset-ray.glsl"
#include "bunny-common.glsl"

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;
layout(set = 0, binding = BINDING_VERTICES, scalar) readonly buffer VertexBuffer
{
  Vertex vertices[];
};
layout(set = 0, binding = BINDING_INDICES, scalar) readonly buffer IndexBuffer
{
  uvec3 indices[];
};

#include "triangle-mesh.glsl"

layout(location = 0) rayPayloadInEXT ShadePayload prd;
layout(location = SHADOW_PAYLOAD_LOCATION) rayPayloadEXT bool isShadowed;
hitAttributeEXT vec2 attribs;

void main()
{
  const SurfaceHit surface = meshSurface(gl_PrimitiveID, attribs);
  const vec3       normal  = faceforward(normalToWorld(surface.geometricNormal), gl_WorldRayDirectionEXT, normalToWorld(surface.geometricNormal));
  const vec3       p       = offsetRay(gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT, normal);
  const vec3       L       = normalize(settings.lightDirection.xyz);

  float direct = max(dot(normal, L), 0.0);
  if(direct > 0.0)
  {
    isShadowed = true;
    traceRayEXT(topLevelAS, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
                0xFF, 0, 0, MISS_SHADOW, p, 0.0, L, 100.0, SHADOW_PAYLOAD_LOCATION);
    direct = isShadowed ? 0.0 : direct;
  }

  float ao;
  AO_LOOP(p, normal, prd.rngState, ao)

  const vec3 albedo = vec3(0.85, 0.8, 0.75);
  prd.color = albedo * (direct * settings.lightColor.rgb + ao * settings.skyColor.rgb * 0.6);
}
