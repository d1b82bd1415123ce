// Ray-primitive tests for procedural geometry (intersection shaders): spheres as RTIOW solves
// them, axis-aligned boxes with the slab method. All in object space: the intersection shader
// passes gl_ObjectRayOriginEXT / gl_ObjectRayDirectionEXT.
#ifndef VV_PROCEDURAL_GLSL
#define VV_PROCEDURAL_GLSL

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

struct Sphere
{
  vec3  center;
  float radius;
  int   material;
};

struct Aabb
{
  vec3 minimum;
  vec3 maximum;
};

// Nearest root of |o + t d - c|^2 = r^2 inside (tMin, tMax), or -1.0. Returns the far root when
// the near one is behind tMin (the ray starts inside the sphere, e.g. in a dielectric).
float hitSphere(const Sphere s, const vec3 origin, const vec3 direction, float tMin, float tMax)
{
  const vec3  oc           = origin - s.center;
  const float a            = dot(direction, direction);
  const float halfB        = dot(oc, direction);
  const float c            = dot(oc, oc) - s.radius * s.radius;
  const float discriminant = halfB * halfB - a * c;

  if(discriminant < 0.0)
    return -1.0;

  const float sqrtD = sqrt(discriminant);
  float       root  = (-halfB - sqrtD) / a;
  if(root <= tMin || root >= tMax)
  {
    root = (-halfB + sqrtD) / a;
    if(root <= tMin || root >= tMax)
      return -1.0;
  }
  return root;
}

// Slab test: entry distance into the box, or -1.0 when the ray misses (tMin, tMax).
float hitAabb(const Aabb box, const vec3 origin, const vec3 direction, float tMin, float tMax)
{
  vec3 invDir = 1.0 / direction;
  vec3 t0     = (box.minimum - origin) * invDir;
  vec3 t1     = (box.maximum - origin) * invDir;
  vec3 tNear  = min(t0, t1);
  vec3 tFar   = max(t0, t1);
  float entry = max(max(tNear.x, tNear.y), tNear.z);
  float exit  = min(min(tFar.x, tFar.y), tFar.z);
  if(entry > exit || exit <= tMin || entry >= tMax)
    return -1.0;
  return entry > tMin ? entry : exit;
}

// Outward normal of the box face a point lies on: the axis where the point is closest to a face.
vec3 aabbNormal(const Aabb box, const vec3 p)
{
  vec3  center  = 0.5 * (box.minimum + box.maximum);
  vec3  halfExt = 0.5 * (box.maximum - box.minimum);
  vec3  local   = (p - center) / halfExt;
  vec3  mag     = abs(local);
  bvec3 isMax   = greaterThanEqual(mag, vec3(max(max(mag.x, mag.y), mag.z)));
  // Pick exactly one axis even on edges: x wins over y wins over z.
  isMax.y = isMax.y && !isMax.x;
  isMax.z = isMax.z && !any(isMax.xy);
  return mix(vec3(0.0), sign(local), isMax);
}

// Index 0..5 of the face `normal` belongs to (+x, -x, +y, -y, +z, -z).
uint aabbFace(vec3 normal)
{
  bvec3 axis = notEqual(normal, vec3(0.0));
  // One-hot axis mask -> axis index.
  uint  mask = (axis.x ? 1u : 0u) | (axis.y ? 2u : 0u) | (axis.z ? 4u : 0u);
  uint  base = 2u * uint(findLSB(mask));
  bool  neg  = any(lessThan(normal, vec3(0.0)));
  return base + (neg ? 1u : 0u);
}

// Whether p lies inside the box or on its surface.
bool insideAabb(const Aabb box, const vec3 p)
{
  return all(lessThanEqual(box.minimum, p)) && !any(not(lessThanEqual(p, box.maximum)));
}

// Spherical texture coordinates of a unit direction (RTIOW get_sphere_uv).
vec2 sphereUv(vec3 p)
{
  float theta = acos(clamp(-p.y, -1.0, 1.0));
  float phi   = atan(-p.z, p.x) + M_PI;
  return vec2(phi / (2.0 * M_PI), theta / M_PI);
}

#endif // VV_PROCEDURAL_GLSL
