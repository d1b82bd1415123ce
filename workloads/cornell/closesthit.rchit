// cornell: fetch the hit triangle through buffer_reference addresses in the instance's ObjDesc
// (nvpro style); sample the area light with a shadow ray (next-event estimation) and continue
// the path with a cosine-weighted bounce. Emission hit by a bounce is not counted again: the
// light was already sampled directly at the previous vertex.
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

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;

// The emissive quad of the scene, as the host knows it from the OBJ: corner + two edges. Its
// radiance is the MTL's Ke, scaled like every emission by PathSettings.emissionScale.
layout(set = 0, binding = BINDING_LIGHTS, std140) uniform AreaLight
{
  vec4 corner;
  vec4 edgeU;
  vec4 edgeV;
  vec4 radiance;
} areaLight;

layout(location = 0) rayPayloadInEXT PathPayload prd;
layout(location = 1) rayPayloadEXT bool lightOccluded;
hitAttributeEXT vec2 attribs;

// Light arriving at x (normal n) from a uniformly sampled point of the area light, for a
// lambertian surface of albedo `albedo`; zero when the sample is occluded or faces away.
vec3 sampleAreaLight(vec3 x, vec3 n, vec3 albedo, vec2 u)
{
  const vec3  y      = areaLight.corner.xyz + u.x * areaLight.edgeU.xyz + u.y * areaLight.edgeV.xyz;
  const vec3  lightN = normalize(cross(areaLight.edgeU.xyz, areaLight.edgeV.xyz));
  const float area   = length(cross(areaLight.edgeU.xyz, areaLight.edgeV.xyz));
  vec3        toY    = y - x;
  const float dist2  = dot(toY, toY);
  const float dist   = sqrt(dist2);
  toY /= dist;
  const float cosX = dot(n, toY);
  const float cosY = dot(lightN, -toY);  // the light emits from its front (downward) face only
  if(cosX <= 0.0 || cosY <= 0.0)
    return vec3(0.0);

  lightOccluded = true;
  traceRayEXT(topLevelAS, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
              0xFF, 0, 0, 1, offsetRay(x, n), 0.0, toY, dist * 0.999, 1);
  if(lightOccluded)
    return vec3(0.0);
  const vec3 le = areaLight.radiance.rgb * settings.emissionScale;
  return le * (albedo / M_PI) * cosX * cosY * area / dist2;
}

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

  if(any(greaterThan(material.emission, vec3(0.0))))
  {
    // Seen directly from the camera; later vertices sampled this light already.
    prd.emitted = prd.depth == 0u ? material.emission * settings.emissionScale : vec3(0.0);
    prd.done    = 1u;  // lights do not reflect in this scene
    return;
  }

  prd.emitted = sampleAreaLight(worldPosition, normal, material.diffuse, rnd2(prd.seed));

  // Cosine-weighted sampling: the pdf cancels the cosine and 1/pi of the lambertian BRDF.
  prd.weight        = material.diffuse;
  prd.nextDirection = sampleHemisphere(rnd2(prd.seed), normal);
  prd.nextOrigin    = offsetRay(worldPosition, normal);
  prd.done          = 0u;
}
