// rtnode microbenchmark: a miss shader that does nothing, so a traceRay costs the SM as little as
// possible besides the RT unit (no payload accesses).
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec4 payload;

void main()
{
}
