#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 p;
// expect-error: 8:27: recursion detected: 'odd' calls 'even', which calls 'odd'
// expect-error: 14:31: recursion detected: 'c' calls 'a', which calls 'b', which calls 'c'
bool even(int n);
bool odd(int n) {
  return n == 0 ? false : even(n - 1);
}
bool even(int n) { return n == 0 ? true : odd(n - 1); }
int c(int n);
int b(int n) { return c(n); }
int a(int n) { return b(n) + 1; }
int c(int n) { return n > 9 ? a(n) : n; }
void main() { p = vec4(odd(3) ? 1.0 : 0.0, 0.0, 0.0, 1.0); }
