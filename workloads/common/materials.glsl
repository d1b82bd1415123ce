// "Ray Tracing in One Weekend" materials (lambertian, metal, dielectric) plus an emitter, written
// as RayTracingInVulkan does: the closest-hit shader scatters and returns the attenuation and
// the next direction in the payload; the ray generation shader runs the bounce loop.
// Invariant: a scatter consumes random numbers only through `seed`, so paths are reproducible.
#ifndef VV_MATERIALS_GLSL
#define VV_MATERIALS_GLSL

#define MATERIAL_LAMBERTIAN 0
#define MATERIAL_METAL      1
#define MATERIAL_DIELECTRIC 2
#define MATERIAL_EMISSIVE   3

// Element of the procedural scene's material buffer (std430: diffuse at 0, type 12, fuzz 16, ior 20).
struct WkndMaterial
{
  vec3  diffuse;
  int   type;
  float fuzz;
  float ior;
};

// Payload of the path tracers: rgb attenuation (or emitted colour) and hit distance (< 0: the
// ray escaped); next direction with w = 1 when the path continues; the RNG state travels along.
struct RayPayload
{
  vec4 colorAndDistance;
  vec4 scatterDirection;
  uint randomSeed;
};

// RTIOW's random_in_unit_sphere: rejection sampling, on average 1.9 tries.
vec3 randomInUnitSphere(inout uint seed)
{
  vec3 p;
  do
  {
    p = 2.0 * vec3(rndFast(seed), rndFast(seed), rndFast(seed)) - 1.0;
  } while(dot(p, p) >= 1.0);
  return p;
}

// Schlick's approximation of the Fresnel reflectance.
float schlick(const float cosine, const float refractionIndex)
{
  float r0 = (1.0 - refractionIndex) / (1.0 + refractionIndex);
  r0 *= r0;
  return r0 + (1.0 - r0) * pow(1.0 - cosine, 5.0);
}

RayPayload scatterLambertian(const WkndMaterial m, const vec3 direction, const vec3 normal, const float t, inout uint seed)
{
  const bool isScattered = dot(direction, normal) < 0.0;
  const vec3 target      = normal + randomInUnitSphere(seed);
  const vec3 scatter     = dot(target, target) < 1e-8 ? normal : target;
  return RayPayload(vec4(m.diffuse, t), vec4(scatter, isScattered ? 1.0 : 0.0), seed);
}

RayPayload scatterMetallic(const WkndMaterial m, const vec3 direction, const vec3 normal, const float t, inout uint seed)
{
  const vec3 reflected   = reflect(direction, normal);
  const vec3 scattered   = reflected + m.fuzz * randomInUnitSphere(seed);
  const bool isScattered = dot(scattered, normal) > 0.0;
  return RayPayload(vec4(m.diffuse, t), vec4(scattered, isScattered ? 1.0 : 0.0), seed);
}

RayPayload scatterDieletric(const WkndMaterial m, const vec3 direction, const vec3 normal, const float t, inout uint seed)
{
  const float dotDN        = dot(direction, normal);
  const vec3  outwardNormal = dotDN > 0.0 ? -normal : normal;
  const float niOverNt     = dotDN > 0.0 ? m.ior : 1.0 / m.ior;
  const float cosine       = dotDN > 0.0 ? m.ior * dotDN : -dotDN;

  const vec3  refracted    = refract(direction, outwardNormal, niOverNt);
  const float reflectProb  = refracted != vec3(0.0) ? schlick(cosine, m.ior) : 1.0;

  const vec3 next = rnd(seed) < reflectProb ? reflect(direction, normal) : refracted;
  return RayPayload(vec4(vec3(1.0), t), vec4(next, 1.0), seed);
}

RayPayload scatterEmissive(const WkndMaterial m, const float t, inout uint seed)
{
  return RayPayload(vec4(m.diffuse, t), vec4(0.0), seed);
}

// Dispatch on the material model; an unknown model absorbs the ray (black, path ends).
RayPayload scatter(const WkndMaterial m, const vec3 direction, const vec3 normal, const float t, inout uint seed)
{
  const vec3 normDirection = normalize(direction);

  switch(m.type)
  {
    case MATERIAL_LAMBERTIAN:
      return scatterLambertian(m, normDirection, normal, t, seed);
    case MATERIAL_METAL:
      return scatterMetallic(m, normDirection, normal, t, seed);
    case MATERIAL_DIELECTRIC:
      return scatterDieletric(m, normDirection, normal, t, seed);
    case MATERIAL_EMISSIVE:
      return scatterEmissive(m, t, seed);
    default:
      break;
  }
  return RayPayload(vec4(0.0, 0.0, 0.0, t), vec4(0.0), seed);
}

#endif // VV_MATERIALS_GLSL
