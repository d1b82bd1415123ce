// cornell: nothing outside the box emits; a path that leaves it ends with no light.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require

#include "path-payload.glsl"

layout(location = 0) rayPayloadInEXT PathPayload prd;

void main()
{
  prd.emitted = vec3(0.0);
  prd.done    = 1u;
}
