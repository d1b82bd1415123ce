// The same name declared twice in one scope.
// expect-error-line: 12
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;
hitAttributeEXT vec2 attribs;

void main()
{
  vec3 barycentrics = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
  vec3 barycentrics = vec3(0.0);
  hitValue = barycentrics;
}
