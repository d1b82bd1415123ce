// rtv6: declarations shared by the rtv6 shaders: payloads, the settings uniform block and the SBT
// layout. Hit groups come in pairs per geometry kind (primary, shadow), so traceRayEXT uses
// sbtRecordStride 2 and the shadow rays sbtRecordOffset 1; instance SBT offsets pick the kind.
#ifndef RTV6_COMMON_GLSL
#define RTV6_COMMON_GLSL

#define SBT_STRIDE        2
#define SBT_OFFSET_SHADOW 1
#define MISS_PRIMARY      0
#define MISS_SHADOW       1

struct ShadingPayload
{
  vec3 color;
  int  hitKind;  // which procedural kind was hit (-1: none), for debugging views
};

layout(set = 0, binding = BINDING_LIGHTS, std140) uniform SceneSettings
{
  vec4 lightDirection;  // xyz towards the light
  vec4 lightColor;
  vec4 ambient;
} settings;

#endif
