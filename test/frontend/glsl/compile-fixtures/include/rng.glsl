// PCG-style hash RNG shared by the fixture shaders (seeded per pixel and frame).
#ifndef FIXTURE_RNG_GLSL
#define FIXTURE_RNG_GLSL

uint pcgHash(uint v)
{
  uint state = v * 747796405u + 2891336453u;
  uint word  = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

uint initRng(uvec2 pixel, uvec2 size, uint frame)
{
  return pcgHash(pixel.x + pixel.y * size.x + frame * size.x * size.y);
}

float nextFloat(inout uint state)
{
  state = pcgHash(state);
  return float(state & 0x00FFFFFFu) / float(0x01000000);
}

vec3 cosineHemisphere(inout uint seed, vec3 n)
{
  float r1 = nextFloat(seed);
  float r2 = nextFloat(seed);
  float phi = 2.0 * 3.14159265 * r1;
  vec3 t = abs(n.x) > 0.9 ? vec3(0, 1, 0) : vec3(1, 0, 0);
  vec3 u = normalize(cross(t, n));
  vec3 v = cross(n, u);
  return normalize(u * cos(phi) * sqrt(r2) + v * sin(phi) * sqrt(r2) + n * sqrt(1.0 - r2));
}

#endif
