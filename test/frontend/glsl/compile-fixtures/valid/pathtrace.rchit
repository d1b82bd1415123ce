#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "rng.glsl"
#include "payload.glsl"

struct Vertex { vec3 pos; vec3 nrm; vec2 uv; };
struct Material { vec3 albedo; float roughness; vec3 emission; int type; int textureId; float ior; };
struct ObjDesc { uint64_t vertexAddress; uint64_t indexAddress; };

layout(buffer_reference, scalar) readonly buffer Vertices { Vertex v[]; };
layout(buffer_reference, scalar) readonly buffer Indices { uvec3 i[]; };

layout(location = 0) rayPayloadInEXT HitPayload prd;
layout(location = 1) rayPayloadEXT bool shadowed;
hitAttributeEXT vec2 attribs;

layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 3, scalar) readonly buffer Materials { Material materials[]; };
layout(set = 0, binding = 4, scalar) readonly buffer Descs { ObjDesc descs[]; } objDescs;
layout(set = 0, binding = 5) uniform sampler2D textures[];
layout(push_constant) uniform Constants { vec4 lightPos; int maxDepth; float lightIntensity; } pc;

const int LAMBERT = 0;
const int METAL = 1;
const int GLASS = 2;

float schlick(float cosine, float ior)
{
  float r0 = (1.0 - ior) / (1.0 + ior);
  r0 = r0 * r0;
  return r0 + (1.0 - r0) * pow(1.0 - cosine, 5.0);
}

void scatter(in Material m, vec3 n, vec3 albedo, inout uint seed, out vec3 dir, out vec3 atten)
{
  switch (m.type)
  {
    case METAL:
      dir = reflect(gl_WorldRayDirectionEXT, n) + m.roughness * cosineHemisphere(seed, n);
      atten = albedo;
      break;
    case GLASS:
    {
      bool front = dot(gl_WorldRayDirectionEXT, n) < 0.0;
      float eta = front ? 1.0 / m.ior : m.ior;
      vec3 nn = front ? n : -n;
      float c = min(dot(-gl_WorldRayDirectionEXT, nn), 1.0);
      vec3 refr = refract(gl_WorldRayDirectionEXT, nn, eta);
      dir = (refr == vec3(0.0) || schlick(c, eta) > nextFloat(seed)) ? reflect(gl_WorldRayDirectionEXT, nn) : refr;
      atten = vec3(1.0);
      break;
    }
    case LAMBERT:
    default:
      dir = cosineHemisphere(seed, n);
      atten = albedo;
  }
}

void main()
{
  ObjDesc desc = objDescs.descs[gl_InstanceCustomIndexEXT];
  Vertices vertices = Vertices(desc.vertexAddress);
  Indices indices = Indices(desc.indexAddress);
  uvec3 tri = indices.i[gl_PrimitiveID];
  Vertex v0 = vertices.v[tri.x];
  Vertex v1 = vertices.v[tri.y];
  Vertex v2 = vertices.v[tri.z];
  const vec3 bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
  vec3 pos = v0.pos * bary.x + v1.pos * bary.y + v2.pos * bary.z;
  vec3 worldPos = vec3(gl_ObjectToWorldEXT * vec4(pos, 1.0));
  vec3 nrm = normalize(v0.nrm * bary.x + v1.nrm * bary.y + v2.nrm * bary.z);
  vec3 worldNrm = normalize(vec3(nrm * gl_WorldToObjectEXT));
  vec2 uv = v0.uv * bary.x + v1.uv * bary.y + v2.uv * bary.z;

  Material m = materials[gl_InstanceCustomIndexEXT];
  vec3 albedo = m.albedo;
  if (m.textureId >= 0)
    albedo *= textureLod(textures[nonuniformEXT(m.textureId)], uv, 0.0).rgb;

  prd.radiance += prd.throughput * m.emission;

  vec3 L = normalize(pc.lightPos.xyz - worldPos);
  float nDotL = max(dot(worldNrm, L), 0.0);
  if (nDotL > 0.0 && m.type == LAMBERT)
  {
    shadowed = true;
    uint flags = gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT;
    traceRayEXT(tlas, flags, 0xFF, 0, 0, 1, worldPos + worldNrm * 1e-3, 0.001, L, length(pc.lightPos.xyz - worldPos), 1);
    if (!shadowed)
      prd.radiance += prd.throughput * albedo * nDotL * pc.lightIntensity;
  }

  vec3 dir, atten;
  scatter(m, worldNrm, albedo, prd.seed, dir, atten);
  prd.throughput *= atten;
  prd.origin = worldPos;
  prd.direction = dir;
  prd.depth++;
  prd.done = prd.depth >= pc.maxDepth || dot(prd.throughput, prd.throughput) < 1e-6;
}
