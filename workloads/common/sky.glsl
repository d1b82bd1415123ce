// A cheap analytic sky for miss shaders: a horizon-to-zenith gradient that saturates with the
// ray's slope the way optical depth falls off, a darkening ground below the horizon, and a sun
// disc. Not physically based; smooth and deterministic, which is what a test image needs.
#ifndef VV_SKY_GLSL
#define VV_SKY_GLSL

vec3 skyRadiance(vec3 direction, vec3 horizon, vec3 zenith, vec3 sunDirection, vec3 sunColor)
{
  const vec3  dir       = normalize(direction);
  const float elevation = asin(clamp(dir.y, -1.0, 1.0));
  // Slope = y / |xz|; 1 - 2^(-3 slope) reaches the zenith colour a few tens of degrees up.
  const float slope = tan(clamp(elevation, -1.5, 1.5));
  vec3        sky   = mix(horizon, zenith, 1.0 - exp2(-3.0 * max(slope, 0.0)));

  if(slope < 0.0)
  {
    // Ground: darker with depression, on a log scale so the horizon stays soft.
    const float depth = log(1.0 + min(-slope, 7.0)) / log(8.0);
    sky               = horizon * (0.5 - 0.25 * depth);
  }

  const float cosSun = dot(dir, normalize(sunDirection));
  const float disc   = smoothstep(cos(radians(1.5)), cos(radians(0.75)), cosSun);
  // Glow around the disc: halves for every 1/8 that cos(angle) drops below 1.
  const float glow   = exp2(8.0 * (cosSun - 1.0));
  return sky + sunColor * (disc + 0.1 * glow);
}

#endif // VV_SKY_GLSL
