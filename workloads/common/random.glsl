// Seeded random numbers keyed by (pixel, sample, seed): a tiny-encryption-algorithm hash for the
// initial state (nvpro's tea) and a PCG-style LCG step for the stream (RayTracingInVulkan).
// Invariant: the same pixel, sample and seed always give the same sequence, on any lane order.
#ifndef VV_RANDOM_GLSL
#define VV_RANDOM_GLSL

// Generate a random unsigned int from two unsigned int values, using 16 pairs of rounds of the
// Tiny Encryption Algorithm (Zafar, Olano and Curtis, "GPU Random Numbers via the Tiny Encryption
// Algorithm").
uint tea(uint val0, uint val1)
{
  uint v0 = val0;
  uint v1 = val1;
  uint s0 = 0u;

  [[unroll]]
  for(uint n = 0u; n < 16u; n++)
  {
    s0 += 0x9e3779b9u;
    v0 += ((v1 << 4) + 0xa341316cu) ^ (v1 + s0) ^ ((v1 >> 5) + 0xc8013ea4u);
    v1 += ((v0 << 4) + 0xad90777du) ^ (v0 + s0) ^ ((v0 >> 5) + 0x7e95761eu);
  }

  return v0;
}

// Initial state for one (pixel, sample) pair; `seed` varies whole frames.
uint initRandom(uvec2 pixel, uvec2 launchSize, uint sampleIndex, uint seed)
{
  uint pixelIndex = pixel.y * launchSize.x + pixel.x;
  return tea(pixelIndex, sampleIndex * 0x9e3779b9u + seed);
}

// PCG: one 32-bit LCG step followed by the xorshift-multiply output permutation.
uint pcgNext(inout uint state)
{
  state = state * 747796405u + 2891336453u;
  uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// Uniform float in [0, 1): the top 24 bits, exactly representable.
float rnd(inout uint state)
{
  return float(pcgNext(state) >> 8) * (1.0 / 16777216.0);
}

// Float in [0, 1) straight from the bit pattern: 23 random mantissa bits under the exponent of
// 1.0 give a float in [1, 2); subtracting 1 avoids the int-to-float conversion.
float rndFast(inout uint state)
{
  const uint mantissa = bitfieldExtract(pcgNext(state), 9, 23);
  return uintBitsToFloat(bitfieldInsert(0x3f800000u, mantissa, 0, 23)) - 1.0;
}

// A seed from a world-space position: the same point gets the same random stream whatever pixel
// or ray reaches it (stable noise on surfaces shaded from several paths).
uint hashPosition(vec3 p, uint seed)
{
  return tea(floatBitsToUint(p.x) ^ floatBitsToUint(p.z), floatBitsToUint(p.y) + seed);
}

vec2 rnd2(inout uint state)
{
  float x = rnd(state);
  return vec2(x, rnd(state));
}

#endif // VV_RANDOM_GLSL
