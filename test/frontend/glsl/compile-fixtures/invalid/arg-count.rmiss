#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: wrong number of arguments to 'sky'
layout(location = 0) rayPayloadInEXT vec3 payload;
vec3 sky(vec3 dir) { return vec3(dir.y); }
void main()
{
  payload = sky(gl_WorldRayDirectionEXT, 1.0);
}
