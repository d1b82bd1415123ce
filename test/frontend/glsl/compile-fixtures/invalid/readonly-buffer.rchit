#version 460
#extension GL_EXT_ray_tracing : require
// expect-error: assignment to readonly variable
layout(location = 0) rayPayloadInEXT vec3 payload;
layout(set = 0, binding = 1, std430) readonly buffer Colors { vec4 colors[]; };
void main()
{
  colors[gl_PrimitiveID] = vec4(payload, 1.0);
}
