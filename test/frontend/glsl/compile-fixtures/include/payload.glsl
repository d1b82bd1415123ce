#ifndef FIXTURE_PAYLOAD_GLSL
#define FIXTURE_PAYLOAD_GLSL
struct HitPayload
{
  vec3  radiance;
  vec3  throughput;
  vec3  origin;
  vec3  direction;
  uint  seed;
  int   depth;
  bool  done;
};
#endif
