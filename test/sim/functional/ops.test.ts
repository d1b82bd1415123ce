import test from 'ava';
import { runGlsl, words, u32s, i32s, f32s, fromF32 } from './run-ir.js';

const HEADER = `#version 460
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Out { uint u[64]; int i[64]; float f[64]; } o;
layout(std430, set = 0, binding = 1) readonly buffer In { float x[8]; } inp;
`;

let engine: 'warp' | 'laneSerial' = 'warp';

/** Registers the test once per engine (the lane-serial and warp-synchronous code must agree). */
function both(title: string, fn: (t: import('ava').ExecutionContext) => void): void {
  for (const e of ['warp', 'laneSerial'] as const) {
    test(`${title} (${e})`, (t) => {
      engine = e;
      fn(t);
    });
  }
}

function runOne(body: string, input: number[] = [0.5, -1.25, 3, 2, 0, 0, 0, 0]) {
  const out = words(64 * 3);
  runGlsl(HEADER + `void main() {\n${body}\n}`, {
    buffers: [
      { set: 0, binding: 0, data: out },
      { set: 0, binding: 1, data: fromF32(input) },
    ],
  }, { size: [1, 1, 1], engine });
  return { u: u32s(out).slice(0, 64), i: i32s(out).slice(64, 128), f: f32s(out).slice(128, 192) };
}

both('integer arithmetic wraps to 32 bits; signed/unsigned division, %, shifts', (t) => {
  const r = runOne(`
    uint a = 0xFFFFFFF0u; uint b = 0x20u;
    o.u[0] = a + b;             // wraps
    o.u[1] = a * 3u;
    o.u[2] = a / 7u;
    o.u[3] = a % 7u;
    o.u[4] = a >> 4;            // logical
    o.u[5] = b << 27;
    int c = -17; int d = 5;
    o.i[0] = c / d;             // truncates toward zero
    o.i[1] = c % d;             // sign of the dividend
    o.i[2] = c >> 2;            // arithmetic
    o.i[3] = 2147483647 + int(inp.x[3]); // overflow wraps
    o.i[4] = -c * 100000 * 100000;
    o.i[5] = ~c;
  `);
  t.deepEqual(r.u.slice(0, 6), [0x10, 0xffffffd0, 0x24924922, 2, 0x0fffffff, 0]);
  t.deepEqual(r.i.slice(0, 6), [-3, -2, -5, -2147483647, Math.imul(Math.imul(17, 100000), 100000), 16]);
});

both('float arithmetic rounds to f32; conversions saturate and truncate', (t) => {
  const r = runOne(`
    float a = inp.x[0]; float b = inp.x[1];
    o.f[0] = a / 3.0;
    o.f[1] = a + 1e-9;          // f32: unchanged
    o.f[2] = mod(b, 1.0);       // GLSL mod: sign of divisor
    o.i[0] = int(b);            // truncation
    o.u[0] = uint(inp.x[2] * 1e10);   // saturates (runtime value: not folded by the front end)
    o.i[1] = int(-inp.x[2] * 1e10);
    o.f[3] = float(16777217u);  // rounds to f32
    o.f[4] = fract(b);
    o.u[1] = floatBitsToUint(a);
    o.f[5] = uintBitsToFloat(0x40490fdbu);
  `);
  t.is(r.f[0], Math.fround(0.5 / 3));
  t.is(r.f[1], 0.5);
  t.is(r.f[2], 0.75);
  t.is(r.i[0], -1);
  t.is(r.u[0], 4294967295);
  t.is(r.i[1], -2147483648);
  t.is(r.f[3], 16777216);
  t.is(r.f[4], 0.75);
  t.is(r.u[1], 0x3f000000);
  t.is(r.f[5], Math.fround(Math.PI));
});

both('vectors, matrices (column-major), composites and dynamic indexing', (t) => {
  const r = runOne(`
    mat3 m = mat3(1.0, 2.0, 3.0,  4.0, 5.0, 6.0,  7.0, 8.0, 9.0); // columns
    vec3 v = vec3(1.0, 0.0, -1.0);
    vec3 mv = m * v;            // = col0 - col2
    vec3 vm = v * m;            // = (dot(v,col0), dot(v,col1), dot(v,col2))
    o.f[0] = mv.x; o.f[1] = mv.y; o.f[2] = mv.z;
    o.f[3] = vm.x; o.f[4] = vm.y; o.f[5] = vm.z;
    mat3 mt = transpose(m);
    o.f[6] = mt[0][1];          // = m[1][0] = 4
    mat3 mm = m * mt;
    o.f[7] = mm[0][0];          // row0 of m . row0 of m = 1+16+49
    int k = int(inp.x[2]) - 1;  // 2
    o.f[8] = v[k];
    vec4 w = vec4(1.0, 2.0, 3.0, 4.0);
    w[k] = 9.0;
    o.f[9] = w.z; o.f[10] = w.zyx.x + w.wz.y;
    o.f[11] = determinant(m + mat3(1.0));
    mat2 inv = inverse(mat2(4.0, 7.0, 2.0, 6.0));
    o.f[12] = inv[0][0]; o.f[13] = inv[1][0];
    o.f[14] = dot(v, vec3(2.0, 3.0, 4.0));
    vec3 c = cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0));
    o.f[15] = c.z;
    o.f[16] = length(vec2(3.0, 4.0));
    o.f[17] = outerProduct(vec2(1.0, 2.0), vec3(3.0, 4.0, 5.0))[2][1]; // col 2, row 1 = 2*5
  `);
  t.deepEqual(r.f.slice(0, 6), [-6, -6, -6, -2, -2, -2]);
  t.is(r.f[6], 4);
  t.is(r.f[7], 66);
  t.is(r.f[8], -1);
  t.is(r.f[9], 9);
  t.is(r.f[10], 18);
  // det([[2,4,7],[2,6,8],[3,6,10]] as columns) computed by hand: 2*(60-48) - 4*(20-24) + 7*(12-18) = 24 + 16 - 42 = -2
  t.is(r.f[11], -2);
  t.is(r.f[12], Math.fround(0.6));
  t.is(r.f[13], Math.fround(-0.2));
  t.is(r.f[14], -2);
  t.is(r.f[15], 1);
  t.is(r.f[16], 5);
  t.is(r.f[17], 10);
});

both('GLSL.std.450 functions', (t) => {
  const r = runOne(`
    o.f[0] = clamp(inp.x[2], 0.0, 1.0);
    o.f[1] = mix(2.0, 4.0, 0.25);
    o.f[2] = step(1.0, 0.5);
    o.f[3] = smoothstep(0.0, 1.0, 0.5);
    o.f[4] = floor(-1.5); o.f[5] = ceil(-1.5); o.f[6] = round(2.5); o.f[7] = roundEven(3.5);
    o.f[8] = sign(-3.0); o.f[9] = abs(-2.5);
    o.f[10] = pow(2.0, 10.0); o.f[11] = exp2(-1.0); o.f[12] = log2(8.0); o.f[13] = inversesqrt(4.0);
    vec3 n = normalize(vec3(3.0, 0.0, 4.0)); o.f[14] = n.x; o.f[15] = n.z;
    vec3 rf = reflect(vec3(1.0, -1.0, 0.0), vec3(0.0, 1.0, 0.0)); o.f[16] = rf.y;
    o.f[17] = min(inp.x[0], inp.x[1]); o.f[18] = max(inp.x[0], inp.x[1]);
    o.i[0] = min(-3, 2); o.i[1] = abs(-7); o.i[2] = sign(-9);
    o.u[0] = max(3u, 9u);
    o.f[19] = radians(180.0); o.f[20] = degrees(3.14159265);
    o.f[21] = atan(1.0, 1.0);
    o.f[22] = fma(2.0, 3.0, 1.0);
    o.f[23] = ldexp(3.0, 4);
    o.f[24] = distance(vec2(0.0), vec2(6.0, 8.0));
    o.f[25] = faceforward(vec3(1.0), vec3(1.0), vec3(1.0)).x;
    vec3 rr = refract(vec3(0.0, -1.0, 0.0), vec3(0.0, 1.0, 0.0), 1.0); o.f[26] = rr.y;
  `);
  t.deepEqual(r.f.slice(0, 4), [1, 2.5, 0, 0.5]);
  t.deepEqual(r.f.slice(4, 8), [-2, -1, 2, 4]);
  t.deepEqual(r.f.slice(8, 14), [-1, 2.5, 1024, 0.5, 3, 0.5]);
  t.is(r.f[14], Math.fround(0.6));
  t.is(r.f[15], Math.fround(0.8));
  t.is(r.f[16], 1);
  t.deepEqual([r.f[17], r.f[18]], [-1.25, 0.5]);
  t.deepEqual(r.i.slice(0, 3), [-3, 7, -1]);
  t.is(r.u[0], 9);
  t.is(r.f[19], Math.fround(Math.PI));
  t.true(Math.abs(r.f[20]! - 180) < 1e-4);
  t.is(r.f[21], Math.fround(Math.PI / 4));
  t.is(r.f[22], 7);
  t.is(r.f[23], 48);
  t.is(r.f[24], 10);
  t.is(r.f[25], -1);
  t.is(r.f[26], -1);
});

both('bit operations and pack/unpack', (t) => {
  const r = runOne(`
    o.u[0] = bitCount(0xF0F0u); o.i[0] = findLSB(0x50u); o.i[1] = findMSB(0x50u); o.i[2] = findMSB(-1);
    o.i[3] = findLSB(0u);
    o.u[1] = bitfieldExtract(0xABCDu, 4, 8);
    o.i[4] = bitfieldExtract(int(0xF0), 4, 4);        // sign-extends 0xF -> -1
    o.u[2] = bitfieldInsert(0xFFFFu, 0u, 4, 8);
    o.u[3] = bitfieldReverse(1u);
    o.u[4] = packUnorm4x8(vec4(1.0, 0.0, 0.5, 0.25));
    o.u[5] = packHalf2x16(vec2(1.0, -2.0));
    vec4 un = unpackUnorm4x8(0x80FF00FFu); o.f[0] = un.x; o.f[1] = un.w;
    vec2 h = unpackHalf2x16(0xC0003C00u); o.f[2] = h.x; o.f[3] = h.y;
    o.u[6] = packSnorm2x16(vec2(-1.0, 1.0));
  `);
  t.is(r.u[0], 8);
  t.deepEqual(r.i.slice(0, 5), [4, 6, -1, -1, -1]);
  t.is(r.u[1], 0xbc);
  t.is(r.u[2], 0xf00f);
  t.is(r.u[3], 0x80000000);
  t.is(r.u[4], (0x40 << 24) | (0x80 << 16) | 0xff);
  t.is(r.u[5], 0xc0003c00);
  t.deepEqual(r.f.slice(0, 4), [1, Math.fround(128 / 255), 1, -2]);
  t.is(r.u[6], (0x7fff << 16) | 0x8001);
});

both('bool vectors, any/all, select and comparisons with NaN', (t) => {
  const r = runOne(`
    float nan = inp.x[4] / inp.x[5];   // 0/0
    bvec3 b = lessThan(vec3(1.0, 2.0, 3.0), vec3(2.0));
    o.u[0] = uint(any(b)) + 2u * uint(all(b)) + 4u * uint(b.y);
    o.u[1] = uint(isnan(nan)) + 2u * uint(nan == nan) + 4u * uint(nan != nan) + 8u * uint(isinf(1.0 / inp.x[4]));
    vec3 s = mix(vec3(1.0), vec3(2.0), b);   // OpSelect
    o.f[0] = s.x; o.f[1] = s.y;
    o.u[2] = inp.x[0] > 0.0 ? 7u : 9u;
  `);
  t.is(r.u[0], 1);
  t.is(r.u[1], 1 + 4 + 8);
  t.deepEqual([r.f[0], r.f[1]], [2, 1]);
  t.is(r.u[2], 7);
});
