// rtv6: background from the miss record: a gradient between two colours by ray elevation.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "host-device.glsl"
#include "rtv6-common.glsl"

layout(shaderRecordEXT, std430) buffer MissRecord
{
  vec4 horizon;
  vec4 zenith;
};

layout(location = 0) rayPayloadInEXT ShadingPayload prd;

void main()
{
  const float elevation = asin(clamp(normalize(gl_WorldRayDirectionEXT).y, -1.0, 1.0));
  prd.color             = mix(horizon.rgb, zenith.rgb, clamp(degrees(elevation) / 60.0, 0.0, 1.0));
  prd.hitKind           = -1;
}
