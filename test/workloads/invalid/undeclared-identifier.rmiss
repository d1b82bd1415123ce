// A miss shader that uses a variable nobody declared (a typo of hitValue).
// expect-error-line: 10
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;

void main()
{
  hitVaule = vec3(0.2, 0.3, 0.8);
}
