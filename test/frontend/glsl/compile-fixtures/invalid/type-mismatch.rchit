#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: cannot apply '+' to 'vec3' and 'vec2'
layout(location = 0) rayPayloadInEXT vec3 payload;
hitAttributeEXT vec2 attribs;
void main()
{
  vec3 n = vec3(1.0);
  payload = n + attribs;
}
