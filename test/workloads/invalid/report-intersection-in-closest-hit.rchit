// reportIntersectionEXT is only available in intersection shaders.
// expect-error-line: 11
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;

void main()
{
  hitValue = vec3(1.0);
  bool accepted = reportIntersectionEXT(gl_HitTEXT, 0u);
}
