// ao: the primary ray left the scene.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require

#include "ao-payload.glsl"

layout(location = 0) rayPayloadInEXT PrimaryHit primary;

void main()
{
  primary.t = -1.0;
}
