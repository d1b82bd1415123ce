// ref: declarations shared by the ref shaders: the shading payload, the scene buffers (plain
// storage buffers, scalar layout) and the light settings in push constants.
#ifndef REF_COMMON_GLSL
#define REF_COMMON_GLSL

// Recursion levels the pipeline allows (manifest maxRecursionDepth); set by the manifest's defines.
#ifndef MAX_RECURSION
#define MAX_RECURSION 2
#endif

struct ShadePayload
{
  vec3 radiance;
  uint depth;  // 0 for primary rays, +1 per reflection
};

// The fields of the scene's material records that ref shades with (packed by name).
struct RefMaterial
{
  vec3  diffuse;
  vec3  specular;
  float shininess;
  int   illum;  // 3: mirror
};

layout(push_constant) uniform RefLighting
{
  vec4 lightDirection;  // xyz: direction towards the light (world space)
  vec4 lightColor;      // rgb, w: intensity
  vec4 ambient;         // rgb
  vec4 background;      // rgb: horizon colour of the sky
} lighting;

#endif
