// bunny: settings shared by the bunny shaders (uniform block) and the occlusion helpers both the
// closest-hit shader (bunny surface) and the miss shader (analytic ground plane) use.
#ifndef BUNNY_COMMON_GLSL
#define BUNNY_COMMON_GLSL

layout(constant_id = 0) const uint AO_SAMPLES = 4;

layout(set = 0, binding = BINDING_LIGHTS, std140) uniform BunnySettings
{
  vec4  lightDirection;  // xyz towards the light
  vec4  lightColor;
  vec4  skyColor;
  vec4  groundColor;
  float groundHeight;    // y of the infinite ground plane the miss shader intersects
  float aoRadius;
} settings;

layout(push_constant) uniform BunnyFrame
{
  uint seed;  // varies the AO sample pattern
} frame;

struct ShadePayload
{
  vec3 color;
  uint rngState;
};

#define SHADOW_PAYLOAD_LOCATION 1
#define MISS_SHADOW             1

// Fraction of cosine-weighted occlusion rays from `p` that escape within aoRadius. `shadow` is
// the visibility payload (true = blocked), passed by the caller since payloads are globals.
#define AO_LOOP(p, n, rng, result)                                                                \
  {                                                                                              \
    float open = 0.0;                                                                            \
    [[dont_unroll]] for(uint s = 0u; s < AO_SAMPLES; ++s)                                        \
    {                                                                                            \
      const vec3 dir = sampleHemisphere(rnd2(rng), n);                                           \
      isShadowed     = true;                                                                     \
      traceRayEXT(topLevelAS, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT           \
                  | gl_RayFlagsSkipClosestHitShaderEXT, 0xFF, 0, 0, MISS_SHADOW, p, 0.0, dir,     \
                  settings.aoRadius, SHADOW_PAYLOAD_LOCATION);                                  \
      open += isShadowed ? 0.0 : 1.0;                                                            \
    }                                                                                            \
    result = open / float(AO_SAMPLES);                                                           \
  }

#endif
