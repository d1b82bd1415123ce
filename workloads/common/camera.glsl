// Primary rays from the nvpro camera block (viewInverse, projInverse): pixel centre (plus an
// optional sub-pixel jitter) -> NDC -> camera space -> world space.
// Invariant: launch y = 0 is the top image row; projInverse carries Vulkan's y-down flip.
#pragma once

void primaryRay(in CameraMatrices cam, vec2 jitter, out vec3 origin, out vec3 direction)
{
  const vec2 pixelCenter = vec2(gl_LaunchIDEXT.xy) + jitter;
  const vec2 inUV        = pixelCenter / vec2(gl_LaunchSizeEXT.xy);
  vec2       d           = inUV * 2.0 - 1.0;

  vec4 o    = cam.viewInverse * vec4(0, 0, 0, 1);
  vec4 t    = cam.projInverse * vec4(d.x, d.y, 1, 1);
  vec4 dir  = cam.viewInverse * vec4(normalize(t.xyz), 0);
  origin    = o.xyz;
  direction = normalize(dir.xyz);
}

// Overload without jitter: the pixel centre.
void primaryRay(in CameraMatrices cam, out vec3 origin, out vec3 direction)
{
  primaryRay(cam, vec2(0.5), origin, direction);
}
