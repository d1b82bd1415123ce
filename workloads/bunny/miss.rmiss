// bunny: rays that miss the bunny either hit the infinite ground plane y = groundHeight (shaded
// here, with its own shadow and AO rays) or the sky.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "host-device.glsl"
#include "random.glsl"
#include "sampling.glsl"
#include "bunny-common.glsl"

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;

layout(location = 0) rayPayloadInEXT ShadePayload prd;
layout(location = SHADOW_PAYLOAD_LOCATION) rayPayloadEXT bool isShadowed;

void main()
{
  const vec3 o = gl_WorldRayOriginEXT;
  const vec3 d = gl_WorldRayDirectionEXT;
  const float t = (settings.groundHeight - o.y) / d.y;
  if(d.y >= 0.0 || t > gl_RayTmaxEXT)
  {
    prd.color = settings.skyColor.rgb;
    return;
  }

  const vec3 n = vec3(0.0, 1.0, 0.0);
  const vec3 p = o + t * d + n * 1e-5;
  const vec3 L = normalize(settings.lightDirection.xyz);

  isShadowed = true;
  traceRayEXT(topLevelAS, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
              0xFF, 0, 0, MISS_SHADOW, p, 0.0, L, 100.0, SHADOW_PAYLOAD_LOCATION);
  const float direct = isShadowed ? 0.0 : max(L.y, 0.0);

  // Seed the ground's AO from its world position: the floor's noise stays put as the view moves.
  uint  groundRng = hashPosition(p, frame.seed);
  float ao;
  AO_LOOP(p, n, groundRng, ao)

  // A faint checker so the plane reads as ground: modf splits the cell index from the fraction
  // (both keep the sign, so cells left of x = 0 are counted with ceil, right of it with trunc).
  vec2       cell;
  const vec2 frac    = modf(p.xz * 20.0, cell);
  const vec2 index   = mix(trunc(cell), ceil(cell - 1.0), lessThan(p.xz, vec2(0.0)));
  const bool odd     = (int(index.x + index.y) & 1) != 0;
  const vec3 ground  = settings.groundColor.rgb * (odd ? 0.9 : 1.0) * (0.9 + 0.1 * step(0.05, min(abs(frac.x), abs(frac.y))));
  prd.color = ground * (direct * settings.lightColor.rgb + ao * settings.skyColor.rgb * 0.6);
}
