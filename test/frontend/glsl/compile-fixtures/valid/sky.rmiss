#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "payload.glsl"

layout(location = 0) rayPayloadInEXT HitPayload prd;
layout(push_constant) uniform Sky { vec3 zenith; float pad; vec3 horizon; } sky;

void main()
{
  vec3 dir = normalize(gl_WorldRayDirectionEXT);
  float t = 0.5 * (dir.y + 1.0);
  prd.radiance += prd.throughput * mix(sky.horizon, sky.zenith, t);
  prd.done = true;
  if ((gl_IncomingRayFlagsEXT & gl_RayFlagsTerminateOnFirstHitEXT) != 0u)
    prd.radiance = vec3(gl_RayTmaxEXT - gl_RayTminEXT);
}
