// buffer_reference views of the scene buffers, nvpro style: a shader gets device addresses from
// the per-instance ObjDesc and casts them to these block types. Requires GL_EXT_buffer_reference,
// GL_EXT_scalar_block_layout and 64-bit integers in the including shader.
// Invariant: every address cast to one of these blocks is a multiple of its buffer_reference_align.
#ifndef VV_BUFFER_REFERENCES_GLSL
#define VV_BUFFER_REFERENCES_GLSL

layout(buffer_reference, scalar, buffer_reference_align = 16) readonly buffer Vertices
{
  Vertex v[];
};

layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer Indices
{
  uvec3 i[];
};

layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer Materials
{
  WaveFrontMaterial m[];
};

layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer MatIndices
{
  int i[];
};

// One triangle's index triple, addressed directly by pointer arithmetic on a uint64_t.
layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer TriangleIndices
{
  uvec3 idx;
};

// Byte size of one scalar-layout uvec3: the step between consecutive TriangleIndices.
#define TRIANGLE_INDEX_BYTES 12ul

#endif // VV_BUFFER_REFERENCES_GLSL
