// ao: report where the primary ray hit and the surface normal there, facing the ray.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require

#include "host-device.glsl"
#include "ao-payload.glsl"
#include "normal-encoding.glsl"

layout(set = 0, binding = BINDING_VERTICES, scalar) readonly buffer VertexBuffer
{
  Vertex vertices[];
};
layout(set = 0, binding = BINDING_INDICES, scalar) readonly buffer IndexBuffer
{
  uvec3 indices[];
};

#include "triangle-mesh.glsl"

layout(location = 0) rayPayloadInEXT PrimaryHit primary;
hitAttributeEXT vec2 attribs;

void main()
{
  const SurfaceHit surface = meshSurface(gl_PrimitiveID, attribs);
  const vec3       normal  = normalToWorld(surface.geometricNormal);

  primary.position = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
  primary.t        = gl_HitTEXT;
  primary.normal   = encodeNormal(faceforward(normal, gl_WorldRayDirectionEXT, normal));
  primary.instance = gl_InstanceID;
}
