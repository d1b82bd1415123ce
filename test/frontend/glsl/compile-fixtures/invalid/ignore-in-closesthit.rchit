#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: 'ignoreIntersectionEXT' is only allowed in any-hit shaders
layout(location = 0) rayPayloadInEXT vec3 payload;
void main()
{
  if (payload.x > 0.5)
    ignoreIntersectionEXT;
  payload = vec3(0.0);
}
