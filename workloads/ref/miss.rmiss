// ref: sky: the background colour at the horizon fading to deep blue overhead, with the sun in
// the light's direction.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require

#include "ref-common.glsl"
#include "sky.glsl"

layout(location = 0) rayPayloadInEXT ShadePayload prd;

void main()
{
  prd.radiance = skyRadiance(gl_WorldRayDirectionEXT, lighting.background.rgb, vec3(0.1, 0.2, 0.6),
                             lighting.lightDirection.xyz, lighting.lightColor.rgb);
}
