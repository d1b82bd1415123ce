/**
 * Semantics of the generated IR, checked by running it: compute shaders compiled by the front end
 * run on the functional simulator (src/sim/functional) and their results are compared with values
 * worked out by hand from the GLSL specification (swizzle writes, fall-through, short-circuit side
 * effects, in/out/inout copies, integer wrap-around, matrix products, built-ins).
 */
import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { compileProgram, runFunctional } from '../../../src/sim/functional/index.js';

const SLOTS = 24;

/** Runs a one-invocation compute shader whose body writes `f[i]` (float) and `n[i]` (int) results. */
function run(body: string): { f: Float32Array; n: Int32Array } {
  const src = `#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Out { float f[${SLOTS}]; int n[${SLOTS}]; } o;
${body}
`;
  const r = compileGlsl('exec.comp', src);
  if (!r.module) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  const program = compileProgram(r.module);
  const data = new Uint8Array(SLOTS * 8);
  runFunctional(program, { buffers: [{ set: 0, binding: 0, data }] }, { entry: r.module.entryPoints[0]!.function, size: [1, 1, 1] });
  return { f: new Float32Array(data.buffer, 0, SLOTS), n: new Int32Array(data.buffer, SLOTS * 4, SLOTS) };
}

test('swizzle writes, compound assignment on swizzles, ++/-- order', (t) => {
  const { f, n } = run(`void main() {
    vec4 v = vec4(1, 2, 3, 4);
    v.wy = vec2(10, 20);
    o.f[0] = v.x * 1000.0 + v.y * 100.0 + v.z * 10.0 + v.w;
    vec4 w = vec4(1, 2, 3, 4);
    w.zx += vec2(1, 2);
    o.f[1] = w.x * 1000.0 + w.y * 100.0 + w.z * 10.0 + w.w;
    int a = 5;
    int b = a++ + ++a;
    o.n[0] = b; o.n[1] = a;
    ivec2 iv = ivec2(3, 4); iv.y--; --iv.x;
    o.n[2] = iv.x * 10 + iv.y;
  }`);
  t.is(f[0], 3040);
  t.is(f[1], 3244);
  t.deepEqual([n[0], n[1], n[2]], [12, 7, 23]);
});

test('switch fall-through and default, loops with break/continue, do-while runs once', (t) => {
  const { n } = run(`int classify(int x) {
    int r = 0;
    switch (x) { case 0: r += 1; case 1: r += 2; break; case 2: case 3: r = 10; break; default: r = -1; }
    return r;
  }
  void main() {
    o.n[0] = classify(0); o.n[1] = classify(1); o.n[2] = classify(3); o.n[3] = classify(7);
    int s = 0;
    for (int i = 0; i < 100; i++) { if (i % 2 == 0) continue; if (i > 10) break; s += i; }
    o.n[4] = s;
    int k = 0;
    do { k += 5; } while (k < 0);
    o.n[5] = k;
    int w = 0; while (true) { if (++w >= 4) break; }
    o.n[6] = w;
  }`);
  t.deepEqual([...n.slice(0, 7)], [3, 2, 10, -1, 25, 5, 4]);
});

test('&& / || / ?: evaluate the right side only when needed', (t) => {
  const { n } = run(`int calls = 0;
  bool bump(bool r) { calls++; return r; }
  void main() {
    bool a = false && bump(true);
    bool b = true || bump(false);
    bool c = true && bump(false);
    int d = calls > 0 ? calls * 10 : bump(true) ? 1 : 2;
    o.n[0] = calls; o.n[1] = int(a) + int(b) * 2 + int(c) * 4; o.n[2] = d;
  }`);
  t.deepEqual([n[0], n[1], n[2]], [1, 2, 10]);
});

test('in parameters are copies, out and inout write back', (t) => {
  const { n } = run(`void f(int x, out int y, inout int z) { x = 100; y = x + 1; z = z * 2; }
  void main() { int x = 1; int y = 2; int z = 3; f(x, y, z); o.n[0] = x; o.n[1] = y; o.n[2] = z;
    ivec2 v = ivec2(5, 6); f(v.x, v.y, v.x); o.n[3] = v.x; o.n[4] = v.y; }`);
  t.deepEqual([...n.slice(0, 5)], [1, 101, 6, 10, 101]);
});

test('integer wrap-around, division and conversions', (t) => {
  const { n } = run(`void main() {
    uint u = 0xFFFFFFFFu; u += 2u; o.n[0] = int(u);
    int big = 0x7FFFFFFF; big += 1; o.n[1] = big;
    o.n[2] = -7 / 2;
    o.n[3] = int(-2.7);
    o.n[4] = int(uint(3.9));
    float h = 7 / 2; o.n[5] = int(h * 10.0);
    o.n[6] = 1 << 4 | 3;
  }`);
  t.deepEqual([...n.slice(0, 7)], [1, -2147483648, -3, -2, 3, 30, 19]);
});

test('matrices are column-major; m * v, v * m, m * m', (t) => {
  const { f } = run(`void main() {
    mat2 m = mat2(1, 2, 3, 4);
    vec2 a = m * vec2(1, 1);
    vec2 b = vec2(1, 1) * m;
    mat2 mm = m * m;
    o.f[0] = a.x; o.f[1] = a.y; o.f[2] = b.x; o.f[3] = b.y;
    o.f[4] = mm[0][0]; o.f[5] = mm[0][1]; o.f[6] = mm[1][0]; o.f[7] = mm[1][1];
    mat3 r = mat3(mat2(2.0));
    o.f[8] = r[2][2] + r[0][0] * 10.0;
    o.f[9] = transpose(m)[0][1];
  }`);
  t.deepEqual([...f.slice(0, 10)], [4, 6, 3, 7, 7, 10, 15, 22, 21, 3]);
});

test('built-ins compute what the GLSL specification says', (t) => {
  const { f, n } = run(`const float W[4] = float[4](0.5, 1.5, 2.5, 3.5);
  void main() {
    int i = 2;
    o.f[0] = W[i];
    o.f[1] = mod(-1.0, 3.0);
    o.f[2] = clamp(5.0, 0.0, 2.0) + step(0.5, 0.7) * 10.0;
    o.f[3] = dot(vec3(1, 2, 3), vec3(4, 5, 6));
    o.f[4] = length(vec2(3, 4));
    o.f[5] = mix(2.0, 4.0, 0.25);
    o.f[6] = mix(vec2(1, 2), vec2(3, 4), bvec2(false, true)).y;
    o.n[0] = int(bitfieldExtract(0xF0u, 4, 4));
    o.n[1] = int(packUnorm4x8(vec4(1, 0, 0, 1)) == 0xFF0000FFu);
    o.n[2] = findMSB(16) * 10 + findLSB(8u);
    o.n[3] = bitCount(0xF0F0u);
    o.n[4] = int(any(greaterThan(vec3(1, 2, 3), vec3(2)))) + 2 * int(all(lessThan(vec2(1), vec2(2))));
    o.n[5] = floatBitsToInt(1.0);
    o.n[6] = min(-3, 2) * 10 + max(4, 7);
  }`);
  t.deepEqual([...f.slice(0, 7)], [2.5, 2, 12, 32, 5, 2.5, 4]);
  t.deepEqual([...n.slice(0, 7)], [15, 1, 43, 8, 3, 0x3f800000, -23]);
});

test('structs copy between function memory and std430 / std140 buffers member by member', (t) => {
  const src = `#version 460
layout(local_size_x = 1) in;
struct Item { vec3 pos; float w; int tags[2]; };
layout(set = 0, binding = 0, std430) buffer Items { Item items[2]; } b;
layout(set = 0, binding = 1, std140) uniform Params { Item seed; } u;
Item twice(Item it) { it.pos *= 2.0; it.w *= 2.0; it.tags[1] += 1; return it; }
void main() {
  Item local = u.seed;
  b.items[0] = twice(local);
  b.items[1] = b.items[0];
  b.items[1].tags[0] = b.items[1].tags.length();
}
`;
  const r = compileGlsl('copy.comp', src);
  if (!r.module) return t.fail(r.diagnostics.map((d) => d.message).join('\n'));
  const program = compileProgram(r.module);
  // std140 Item: pos @0, w @12, tags @16 stride 16 -> size 48 (Params block).
  const ubo = new DataView(new ArrayBuffer(48));
  [1, 2, 3].forEach((x, i) => ubo.setFloat32(i * 4, x, true));
  ubo.setFloat32(12, 0.5, true);
  ubo.setInt32(16, 7, true);
  ubo.setInt32(32, 9, true);
  // std430 Item: pos @0, w @12, tags @16 stride 4 -> size 24, array stride 32 (vec3 alignment 16).
  const out = new Uint8Array(64);
  runFunctional(program, {
    buffers: [{ set: 0, binding: 0, data: out }, { set: 0, binding: 1, data: new Uint8Array(ubo.buffer) }],
  }, { entry: r.module.entryPoints[0]!.function, size: [1, 1, 1] });
  const v = new DataView(out.buffer);
  const item = (base: number) => [v.getFloat32(base, true), v.getFloat32(base + 4, true), v.getFloat32(base + 8, true), v.getFloat32(base + 12, true), v.getInt32(base + 16, true), v.getInt32(base + 20, true)];
  t.deepEqual(item(0), [2, 4, 6, 1, 7, 10]);
  t.deepEqual(item(32), [2, 4, 6, 1, 2, 10]);
});
