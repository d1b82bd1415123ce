// cornell: the shadow ray towards the sampled light point met nothing on the way.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 1) rayPayloadInEXT bool lightOccluded;

void main()
{
  lightOccluded = false;
}
