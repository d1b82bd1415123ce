// tri: vertical background gradient from the ray direction (white at the horizon, blue above).
#version 460
#extension GL_EXT_ray_tracing : require

// Precision qualifiers are accepted and ignored by Vulkan GLSL; kept as ported ES code has them.
precision highp float;

layout(location = 0) rayPayloadInEXT vec3 hitValue;

void main()
{
  highp vec3  unitDirection = normalize(gl_WorldRayDirectionEXT);
  mediump float t           = 0.5 * (unitDirection.y + 1.0);
  hitValue            = mix(vec3(1.0), vec3(0.5, 0.7, 1.0), t);
}
