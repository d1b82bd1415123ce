// bunny: shadow and occlusion rays that reach their end unblocked.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 1) rayPayloadInEXT bool isShadowed;

void main()
{
  isShadowed = false;
}
