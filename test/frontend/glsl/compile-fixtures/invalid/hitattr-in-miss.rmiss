#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: 'hitAttributeEXT' variables are not allowed in miss shaders
layout(location = 0) rayPayloadInEXT vec3 payload;
hitAttributeEXT vec2 attribs;
void main()
{
  payload = vec3(attribs, 0.0);
}
