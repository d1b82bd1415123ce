// call: the light is visible from the shaded point.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 1) rayPayloadInEXT bool shadowed;

void main()
{
  shadowed = false;
}
