// `break` is only allowed inside a loop or a switch.
// expect-error-line: 11
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;

void main()
{
  hitValue = vec3(0.0);
  break;
}
