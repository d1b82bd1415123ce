// rtv6: the shadow ray reached the light.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 1) rayPayloadInEXT bool shadowed;

void main()
{
  shadowed = false;
}
