// Triangle meshes bound as plain storage buffers (one vertex and one index buffer for the whole
// scene, the scene packer's layout): geometric normal and interpolated attributes of a hit.
// The including shader declares `vertices[]` (Vertex, scalar) and `indices[]` (uvec3, scalar)
// before including this file.
#ifndef VV_TRIANGLE_MESH_GLSL
#define VV_TRIANGLE_MESH_GLSL

struct SurfaceHit
{
  vec3 position;  // object space
  vec3 geometricNormal;
  vec3 shadingNormal;
  vec2 texCoord;
};

SurfaceHit meshSurface(uint triangle, vec2 attribs)
{
  const uvec3  tri = indices[triangle];
  const Vertex v0  = vertices[tri.x];
  const Vertex v1  = vertices[tri.y];
  const Vertex v2  = vertices[tri.z];
  const vec3   bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);

  SurfaceHit hit;
  hit.position        = v0.position * bary.x + v1.position * bary.y + v2.position * bary.z;
  hit.geometricNormal = normalize(cross(v1.position - v0.position, v2.position - v0.position));
  const vec3 n        = v0.normal * bary.x + v1.normal * bary.y + v2.normal * bary.z;
  // OBJ files without normals leave them zero: fall back to the face normal.
  hit.shadingNormal = dot(n, n) > 0.0 ? normalize(n) : hit.geometricNormal;
  hit.texCoord      = v0.texCoord * bary.x + v1.texCoord * bary.y + v2.texCoord * bary.z;
  return hit;
}

// Object-space normal to world space: multiply by the inverse transpose, i.e. n^T * WorldToObject.
vec3 normalToWorld(vec3 n)
{
  return normalize(vec3(n * gl_WorldToObjectEXT));
}

#endif // VV_TRIANGLE_MESH_GLSL
