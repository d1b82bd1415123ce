#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: with repeated components
layout(location = 0) rayPayloadInEXT vec3 payload;
void main()
{
  vec3 v = payload;
  v.xx = vec2(1.0, 2.0);
  payload = v;
}
