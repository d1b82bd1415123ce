#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: array size must be a constant integer expression
layout(location = 0) rayPayloadInEXT vec3 payload;
void main()
{
  int n = int(payload.x);
  float values[n];
  payload = vec3(values[0]);
}
