// cornell: fetch the hit triangle through buffer_reference addresses in the instance's ObjDesc
// (nvpro style), emit the material's Ke, and continue the path with a cosine-weighted bounce.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require

#include "host-device.glsl"
#include "random.glsl"
#include "sampling.glsl"
#include "offset-ray.glsl"
#include "buffer-references.glsl"
#include "path-payload.glsl"

layout(set = 0, binding = BINDING_OBJ_DESCS, scalar) readonly buffer ObjDesc_
{
  ObjDesc i[];
} objDesc;

layout(push_constant) uniform PathSettings
{
  uint  frame;
  uint  samples;
  uint  maxDepth;
  uint  seed;
  float exposure;
  float emissionScale;
} settings;

layout(location = 0) rayPayloadInEXT PathPayload prd;
hitAttributeEXT vec2 attribs;

void main()
{
  const ObjDesc    desc       = objDesc.i[gl_InstanceCustomIndexEXT + gl_GeometryIndexEXT];
  Vertices         vertices   = Vertices(desc.vertexAddress);
  Materials        materials  = Materials(desc.materialAddress);
  MatIndices       matIndices = MatIndices(desc.materialIndexAddress);

  // Pointer arithmetic: the triangle's index triple sits at indexAddress + primitive * 12 bytes.
  const uint64_t        triangleAddress = desc.indexAddress + uint64_t(gl_PrimitiveID) * TRIANGLE_INDEX_BYTES;
  TriangleIndices       triangle        = TriangleIndices(triangleAddress);
  const uvec3           ind             = triangle.idx;

  const vec3 p0 = vertices.v[ind.x].position;
  const vec3 p1 = vertices.v[ind.y].position;
  const vec3 p2 = vertices.v[ind.z].position;

  const vec3 objectNormal = normalize(cross(p1 - p0, p2 - p0));
  vec3       normal       = normalize(vec3(objectNormal * gl_WorldToObjectEXT));
  normal                  = faceforward(normal, gl_WorldRayDirectionEXT, normal);

  const WaveFrontMaterial material = materials.m[matIndices.i[gl_PrimitiveID]];
  const vec3 worldPosition = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;

  prd.emitted = material.emission * settings.emissionScale;
  if(any(greaterThan(material.emission, vec3(0.0))))
  {
    prd.done = 1u;  // lights do not reflect in this scene
    return;
  }

  // Cosine-weighted sampling: the pdf cancels the cosine and 1/pi of the lambertian BRDF.
  prd.weight        = material.diffuse;
  prd.nextDirection = sampleHemisphere(rnd2(prd.seed), normal);
  prd.nextOrigin    = offsetRay(worldPosition, normal);
  prd.done          = 0u;
}
