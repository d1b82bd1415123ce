// Unit normals in 32 bits: octahedral mapping to [-1, 1]^2 (Cigolle et al., "A Survey of
// Efficient Representations for Independent Unit Vectors", JCGT 2014), stored as two halves.
// Keeps ray payloads small, which is what the hardware keeps in registers across traceRayEXT.
#ifndef VV_NORMAL_ENCODING_GLSL
#define VV_NORMAL_ENCODING_GLSL

vec2 signNotZero(vec2 v)
{
  return vec2(v.x >= 0.0 ? 1.0 : -1.0, v.y >= 0.0 ? 1.0 : -1.0);
}

uint encodeNormal(vec3 n)
{
  vec2 p = n.xy * (1.0 / (abs(n.x) + abs(n.y) + abs(n.z)));
  p      = n.z <= 0.0 ? (1.0 - abs(p.yx)) * signNotZero(p) : p;
  return packHalf2x16(p);
}

vec3 decodeNormal(uint packed)
{
  const vec2 e = unpackHalf2x16(packed);
  vec3       v = vec3(e.xy, 1.0 - abs(e.x) - abs(e.y));
  if(v.z < 0.0)
    v.xy = (1.0 - abs(v.yx)) * signNotZero(v.xy);
  return normalize(v);
}

#endif // VV_NORMAL_ENCODING_GLSL
