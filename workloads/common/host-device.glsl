// Declarations shared by every built-in workload and mirrored by the workload manifests
// (workload.json): binding numbers, the camera block and the per-instance description.
// Needs GL_EXT_shader_explicit_arithmetic_types_int64 (uint64_t addresses). Keeps an include guard
// beside #pragma once because glslang only warns on #pragma once and does not implement it.
// Invariant: a binding number or struct layout changed here must be changed in every
// workload.json that fills it (the manifest validator checks bindings against the shaders).
#pragma once
#ifndef VV_HOST_DEVICE_GLSL
#define VV_HOST_DEVICE_GLSL

#if __VERSION__ < 460
#error The vvision workloads need GLSL 4.60 (#version 460)
#endif

#define BINDING_TLAS             0
#define BINDING_OUTPUT_IMAGE     1
#define BINDING_CAMERA           2
#define BINDING_ACCUM_IMAGE      3
#define BINDING_VERTICES         4
#define BINDING_INDICES          5
#define BINDING_MATERIALS        6
#define BINDING_MATERIAL_INDICES 7
#define BINDING_OBJ_DESCS        8
#define BINDING_TEXTURES         9
#define BINDING_LIGHTS           10
#define BINDING_COUNTERS         11
#define BINDING_SPHERES          12
#define BINDING_AABBS            13

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

// OBJ/MTL material as the scene packer writes it when no shader declares the buffer (scalar
// layout, fields in SCENE_BUFFER_FIELDS order, 88 bytes): reached through buffer_reference.
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
  int   type;      // 0 lambertian, 1 metal, 2 dielectric, 3 emissive
  float fuzz;
};

#endif // VV_HOST_DEVICE_GLSL
