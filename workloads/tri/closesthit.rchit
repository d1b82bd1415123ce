// tri: shade the triangle by its barycentric coordinates (red, green, blue at the vertices);
// the back face is drawn at half intensity.
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;
hitAttributeEXT vec2 attribs;

void main()
{
  const vec3 barycentrics = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
  hitValue = gl_HitKindEXT == gl_HitKindFrontFacingTriangleEXT ? barycentrics : 0.5 * barycentrics;
}
