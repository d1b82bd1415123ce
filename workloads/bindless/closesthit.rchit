#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : enable

#include "scene.glsl"

hitAttributeEXT vec2 attribs;
layout(location = 0) rayPayloadInEXT Payload payload;
layout(set = 0, binding = 3) uniform sampler2D textures[];

void main()
{
  const Object object = ObjectBuffer(pc.objects).o[gl_InstanceCustomIndexEXT];
  const uvec3 tri = IndexBuffer(object.indices).t[gl_PrimitiveID];
  VertexBuffer vertices = VertexBuffer(object.vertices);
  const Vertex a = vertices.v[tri.x];
  const Vertex b = vertices.v[tri.y];
  const Vertex c = vertices.v[tri.z];
  const vec3 bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);

  // Uniform scales and rotations only: the object-to-world 3x3 maps normals too.
  vec3 n = normalize(mat3(gl_ObjectToWorldEXT) * (a.normal * bary.x + b.normal * bary.y + c.normal * bary.z));
  if (dot(n, gl_WorldRayDirectionEXT) > 0.0)
    n = -n;
  vec3 albedo = object.tint;
  if (object.texture >= 0)
  {
    const vec2 uv = a.uv * bary.x + b.uv * bary.y + c.uv * bary.z;
    albedo *= texture(textures[nonuniformEXT(object.texture)], uv).rgb;
  }
  const float sun = max(dot(n, normalize(pc.sunDirection.xyz)), 0.0);
  payload.color = albedo * (0.2 + 0.8 * sun);
}
