// rtv6: shade a box: the face normal comes from the hit kind the intersection shader reported,
// transformed to world space with the inverse-transpose of the object-to-world matrix.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "host-device.glsl"
#include "offset-ray.glsl"
#include "rtv6-common.glsl"

layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;

layout(shaderRecordEXT, std430) buffer BoxRecord
{
  vec4 albedo;
  vec4 edgeColor;  // rgb, a: width of the grid lines, as a fraction of a grid cell
};

layout(location = 0) rayPayloadInEXT ShadingPayload prd;
layout(location = 1) rayPayloadEXT bool shadowed;
hitAttributeEXT vec3 boxHitPoint;

const vec3 kFaceNormals[6] = vec3[6](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));

// Normal matrix: the inverse transpose of the linear part of object-to-world. gl_WorldToObject3x4EXT
// already holds that inverse (transposed), so both routes must agree; the explicit one is kept for
// transforms that are not orthonormal (determinant != 1).
mat3 normalMatrix()
{
  const mat3 linear = mat3(gl_ObjectToWorld3x4EXT[0].xyz, gl_ObjectToWorld3x4EXT[1].xyz, gl_ObjectToWorld3x4EXT[2].xyz);
  const mat3 objectToWorld = transpose(linear);
  if(abs(determinant(objectToWorld) - 1.0) < 1e-4)
    return mat3(transpose(gl_WorldToObject3x4EXT));
  return transpose(inverse(objectToWorld));
}

void main()
{
  const uint face      = min(bitfieldExtract(gl_HitKindEXT, 0, 3), 5u);
  const vec3 normal    = normalize(normalMatrix() * kFaceNormals[face]);
  const vec3 worldPos  = gl_WorldRayOriginEXT + gl_HitTEXT * gl_WorldRayDirectionEXT;
  const vec3 L         = normalize(settings.lightDirection.xyz);

  float lambert = max(dot(normal, L), 0.0);
  if(lambert > 0.0)
  {
    shadowed = true;
    traceRayEXT(topLevelAS, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT | gl_RayFlagsSkipClosestHitShaderEXT,
                0xFF, SBT_OFFSET_SHADOW, SBT_STRIDE, MISS_SHADOW, offsetRay(worldPos, normal), 0.0, L, 1000.0, 1);
    if(shadowed)
      lambert = 0.0;
  }

  // Grid lines every 1/4 object unit on each face. The projector I - n n^T keeps the two in-plane
  // coordinates; the normal's own coordinate is set to 1 so it never counts as a line.
  const vec3 n       = kFaceNormals[face];
  const mat3 project = mat3(1.0) - outerProduct(n, n);
  const vec3 cell    = project * fract(boxHitPoint * 4.0) + abs(n);
  const mat3 widths  = matrixCompMult(mat3(edgeColor.a), mat3(1.0));  // diagonal: line width per axis
  const bool onLine  = any(lessThan(cell, widths * vec3(1.0)));
  const vec3 base    = onLine ? edgeColor.rgb : albedo.rgb;

  prd.color   = base * (settings.ambient.rgb + lambert * settings.lightColor.rgb);
  prd.hitKind = 1;
}
