// Colour handling shared by the workloads: tone mapping and gamma for the rgba8 output image,
// luminance, a heat-map ramp for per-pixel cost views, and packing colours into payload words.
#ifndef VV_COLOR_GLSL
#define VV_COLOR_GLSL

float luminance(vec3 c)
{
  return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

// Exponential tone map then the sRGB-ish display gamma (RTIOW writes sqrt, i.e. gamma 2).
vec3 toneMap(vec3 c, float exposure)
{
  vec3 mapped = vec3(1.0) - exp(-c * exposure);
  return pow(clamp(mapped, 0.0, 1.0), vec3(1.0 / 2.2));
}

// Zero out NaN and infinite samples so one bad path cannot poison an accumulated pixel.
vec3 sanitize(vec3 c)
{
  return (any(isnan(c)) || any(isinf(c))) ? vec3(0.0) : c;
}

// Blue -> green -> red ramp over t in [0, 1].
vec3 heatmap(float t)
{
  t = clamp(t, 0.0, 1.0);
  vec3 cold = mix(vec3(0.0, 0.0, 1.0), vec3(0.0, 1.0, 0.0), smoothstep(0.0, 0.5, t));
  return mix(cold, vec3(1.0, 0.0, 0.0), smoothstep(0.5, 1.0, t));
}

// Heat-map position of a cycle count on a log scale: findMSB is floor(log2) for a uint.
float cycleHeat(uint cycles, uint maxLog2)
{
  int msb = findMSB(max(cycles, 1u));
  return float(msb) / float(max(maxLog2, 1u));
}

uint packColor(vec3 c)
{
  return packUnorm4x8(vec4(clamp(c, 0.0, 1.0), 1.0));
}

vec3 unpackColor(uint packed)
{
  return unpackUnorm4x8(packed).rgb;
}

#endif // VV_COLOR_GLSL
