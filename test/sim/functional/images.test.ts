import test from 'ava';
import { runGlsl, words, f32s, u32s } from './run-ir.js';
import { createImage, readTexel, sampleImage, writeTexel, floatToHalf, halfToFloat } from '../../../src/sim/functional/images.js';

test('bilinear filtering blends the four nearest texels; repeat and clamp wrap', (t) => {
  const img = createImage('r32f', 2, 2);
  writeTexel(img, 0, 0, 0, 0, [0]);
  writeTexel(img, 1, 0, 0, 0, [1]);
  writeTexel(img, 0, 1, 0, 0, [2]);
  writeTexel(img, 1, 1, 0, 0, [3]);
  const out = new Float64Array(4);
  const lin = { filter: 'linear', wrapU: 'clampToEdge', wrapV: 'clampToEdge', wrapW: 'clampToEdge' } as const;
  sampleImage(img, lin, 0.5, 0.5, 0, 0, 0, 2, out); // centre: average of all four
  t.is(out[0], 1.5);
  sampleImage(img, lin, 0.25, 0.25, 0, 0, 0, 2, out); // texel (0,0) centre
  t.is(out[0], 0);
  sampleImage(img, lin, 0.5, 0.25, 0, 0, 0, 2, out); // halfway between (0,0) and (1,0)
  t.is(out[0], 0.5);
  sampleImage(img, lin, 0, 0.25, 0, 0, 0, 2, out); // left edge, clamped: texel 0 only
  t.is(out[0], 0);
  sampleImage(img, { ...lin, wrapU: 'repeat' }, 0, 0.25, 0, 0, 0, 2, out); // repeat: between texel 1 (wrapped) and 0
  t.is(out[0], 0.5);
  sampleImage(img, { ...lin, filter: 'nearest' }, 0.74, 0.76, 0, 0, 0, 2, out);
  t.is(out[0], 3);
  t.is(out[3], 1, 'missing alpha reads as 1');
});

test('rgba8 / rgba16f / r32ui texel conversions', (t) => {
  const a = createImage('rgba8', 1, 1);
  writeTexel(a, 0, 0, 0, 0, [1, 0.5, -1, 2]);
  const o = new Float64Array(4);
  readTexel(a, 0, 0, 0, 0, 0, o);
  t.deepEqual(Array.from(o), [1, Math.fround(128 / 255), 0, 1]);
  const h = createImage('rgba16f', 1, 1);
  writeTexel(h, 0, 0, 0, 0, [0.1, 65504, -2, 1e-8]);
  readTexel(h, 0, 0, 0, 0, 0, o);
  t.is(o[0], halfToFloat(floatToHalf(0.1)));
  t.is(o[1], 65504);
  t.is(o[2], -2);
  t.is(o[3], 0);
  t.is(floatToHalf(1), 0x3c00);
  const u = createImage('r32ui', 1, 1);
  writeTexel(u, 0, 0, 0, 0, [4000000000]);
  readTexel(u, 0, 0, 0, 0, 0, o);
  t.deepEqual(Array.from(o), [4000000000, 0, 0, 1]);
});

const SHADER = `#version 460
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba32f) uniform image2D dst;
layout(set = 0, binding = 1, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(std430, set = 0, binding = 3) buffer Out { float v[]; } o;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 sz = imageSize(dst);
  vec4 s = textureLod(tex, (vec2(p) + 0.5) / vec2(sz), 0.0);
  imageStore(dst, p, vec4(s.rgb, float(p.x + p.y * 10)));
  uint c = imageLoad(counts, p).x;
  imageStore(counts, p, uvec4(c + 1u));
  int i = p.x + p.y * 4;
  o.v[i] = texelFetch(tex, ivec2(0, 1), 0).r;
  o.v[8 + i] = float(textureSize(tex, 0).x);
  o.v[16 + i] = texture(tex, vec2(0.5, 0.5)).g;
}`;

for (const engine of ['warp', 'laneSerial'] as const) test(`imageLoad/imageStore/imageSize, textureLod with bilinear filtering, texelFetch, textureSize (${engine})`, (t) => {
  const dst = createImage('rgba32f', 4, 2);
  const counts = createImage('r32ui', 4, 2);
  (counts.levels[0]!.data as Uint32Array).fill(41);
  const tex = createImage('rgba8', 2, 2, { sampler: { filter: 'linear', wrapU: 'clampToEdge', wrapV: 'clampToEdge', wrapW: 'clampToEdge' } });
  writeTexel(tex, 0, 0, 0, 0, [0, 0, 0, 1]);
  writeTexel(tex, 1, 0, 0, 0, [1, 1, 0, 1]);
  writeTexel(tex, 0, 1, 0, 0, [0, 1, 0, 1]);
  writeTexel(tex, 1, 1, 0, 0, [1, 0, 0, 1]);
  const out = words(24);
  runGlsl(SHADER, {
    images: [
      { set: 0, binding: 0, image: dst },
      { set: 0, binding: 1, image: counts },
      { set: 0, binding: 2, image: tex },
    ],
    buffers: [{ set: 0, binding: 3, data: out }],
  }, { size: [1, 1, 1], engine });
  const d = dst.levels[0]!.data as Float32Array;
  // pixel (0,0): uv = (1/8, 1/4) -> texel coords (-0.25, 0) clamped: red = 0; pixel (3,1): uv (7/8, 3/4) -> (1.25, 1): red 1
  t.is(d[0], 0);
  t.is(d[3], 0);
  t.is(d[(1 * 4 + 3) * 4], 1);
  t.is(d[(1 * 4 + 3) * 4 + 3], 13);
  // pixel (1,0): uv.x = 3/8 -> x = 0.25: red = 0.25 * 1 (row 0 only at v = 1/4 -> y = 0)
  t.is(d[(0 * 4 + 1) * 4], 0.25);
  t.deepEqual(Array.from(counts.levels[0]!.data), new Array(8).fill(42));
  const v = f32s(out);
  t.deepEqual(v.slice(0, 8), new Array(8).fill(0));
  t.deepEqual(v.slice(8, 16), new Array(8).fill(2));
  // texture() in a compute shader here samples LOD 0: the centre averages green (1+1+0+0)/4
  t.deepEqual(v.slice(16, 24), new Array(8).fill(0.5));
  void u32s;
});

test('imageStore outside the image is a located error', (t) => {
  const dst = createImage('rgba32f', 2, 2);
  const counts = createImage('r32ui', 2, 2);
  const tex = createImage('rgba8', 2, 2);
  const err = t.throws(() => runGlsl(SHADER, {
    images: [
      { set: 0, binding: 0, image: dst },
      { set: 0, binding: 1, image: counts },
      { set: 0, binding: 2, image: tex },
    ],
    buffers: [{ set: 0, binding: 3, data: words(24) }],
  }, { size: [1, 1, 1] }, 'img.comp'));
  t.regex(err!.message, /image (read|write) at \(2, 0, 0, layer 0.*outside a 2x2x1 image at img\.comp:\d+:\d+ lane 2 \(thread 2\)/);
});

import { createWarps } from '../../../src/sim/functional/launch.js';
import { compileGlslProgram, entryOf } from './run-ir.js';

test('image accesses are texture memory accesses with texel addresses in WarpStep.memory', (t) => {
  const program = compileGlslProgram(SHADER);
  const dst = createImage('rgba32f', 4, 2, { address: 0x100000 });
  const counts = createImage('r32ui', 4, 2, { address: 0x200000 });
  const tex = createImage('rgba8', 2, 2, { address: 0x300000 });
  const warps = createWarps(program, {
    images: [
      { set: 0, binding: 0, image: dst },
      { set: 0, binding: 1, image: counts },
      { set: 0, binding: 2, image: tex },
    ],
    buffers: [{ set: 0, binding: 3, data: words(24) }],
  }, { entry: entryOf(program), size: [1, 1, 1] });
  const accesses = [];
  while (!warps[0]!.done) accesses.push(...warps[0]!.step().memory);
  const stores = accesses.filter((m) => m.space === 'texture' && m.kind === 'store');
  t.is(stores.length, 2);
  // lane 5 = pixel (1, 1): rgba32f texel 5 of dst, r32ui texel 5 of counts
  t.is(stores[0]!.addresses[5], 0x100000 + 5 * 16);
  t.is(stores[1]!.addresses[5], 0x200000 + 5 * 4);
  t.true(accesses.filter((m) => m.space === 'texture' && m.kind === 'load').length >= 4);
});

for (const engine of ['warp', 'laneSerial'] as const) {
  test(`cube maps: face selection by major axis, textureSize (${engine})`, (t) => {
    const src = `#version 460
layout(local_size_x = 6) in;
layout(set = 0, binding = 0) uniform samplerCube env;
layout(std430, set = 0, binding = 1) buffer Out { float v[]; } o;
const vec3 dirs[6] = vec3[](vec3(2, 0.1, 0), vec3(-2, 0, 0.3), vec3(0.2, 1, 0), vec3(0, -1, 0), vec3(0, 0, 5), vec3(0.1, 0.2, -1));
void main() {
  uint l = gl_GlobalInvocationID.x;
  o.v[l] = texture(env, dirs[l]).r;
  o.v[6u + l] = float(textureSize(env, 0).x);
}`;
    const cube = createImage('r32f', 2, 2, { layers: 6 });
    for (let f = 0; f < 6; f++) for (let y = 0; y < 2; y++) for (let x = 0; x < 2; x++) writeTexel(cube, x, y, 0, f, [f * 10]);
    const out = words(12);
    runGlsl(src, { images: [{ set: 0, binding: 0, image: cube }], buffers: [{ set: 0, binding: 1, data: out }] }, { size: [1, 1, 1], engine });
    t.deepEqual(f32s(out), [0, 10, 20, 30, 40, 50, 2, 2, 2, 2, 2, 2]);
  });
}

test('textureGather, textureGrad (LOD from gradients) and texel offsets', (t) => {
  const src = `#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(std430, set = 0, binding = 1) buffer Out { float v[]; } o;
void main() {
  vec4 g = textureGather(tex, vec2(0.5), 0);
  o.v[0] = g.x; o.v[1] = g.y; o.v[2] = g.z; o.v[3] = g.w;
  o.v[4] = textureGrad(tex, vec2(0.5), vec2(0.5, 0.0), vec2(0.0, 0.5)).r;   // 2 texels -> LOD 1
  o.v[5] = textureLodOffset(tex, vec2(0.125, 0.125), 0.0, ivec2(1, 0)).r;  // texel (0,0) + 1 in x
}`;
  const tex = createImage('r32f', 4, 4, { levels: 2, sampler: { filter: 'nearest', wrapU: 'clampToEdge', wrapV: 'clampToEdge', wrapW: 'clampToEdge' } });
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) writeTexel(tex, x, y, 0, 0, [y * 4 + x]);
  (tex.levels[1]!.data as Float32Array).fill(100);
  const out = words(8);
  runGlsl(src, { images: [{ set: 0, binding: 0, image: tex }], buffers: [{ set: 0, binding: 1, data: out }] }, { size: [1, 1, 1] });
  // centre of a 4x4 texture: taps (1,2) (2,2) (2,1) (1,1) in gather order
  t.deepEqual(f32s(out).slice(0, 6), [9, 10, 6, 5, 100, 1]);
});

import { nearestMipLevel, withMipChain } from '../../../src/sim/functional/images.js';

test('nearest mip selection follows VK_SAMPLER_MIPMAP_MODE_NEAREST: d = ceil(lod + 0.5) - 1, clamped', (t) => {
  t.deepEqual([0, 0.25, 0.5, 0.51, 1, 1.5, 1.6, 2.49, 9].map((l) => nearestMipLevel(l, 4)), [0, 0, 0, 1, 1, 1, 2, 2, 3]);
  t.is(nearestMipLevel(-3, 4), 0);
  t.is(nearestMipLevel(Number.NaN, 4), 0);
  t.is(nearestMipLevel(Number.POSITIVE_INFINITY, 4), 3);
  t.is(nearestMipLevel(5, 1), 0);
});

test('withMipChain: levels down to 1x1, each the rounded 2x2 box average; sampling picks them by LOD', (t) => {
  const img = createImage('rgba8', 4, 2, { sampler: { filter: 'nearest', wrapU: 'repeat', wrapV: 'repeat', wrapW: 'repeat' } });
  const px = [[0, 10, 20, 30], [1, 11, 21, 31]];
  for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) img.levels[0]!.data.set([px[y]![x]!, 255, 0, 255], (y * 4 + x) * 4);
  const m = withMipChain(img);
  t.deepEqual(m.levels.map((l) => [l.width, l.height]), [[4, 2], [2, 1], [1, 1]]);
  t.deepEqual([...m.levels[1]!.data], [6, 255, 0, 255, 26, 255, 0, 255]); // (0+10+1+11)/4 = 5.5 -> 6, (20+30+21+31)/4 = 25.5 -> 26
  t.deepEqual([...m.levels[2]!.data], [16, 255, 0, 255]); // (6+26)/2, a side of 1 averages one
  t.is(m.levels[0], img.levels[0]); // level 0 as loaded
  const out = new Float64Array(4);
  sampleImage(m, m.sampler!, 0.1, 0.1, 0, 0, 1.4, 2, out);
  t.is(Math.round(out[0]! * 255), 6);
  sampleImage(m, m.sampler!, 0.1, 0.1, 0, 0, 1.6, 2, out);
  t.is(Math.round(out[0]! * 255), 16);
});
