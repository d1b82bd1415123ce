// A statement without its semicolon: the error is reported at the next token, the closing brace.
// expect-error-line: 12
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;
hitAttributeEXT vec2 attribs;

void main()
{
  hitValue = vec3(attribs, 0.0)
}
