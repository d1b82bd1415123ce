// Moves a hit point off its surface before a secondary ray starts there, so the ray does not hit
// the surface it leaves: Wächter and Binder, "A Fast and Robust Method for Avoiding
// Self-Intersection" (Ray Tracing Gems, chapter 6). It works in integer ULPs of the position
// (floatBitsToInt / intBitsToFloat) far from the origin and in float units close to it.
#pragma once

const float kOrigin      = 1.0 / 32.0;
const float kFloatScale  = 1.0 / 65536.0;
const float kIntScale    = 256.0;

vec3 offsetRay(vec3 p, vec3 n)
{
  ivec3 ofI = ivec3(kIntScale * n.x, kIntScale * n.y, kIntScale * n.z);

  vec3 pI = vec3(intBitsToFloat(floatBitsToInt(p.x) + ((p.x < 0.0) ? -ofI.x : ofI.x)),
                 intBitsToFloat(floatBitsToInt(p.y) + ((p.y < 0.0) ? -ofI.y : ofI.y)),
                 intBitsToFloat(floatBitsToInt(p.z) + ((p.z < 0.0) ? -ofI.z : ofI.z)));

  return vec3(abs(p.x) < kOrigin ? fma(kFloatScale, n.x, p.x) : pI.x,
              abs(p.y) < kOrigin ? fma(kFloatScale, n.y, p.y) : pI.y,
              abs(p.z) < kOrigin ? fma(kFloatScale, n.z, p.z) : pI.z);
}
