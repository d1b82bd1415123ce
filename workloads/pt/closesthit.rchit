// pt: shade a sphere hit by scattering with its material; the raygen loop follows the new ray.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "host-device.glsl"
#include "random.glsl"
#include "procedural.glsl"
#include "materials.glsl"

layout(set = 0, binding = BINDING_SPHERES, std430) readonly restrict buffer SphereBuffer
{
  Sphere spheres[];
};
layout(set = 0, binding = BINDING_MATERIALS, std430) readonly buffer MaterialBuffer
{
  WkndMaterial materials[];
};

layout(location = 0) rayPayloadInEXT RayPayload payload;
hitAttributeEXT vec3 hitNormal;

void main()
{
  const Sphere       sphere   = spheres[gl_InstanceCustomIndexEXT + gl_PrimitiveID];
  const WkndMaterial material = materials[sphere.material];
  const vec3         normal   = normalize(gl_ObjectToWorldEXT * vec4(hitNormal, 0.0));

  payload = scatter(material, gl_WorldRayDirectionEXT, normal, gl_HitTEXT, payload.randomSeed);
}
