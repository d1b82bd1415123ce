// ref: Blinn-Phong shading with a shadow ray towards the directional light, and for mirror
// materials (MTL illum 3) a reflected ray traced recursively from here.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require

#include "host-device.glsl"
#include "offset-ray.glsl"
#include "ref-common.glsl"

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;
layout(set = 0, binding = BINDING_VERTICES, scalar) readonly buffer VertexBuffer
{
  Vertex vertices[];
};
layout(set = 0, binding = BINDING_INDICES, scalar) readonly buffer IndexBuffer
{
  uvec3 indices[];
};
layout(set = 0, binding = BINDING_MATERIALS, scalar) readonly buffer MaterialBuffer
{
  RefMaterial materials[];
};
layout(set = 0, binding = BINDING_MATERIAL_INDICES, scalar) readonly buffer MaterialIndexBuffer
{
  int materialIndices[];
};

#include "triangle-mesh.glsl"

layout(location = 0) rayPayloadInEXT ShadePayload prd;
layout(location = 1) rayPayloadEXT bool isShadowed;
layout(location = 2) rayPayloadEXT ShadePayload reflected;
hitAttributeEXT vec2 attribs;

// Prototypes; the definitions follow main.
vec3 directLight(const RefMaterial material, vec3 position, vec3 normal, vec3 viewDir);
bool traceShadow(vec3 origin, vec3 towardsLight);

void main()
{
  const SurfaceHit  surface  = meshSurface(gl_PrimitiveID, attribs);
  const RefMaterial material = materials[materialIndices[gl_PrimitiveID]];

  vec3       normal   = normalToWorld(surface.shadingNormal);
  const vec3 viewDir  = -gl_WorldRayDirectionEXT;
  normal              = faceforward(normal, gl_WorldRayDirectionEXT, normal);
  const vec3 position = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;

  vec3 color = material.diffuse * lighting.ambient.rgb;
  // Each further ray from here is one recursion level deeper.
  const bool canTrace = prd.depth + 1u < uint(MAX_RECURSION);
  color += canTrace ? directLight(material, position, normal, viewDir) : material.diffuse * 0.5 * lighting.lightColor.rgb;

#if MAX_RECURSION >= 2 && !defined(REF_NO_REFLECTIONS)
  if(material.illum == 3 && canTrace)
  {
    reflected.radiance = vec3(0.0);
    reflected.depth    = prd.depth + 1u;
    const vec3 dir     = reflect(gl_WorldRayDirectionEXT, normal);
    traceRayEXT(topLevelAS, gl_RayFlagsOpaqueEXT, 0xFF, 0, 0, 0, offsetRay(position, normal), 0.0, dir, 1000.0, 2);
    color = mix(color, reflected.radiance * material.specular, 0.85);
  }
#endif

  prd.radiance = color;
}

vec3 directLight(const RefMaterial material, vec3 position, vec3 normal, vec3 viewDir)
{
  const vec3  L     = normalize(lighting.lightDirection.xyz);
  const float nDotL = dot(normal, L);
  if(nDotL <= 0.0 || traceShadow(offsetRay(position, normal), L))
    return vec3(0.0);

  const vec3  H        = normalize(L + viewDir);
  const float specular = material.illum == 3 ? 0.0 : pow(max(dot(normal, H), 0.0), max(material.shininess, 1.0));
  const vec3  radiance = lighting.lightColor.rgb * lighting.lightColor.w;
  return radiance * (material.diffuse * nDotL + material.specular * specular);
}

bool traceShadow(vec3 origin, vec3 towardsLight)
{
  // Assume occluded; only the shadow miss shader (miss index 1) clears the flag.
  isShadowed = true;
  traceRayEXT(topLevelAS,
              gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
              0xFF, 0, 0, 1, origin, 0.0, towardsLight, 1000.0, 1);
  return isShadowed;
}
