// Declarations shared by every built-in workload and mirrored by the workload manifests
// (workload.json): binding numbers, the camera block and the per-instance description.
// Invariant: a binding number or struct layout changed here must be changed in every
// workload.json that fills it (the manifest validator checks bindings against the shaders).
#pragma once

#define BINDING_TLAS          0
#define BINDING_OUTPUT_IMAGE  1
#define BINDING_CAMERA        2
#define BINDING_ACCUM_IMAGE   3
#define BINDING_SCENE_DATA    4
#define BINDING_MATERIALS     5
#define BINDING_TEXTURES      6
#define BINDING_LIGHTS        7

// Camera in the nvpro style: the inverse view and inverse (Vulkan, y-down) projection matrices,
// std140. The manifest's `camera` entry expands to exactly these two members.
struct CameraMatrices
{
  mat4 viewInverse;
  mat4 projInverse;
};

// Per-instance description (nvpro ObjDesc): device addresses of the instance's buffers, fetched
// through buffer_reference blocks. Scalar/std430 layout: four uint64_t at offsets 0, 8, 16, 24.
struct ObjDesc
{
  uint64_t vertexAddress;        // Vertex[]
  uint64_t indexAddress;         // uvec3[] (one per triangle)
  uint64_t materialAddress;      // Material[]
  uint64_t materialIndexAddress; // int[] (material of each triangle)
};

// Vertex as the scene packer writes it (scalar layout, 32 bytes).
struct Vertex
{
  vec3 position;
  vec3 normal;
  vec2 texCoord;
};

// OBJ/MTL material as the scene packer writes it (scalar layout).
struct WaveFrontMaterial
{
  vec3  ambient;
  vec3  diffuse;
  vec3  specular;
  vec3  transmittance;
  vec3  emission;
  float shininess;
  float ior;
  float dissolve;
  int   illum;
  int   textureId;
};
