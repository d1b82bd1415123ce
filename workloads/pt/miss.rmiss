// pt: RTIOW sky; a negative distance tells the raygen loop the path escaped.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "random.glsl"
#include "materials.glsl"

layout(location = 0) rayPayloadInEXT RayPayload payload;

void main()
{
  const float t  = 0.5 * (normalize(gl_WorldRayDirectionEXT).y + 1.0);
  const vec3  sky = mix(vec3(1.0), vec3(0.5, 0.7, 1.0), t);

  payload.colorAndDistance = vec4(sky, -1.0);
  payload.scatterDirection = vec4(0.0);
}
