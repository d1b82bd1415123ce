// alpha: declarations shared by the alpha shaders: scene buffers (scalar), the texture array,
// the alpha cutoff as a specialization constant, and texture lookup at a hit.
#ifndef ALPHA_COMMON_GLSL
#define ALPHA_COMMON_GLSL

layout(constant_id = 1) const float ALPHA_CUTOFF = 0.5;

struct AlphaMaterial
{
  vec3 diffuse;
  int  textureId;  // index into textures[], -1: untextured
};

layout(set = 0, binding = BINDING_VERTICES, scalar) readonly buffer VertexBuffer
{
  Vertex vertices[];
};
layout(set = 0, binding = BINDING_INDICES, scalar) readonly buffer IndexBuffer
{
  uvec3 indices[];
};
layout(set = 0, binding = BINDING_MATERIALS, scalar) readonly buffer MaterialBuffer
{
  AlphaMaterial materials[];
};
layout(set = 0, binding = BINDING_MATERIAL_INDICES, scalar) readonly buffer MaterialIndexBuffer
{
  int materialIndices[];
};
layout(set = 0, binding = BINDING_TEXTURES) uniform sampler2D textures[];

// Texture coordinate and texture of the surface at a triangle hit.
vec2 surfaceUv(uint primitive, vec2 attribs)
{
  const uvec3 tri  = indices[primitive];
  const vec3  bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
  return vertices[tri.x].texCoord * bary.x + vertices[tri.y].texCoord * bary.y + vertices[tri.z].texCoord * bary.z;
}

int surfaceTexture(uint primitive)
{
  return materials[materialIndices[primitive]].textureId;
}

// Texel colour (with alpha) of the surface at a triangle hit. Any-hit shaders run in no
// particular order across lanes, so the texture index is non-uniform.
vec4 surfaceTexel(uint primitive, vec2 attribs, float lod)
{
  const uvec3         tri      = indices[primitive];
  const vec3          bary     = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
  const vec2          uv       = vertices[tri.x].texCoord * bary.x + vertices[tri.y].texCoord * bary.y + vertices[tri.z].texCoord * bary.z;
  const AlphaMaterial material = materials[materialIndices[primitive]];
  if(material.textureId < 0)
    return vec4(material.diffuse, 1.0);
  // Ray tracing stages have no derivatives: the caller gives the level of detail explicitly.
  return vec4(material.diffuse, 1.0) * textureLod(textures[nonuniformEXT(material.textureId)], uv, lod);
}

#endif
