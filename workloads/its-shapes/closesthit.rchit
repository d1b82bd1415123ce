// its-shapes: a hit reports x = 1 and its barycentrics.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;
hitAttributeEXT vec2 attribs;

void main()
{
  hitValue = vec3(1.0, attribs.x, attribs.y);
}
