#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : enable

#include "scene.glsl"

layout(location = 0) rayPayloadInEXT Payload payload;

void main()
{
  // Lighter towards the horizon.
  const float up = clamp(gl_WorldRayDirectionEXT.y, 0.0, 1.0);
  payload.color = mix(vec3(0.9), pc.skyColor.rgb, up);
}
