#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_nonuniform_qualifier : enable
#extension GL_EXT_scalar_block_layout : enable
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : enable

#include "host-device.glsl"

hitAttributeEXT vec2 attribs;

layout(location = 0) rayPayloadInEXT HitPayload prd;
layout(location = 1) rayPayloadEXT bool isShadowed;

layout(buffer_reference, scalar) readonly buffer Vertices { VertexObj v[]; };
layout(buffer_reference, scalar) readonly buffer Indices { ivec3 i[]; };
layout(buffer_reference, scalar) readonly buffer Materials { WaveFrontMaterial m[]; };
layout(buffer_reference, scalar) readonly buffer MatIndices { int i[]; };

layout(set = 0, binding = 0) uniform accelerationStructureEXT topLevelAS;
layout(set = 1, binding = 1, scalar) readonly buffer ObjDesc_ { ObjDesc i[]; } objDesc;
layout(set = 1, binding = 2) uniform sampler2D textureSamplers[];
layout(push_constant) uniform _PushConstantRay { PushConstantRay pcRay; };

void main()
{
  // The model this instance draws: its buffers by device address.
  ObjDesc objResource = objDesc.i[gl_InstanceCustomIndexEXT];
  MatIndices matIndices = MatIndices(objResource.materialIndexAddress);
  Materials materials = Materials(objResource.materialAddress);
  Indices indices = Indices(objResource.indexAddress);
  Vertices vertices = Vertices(objResource.vertexAddress);

  const ivec3 ind = indices.i[gl_PrimitiveID];
  const VertexObj v0 = vertices.v[ind.x];
  const VertexObj v1 = vertices.v[ind.y];
  const VertexObj v2 = vertices.v[ind.z];
  const vec3 bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);

  const vec3 pos = v0.pos * bary.x + v1.pos * bary.y + v2.pos * bary.z;
  const vec3 worldPos = vec3(gl_ObjectToWorldEXT * vec4(pos, 1.0));
  const vec3 nrm = v0.nrm * bary.x + v1.nrm * bary.y + v2.nrm * bary.z;
  vec3 worldNrm = normalize(vec3(nrm * gl_WorldToObjectEXT));
  if (dot(worldNrm, gl_WorldRayDirectionEXT) > 0.0)
    worldNrm = -worldNrm;
  const vec3 color = v0.color * bary.x + v1.color * bary.y + v2.color * bary.z;

  const int matIdx = matIndices.i[gl_PrimitiveID];
  const WaveFrontMaterial mat = materials.m[matIdx];

  vec3 toLight = pcRay.lightPosition - worldPos;
  const float lightDistance = length(toLight);
  const vec3 L = toLight / lightDistance;
  const float lightIntensity = pcRay.lightIntensity / (lightDistance * lightDistance);
  const float dotNL = max(dot(worldNrm, L), 0.0);

  vec3 albedo = mat.diffuse * color;
  if (mat.textureId >= 0)
  {
    const uint txtId = uint(mat.textureId + objResource.txtOffset);
    const vec2 texCoord = v0.texCoord * bary.x + v1.texCoord * bary.y + v2.texCoord * bary.z;
    albedo *= texture(textureSamplers[nonuniformEXT(txtId)], texCoord).xyz;
  }
  const vec3 diffuse = albedo * (dotNL + 0.08);

  float attenuation = 1.0;
  vec3 specular = vec3(0);
  if (dotNL > 0.0)
  {
    isShadowed = true;
    traceRayEXT(topLevelAS,
                gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
                0xFF, 0, 0, 1, worldPos, 0.001, L, lightDistance, 1);
    if (isShadowed)
      attenuation = 0.3;
    else
    {
      const vec3 R = reflect(L, worldNrm);
      specular = mat.specular * pow(max(dot(gl_WorldRayDirectionEXT, R), 0.0), max(mat.shininess, 4.0));
    }
  }
  prd.hitValue = lightIntensity * attenuation * (diffuse + specular);
}
