// Payload of the primary rays of the occlusion workloads (ao, bunny): where the ray hit, in world
// space, with the normal facing the viewer. t < 0 means the ray missed.
#ifndef VV_AO_PAYLOAD_GLSL
#define VV_AO_PAYLOAD_GLSL

struct PrimaryHit
{
  vec3  position;
  float t;
  uint  normal;    // octahedral, packHalf2x16 (normal-encoding.glsl)
  uint  instance;
};

#endif // VV_AO_PAYLOAD_GLSL
