// call: the light set (std140 uniform block of nested structs) and the callable data exchanged
// between the closest-hit shader and the light callables. The callable SBT index of a light is
// its type: 0 point, 1 spot, 2 directional (the manifest's callables list in that order).
#ifndef CALL_LIGHTS_GLSL
#define CALL_LIGHTS_GLSL

#define LIGHT_POINT       0
#define LIGHT_SPOT        1
#define LIGHT_DIRECTIONAL 2
#define MAX_LIGHTS        4

struct Attenuation
{
  float constant;
  float linear;
  float quadratic;
};

struct Light
{
  vec4        position;   // xyz (point, spot)
  vec4        direction;  // xyz: where the light points (spot, directional)
  vec4        color;      // rgb, a: intensity
  Attenuation attenuation;
  float       innerCone;  // degrees: full intensity inside
  float       outerCone;  // degrees: no light outside
  int         type;
};

struct LightList
{
  Light lights[MAX_LIGHTS];
  int   lightCount;
};

layout(set = 0, binding = BINDING_LIGHTS, std140) uniform LightSet
{
  LightList lightSet;
};

// In: the shaded point and the light; out: direction and distance to the light, and the light's
// radiance arriving there (before visibility).
struct LightSample
{
  vec3  position;
  uint  lightIndex;
  vec3  normal;
  float distance;
  vec3  L;
  vec3  radiance;
};

// Spot lights are point lights with a cone: the spot case scales by the cone and then falls
// through to the distance attenuation both share.
float lightFalloff(const Light light, float dist, vec3 towardsPoint)
{
  float f = 1.0;
  switch(light.type)
  {
    case LIGHT_SPOT:
    {
      const float cosAngle = dot(normalize(light.direction.xyz), towardsPoint);
      const float cosInner = cos(radians(light.innerCone));
      const float cosOuter = cos(radians(light.outerCone));
      f *= smoothstep(cosOuter, cosInner, cosAngle);
    }
      // fall through
    case LIGHT_POINT:
      f /= light.attenuation.constant + light.attenuation.linear * dist + light.attenuation.quadratic * dist * dist;
      break;
    default:
      break;
  }
  return f;
}

#endif
