// alpha: textured lambert shading with a shadow ray that is itself alpha-tested (shadow any-hit).
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_nonuniform_qualifier : require

#include "host-device.glsl"
#include "offset-ray.glsl"
#include "alpha-common.glsl"

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;

layout(push_constant) uniform AlphaLighting
{
  vec4 lightDirection;
  vec4 lightColor;
  vec4 skyColor;
} lighting;

layout(location = 0) rayPayloadInEXT vec3 color;
layout(location = 1) rayPayloadEXT bool isShadowed;
hitAttributeEXT vec2 attribs;

void main()
{
  const uvec3 tri = indices[gl_PrimitiveID];
  const vec3  p0  = vertices[tri.x].position;
  const vec3  p1  = vertices[tri.y].position;
  const vec3  p2  = vertices[tri.z].position;
  vec3 normal     = normalize(vec3(normalize(cross(p1 - p0, p2 - p0)) * gl_WorldToObjectEXT));
  // Leaves and the fence are two-sided: light the side the ray sees.
  if(gl_HitKindEXT == gl_HitKindBackFacingTriangleEXT)
    normal = -normal;

  // Ray-cone level of detail (Akenine-Moller et al. 2019, simplified to primary rays): the cone's
  // width at the hit, in texels of a 64-texel texture repeated about once per world unit.
  const float pixelSpread = 2.0 * tan(radians(25.0)) / float(gl_LaunchSizeEXT.y);
  const float lod         = max(0.0, log2(gl_HitTEXT * pixelSpread * 64.0));
  const vec4  texel       = surfaceTexel(gl_PrimitiveID, attribs, lod);
  const vec3 position = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
  const vec3 L        = normalize(lighting.lightDirection.xyz);
  float      nDotL    = dot(normal, L);

  if(nDotL > 0.0)
  {
    isShadowed = true;
    // Visibility only: any-hit shaders test alpha and may end the ray; no closest-hit needed.
    traceRayEXT(topLevelAS, gl_RayFlagsSkipClosestHitShaderEXT, 0xFF, 1, 1, 1, offsetRay(position, normal), 0.0, L, 1000.0, 1);
    nDotL = isShadowed ? 0.0 : nDotL;
  }
  color = texel.rgb * (lighting.skyColor.rgb * 0.3 + max(nDotL, 0.0) * lighting.lightColor.rgb);
}
