#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : enable

#include "host-device.glsl"

layout(location = 0) rayPayloadInEXT HitPayload prd;
layout(push_constant) uniform _PushConstantRay { PushConstantRay pcRay; };

void main()
{
  prd.hitValue = pcRay.clearColor.xyz * 0.8;
}
