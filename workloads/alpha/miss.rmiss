// alpha: sky colour from the push constants.
#version 460
#extension GL_EXT_ray_tracing : require

layout(push_constant) uniform AlphaLighting
{
  vec4 lightDirection;
  vec4 lightColor;
  vec4 skyColor;
} lighting;

layout(location = 0) rayPayloadInEXT vec3 color;

void main()
{
  color = lighting.skyColor.rgb * (0.6 + 0.4 * clamp(gl_WorldRayDirectionEXT.y, 0.0, 1.0));
}
