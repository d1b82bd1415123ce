#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: no matching overload for 'normalize(bool)'
layout(location = 0) rayPayloadInEXT vec3 payload;
void main()
{
  bool k = true;
  payload = vec3(normalize(k));
}
