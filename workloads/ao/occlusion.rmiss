// ao: an occlusion ray reached its full length without hitting anything.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 1) rayPayloadInEXT float occluded;

void main()
{
  occluded = 0.0;
}
