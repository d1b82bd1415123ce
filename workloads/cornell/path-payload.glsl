// cornell: payload of the path tracer. The closest-hit shader fills in the light reaching the eye
// from this vertex (emission seen directly, or the light sampled directly), how much of the
// incoming light it passes on (weight) and where the path continues.
#ifndef CORNELL_PATH_PAYLOAD_GLSL
#define CORNELL_PATH_PAYLOAD_GLSL

struct PathPayload
{
  vec3 emitted;
  uint seed;
  vec3 weight;
  uint done;       // 1: the path ends here (missed, or hit a light)
  vec3 nextOrigin;
  uint depth;
  vec3 nextDirection;
};

#endif
