// call: for each light, ask its callable shader (selected by light type) for the incoming light,
// then trace a shadow ray; sum the diffuse contributions.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require

#include "host-device.glsl"
#include "offset-ray.glsl"
#include "lights.glsl"

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

layout(push_constant) uniform Surface
{
  vec4 albedo;
  vec4 ambient;
} surfaceParams;

layout(location = 0) rayPayloadInEXT vec3 radiance;
layout(location = 1) rayPayloadEXT bool shadowed;
layout(location = 0) callableDataEXT LightSample lightSample;
hitAttributeEXT vec2 attribs;

void main()
{
  const SurfaceHit surface = meshSurface(gl_PrimitiveID, attribs);
  vec3             normal  = normalToWorld(surface.shadingNormal);
  normal                   = faceforward(normal, gl_WorldRayDirectionEXT, normal);
  const vec3 position      = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
  const vec3 start         = offsetRay(position, normal);

  vec3 sum = surfaceParams.ambient.rgb;
  for(int i = 0, n = min(lightSet.lightCount, MAX_LIGHTS); i < n; ++i)
  {
    lightSample.position   = position;
    lightSample.normal     = normal;
    lightSample.lightIndex = uint(i);
    executeCallableEXT(uint(lightSet.lights[i].type), 0);

    const float cosTheta = dot(normal, lightSample.L);
    if(cosTheta <= 0.0 || all(equal(lightSample.radiance, vec3(0.0))))
      continue;

    // Back faces of occluders are enough to detect a shadow on closed meshes, and culling front
    // faces keeps the surface we start on from shadowing itself.
    shadowed = true;
    traceRayEXT(topLevelAS,
                gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT | gl_RayFlagsCullFrontFacingTrianglesEXT,
                0xFF, 0, 0, 1, start, 0.0, lightSample.L, lightSample.distance, 1);
    if(!shadowed)
      sum += cosTheta * lightSample.radiance;
  }
  radiance = surfaceParams.albedo.rgb * sum;
}
