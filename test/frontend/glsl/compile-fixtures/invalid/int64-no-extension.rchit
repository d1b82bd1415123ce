#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: 'uint64_t' requires #extension GL_EXT_shader_explicit_arithmetic_types_int64
layout(location = 0) rayPayloadInEXT vec3 payload;
void main()
{
  uint64_t address = 0;
  payload = vec3(float(address));
}
