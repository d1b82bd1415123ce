// The `bindless` workload's scene access, in the style of applications that bind no storage
// buffers at all: one device address in the push constants leads to a table of objects, each
// holding the device addresses of its own vertex and index buffers.
// Needs GL_EXT_buffer_reference, GL_EXT_scalar_block_layout and 64-bit integers.
#ifndef BINDLESS_SCENE_GLSL
#define BINDLESS_SCENE_GLSL

// Scalar layout, 32 bytes; the members are not in vvision's scene order (position, normal, texCoord).
struct Vertex
{
  vec3 position;
  vec2 uv;
  vec3 normal;
};

// One per model, indexed by gl_InstanceCustomIndexEXT. Scalar layout, 32 bytes.
struct Object
{
  uint64_t vertices;  // Vertex[]
  uint64_t indices;   // uvec3[], one per triangle
  vec3     tint;
  int      texture;   // into textures[], -1 for none
};

layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer VertexBuffer { Vertex v[]; };
layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer IndexBuffer { uvec3 t[]; };
layout(buffer_reference, scalar, buffer_reference_align = 8) readonly buffer ObjectBuffer { Object o[]; };

layout(push_constant) uniform Push
{
  uint64_t objects;     // Object[]
  vec4     sunDirection;
  vec4     skyColor;
} pc;

struct Payload
{
  vec3 color;
};

#endif // BINDLESS_SCENE_GLSL
