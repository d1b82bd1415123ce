#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: index 4 is out of range for 'vec4'
layout(location = 0) rayPayloadInEXT vec4 payload;
void main()
{
  vec4 v = payload;
  payload.x = v[4];
}
