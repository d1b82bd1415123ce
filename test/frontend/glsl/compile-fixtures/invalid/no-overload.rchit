#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: no matching overload for 'shade(vec3, bool)'
layout(location = 0) rayPayloadInEXT vec3 payload;
vec3 shade(vec3 n, float k) { return n * k; }
vec3 shade(vec3 n, vec3 k) { return n * k; }
void main()
{
  payload = shade(vec3(0.0, 1.0, 0.0), true);
}
