// Types shared by the host (here: workload.json) and the shaders of the `models` workload, in the
// style of an application that loads each model file into its own buffers and reaches them
// through device addresses kept in one object description per model.
// Needs GL_EXT_shader_explicit_arithmetic_types_int64.
#ifndef MODELS_HOST_DEVICE_GLSL
#define MODELS_HOST_DEVICE_GLSL

// set 1, binding 0 (std140): filled by the manifest's camera helper, by member name.
struct GlobalUniforms
{
  mat4 viewProj;     // raster pipelines use it; kept as applications keep it
  mat4 viewInverse;  // camera to world
  mat4 projInverse;  // clip to camera
};

// One per model (set 1, binding 1, scalar layout: 40 bytes, the uint64_t at offsets 8, 16, 24, 32).
struct ObjDesc
{
  int      txtOffset;             // first texture of this model in textureSamplers[]
  uint64_t vertexAddress;         // VertexObj[]
  uint64_t indexAddress;          // ivec3[], one per triangle
  uint64_t materialAddress;       // WaveFrontMaterial[], this model's materials
  uint64_t materialIndexAddress;  // int[], one per triangle, into this model's materials
};

// Scalar layout: 44 bytes (not vvision's 32-byte scene vertex: the manifest packs this struct).
struct VertexObj
{
  vec3 pos;
  vec3 nrm;
  vec3 color;
  vec2 texCoord;
};

// Scalar layout: 80 bytes.
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
  int   textureId;   // index among this model's textures, -1 for none
};

struct PushConstantRay
{
  vec4  clearColor;
  vec3  lightPosition;
  float lightIntensity;
};

struct HitPayload
{
  vec3 hitValue;
};

#endif // MODELS_HOST_DEVICE_GLSL
