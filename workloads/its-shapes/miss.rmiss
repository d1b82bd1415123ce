// its-shapes: a miss reports x = 0 and a sky gradient.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;

void main()
{
  hitValue = vec3(0.0, 0.3, 0.5 + 0.5 * gl_WorldRayDirectionEXT.y);
}
