#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: a void function cannot return a value
layout(location = 0) rayPayloadInEXT vec3 payload;
void main()
{
  payload = vec3(0.0);
  return 1;
}
