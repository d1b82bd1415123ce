// Sampling directions: orthonormal bases, cosine-weighted hemisphere, uniform sphere and disk.
// All functions take their random numbers as arguments so the caller owns the RNG stream order.
#ifndef VV_SAMPLING_GLSL
#define VV_SAMPLING_GLSL

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define M_TWO_PI (2.0 * M_PI)

// Branchless orthonormal basis (Duff et al. 2017); `n` must be normalized.
void createCoordinateSystem(in vec3 n, out vec3 tangent, out vec3 bitangent)
{
  float s = n.z >= 0.0 ? 1.0 : -1.0;
  float a = -1.0 / (s + n.z);
  float b = n.x * n.y * a;
  tangent   = vec3(1.0 + s * n.x * n.x * a, s * b, -s * n.x);
  bitangent = vec3(b, s + n.y * n.y * a, -n.y);
}

// Cosine-weighted direction around +Z.
vec3 sampleHemisphere(vec2 u)
{
  float r   = sqrt(u.x);
  float phi = M_TWO_PI * u.y;
  return vec3(r * cos(phi), r * sin(phi), sqrt(max(0.0, 1.0 - u.x)));
}

// Overload: cosine-weighted direction around the normal `n`.
vec3 sampleHemisphere(vec2 u, vec3 n)
{
  vec3 t, b;
  createCoordinateSystem(n, t, b);
  vec3 local = sampleHemisphere(u);
  return normalize(local.x * t + local.y * b + local.z * n);
}

// Uniform direction on the unit sphere (RTIOW's random_unit_vector).
vec3 sampleUnitSphere(vec2 u)
{
  float z   = 1.0 - 2.0 * u.x;
  float r   = sqrt(clamp(1.0 - z * z, 0.0, 1.0));
  float phi = M_TWO_PI * u.y;
  return vec3(r * cos(phi), r * sin(phi), z);
}

// Concentric disk sample (Shirley-Chiu) for thin-lens cameras.
vec2 sampleDisk(vec2 u)
{
  vec2 o = 2.0 * u - 1.0;
  if(o.x == 0.0 && o.y == 0.0)
    return vec2(0.0);
  float r, theta;
  if(abs(o.x) > abs(o.y))
  {
    r     = o.x;
    theta = (M_PI / 4.0) * (o.y / o.x);
  }
  else
  {
    r     = o.y;
    theta = (M_PI / 2.0) - (M_PI / 4.0) * (o.x / o.y);
  }
  return r * vec2(cos(theta), sin(theta));
}

// Van der Corput radical inverse in base 2: the bit-reversed index as a fraction.
float radicalInverse(uint i)
{
  return float(bitfieldReverse(i)) * 2.3283064365386963e-10; // 1 / 2^32
}

// Point i of an n-point Hammersley set, rotated by `shift` modulo 1 (Cranley-Patterson) so that
// neighbouring pixels use decorrelated copies of the same well-spread set.
vec2 hammersley(uint i, uint n, vec2 shift)
{
  vec2 u = vec2(float(i) / float(n), radicalInverse(i));
  return fract(u + shift);
}

#endif // VV_SAMPLING_GLSL
