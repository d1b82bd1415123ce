// Microbenchmarks (issue 26): the pipeline needs one miss shader; the memory microbenchmarks trace no ray.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec4 payload;

void main()
{
  payload = vec4(0.0);
}
