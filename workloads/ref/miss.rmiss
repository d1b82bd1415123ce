// ref: sky: the background colour at the horizon fading to deep blue overhead.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require

#include "ref-common.glsl"

layout(location = 0) rayPayloadInEXT ShadePayload prd;

void main()
{
  const float up = clamp(normalize(gl_WorldRayDirectionEXT).y, 0.0, 1.0);
  prd.radiance   = mix(lighting.background.rgb, vec3(0.1, 0.2, 0.6), sqrt(up));
}
