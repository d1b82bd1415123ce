#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64, local_size_y = 1) in;

struct Item { vec4 color; mat3 basis; ivec2 cell; float weight; };
layout(set = 0, binding = 0, std430) buffer Items { Item items[]; };
layout(set = 0, binding = 1, std430) buffer Stats { uint count; int minValue; uint64_t total; uint packed[4]; float f[]; } stats;
shared uint tile[64];

int sumTo(int n) { int s = 0; for (int i = 1; i <= n; i++) s += i; return s; }
float sumTo(float n) { return n * (n + 1.0) * 0.5; }

void main()
{
  uint id = gl_GlobalInvocationID.x;
  tile[gl_LocalInvocationIndex] = id;
  barrier();
  if (id >= uint(items.length()))
    return;
  Item it = items[id];
  vec3 v = it.basis * it.color.rgb;
  mat3 m = transpose(it.basis) * mat3(2.0);
  mat2x3 m23 = mat2x3(m);
  mat4 m4 = mat4(m);
  v += m23 * vec2(1.0, 2.0) + (m4 * vec4(v, 1.0)).xyz + outerProduct(v, v)[1] + matrixCompMult(m, m)[2];
  float det = determinant(m) + determinant(inverse(mat2(1.0, 2.0, 3.0, 4.0)));
  uint bits = floatBitsToUint(det);
  int lsb = findLSB(bits) + findMSB(int(bits)) + bitCount(bits);
  uint field = bitfieldExtract(bits, 4, 8) | bitfieldInsert(0u, bits, 8, 4) | bitfieldReverse(bits);
  uint pk = packUnorm4x8(it.color) ^ packHalf2x16(v.xy) ^ packSnorm2x16(vec2(-0.5, 0.5));
  vec4 up = unpackUnorm4x8(pk) + vec4(unpackHalf2x16(pk), unpackSnorm2x16(pk));
  int64_t big = int64_t(id) * 3000000000l;
  uint64_t ubig = uint64_t(big) + 5ul;
  atomicAdd(stats.total, ubig);
  atomicMin(stats.minValue, lsb);
  uint prev = atomicCompSwap(stats.packed[id & 3u], 0u, field);
  atomicExchange(stats.packed[0], prev);
  float s = sumTo(3.0) + float(sumTo(3));
  bvec3 gt = greaterThan(v, vec3(0.0));
  if (any(gt) && !all(not(gt)) && !isnan(det) && !isinf(s))
    stats.f[id] = s + up.x + dot(v, vec3(1)) + it.weight;
  uint red = subgroupAdd(id) + subgroupShuffle(id, 0u) + subgroupShuffleXor(id, 1u) + subgroupExclusiveMax(id);
  atomicAdd(stats.count, red > 0u ? 1u : 0u);
}
