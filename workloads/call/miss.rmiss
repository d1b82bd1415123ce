// call: dark studio background.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 radiance;

void main()
{
  radiance = vec3(0.05, 0.05, 0.08) * (1.0 + gl_WorldRayDirectionEXT.y);
}
