// packValue against layouts glslang produces: the offsets, array strides and matrix strides below
// are copied from `spirv-dis` of LAYOUT_SHADER, and the last test re-checks them against the
// installed glslang so the table cannot drift from what a real compiler does.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declareStruct, intern, newTypeTable, T, type TypeId, type TypeTable } from '../../../src/ir/types.js';
import { float16Bits, layoutSize, LayoutPackError, packValue } from '../../../src/sim/workload/pack-layout.js';

const LAYOUT_SHADER = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require
struct Light { vec3 position; float intensity; vec3 color; int type; };
layout(set = 0, binding = 0, std140) uniform Settings {
  mat4 viewInverse; mat3 normalMatrix; vec2 jitter; float exposure; Light lights[2]; float weights[3]; bool enabled; uint64_t address;
} settings;
layout(set = 0, binding = 1, std430) buffer Items { vec3 a; float b; vec2 c[3]; mat3 m; ivec4 d; float e[]; } items;
layout(set = 0, binding = 2, scalar) buffer Tight { vec3 a; float b; vec3 c[2]; mat3 m; uint64_t p; } tight;
layout(push_constant) uniform Push { layout(row_major) mat2x3 r; int frame; } pc;
void main() {
  items.e[0] = settings.exposure + float(settings.lights[1].type) + tight.b + pc.r[0][0] + items.b + settings.weights[1]
    + float(tight.p) + float(settings.address) + items.m[0][0] + tight.m[0][0] + float(items.d.x) + items.c[0].x
    + tight.c[0].x + float(settings.enabled) + settings.normalMatrix[0][0] + settings.jitter.x
    + settings.viewInverse[0][0] + pc.r[1][0] + float(pc.frame) + items.a.x + tight.a.x + settings.lights[0].color.x;
}
`;

/** The decorations spirv-dis prints for LAYOUT_SHADER (glslang 12, --target-env vulkan1.2). */
const EXPECTED_DECORATIONS = [
  'OpMemberDecorate %Settings 1 Offset 64', 'OpMemberDecorate %Settings 2 Offset 112', 'OpMemberDecorate %Settings 3 Offset 120',
  'OpMemberDecorate %Settings 4 Offset 128', 'OpMemberDecorate %Settings 5 Offset 192', 'OpMemberDecorate %Settings 6 Offset 240',
  'OpMemberDecorate %Settings 7 Offset 248', 'OpDecorate %_arr_Light_uint_2 ArrayStride 32', 'OpDecorate %_arr_float_uint_3 ArrayStride 16',
  'OpMemberDecorate %Light 2 Offset 16', 'OpMemberDecorate %Light 3 Offset 28',
  'OpMemberDecorate %Items 1 Offset 12', 'OpMemberDecorate %Items 2 Offset 16', 'OpMemberDecorate %Items 3 Offset 48',
  'OpMemberDecorate %Items 3 MatrixStride 16', 'OpMemberDecorate %Items 4 Offset 96', 'OpMemberDecorate %Items 5 Offset 112',
  'OpDecorate %_arr_v2float_uint_3 ArrayStride 8',
  'OpMemberDecorate %Tight 2 Offset 16', 'OpDecorate %_arr_v3float_uint_2 ArrayStride 12', 'OpMemberDecorate %Tight 3 Offset 40',
  'OpMemberDecorate %Tight 3 MatrixStride 12', 'OpMemberDecorate %Tight 4 Offset 80',
  'OpMemberDecorate %Push 0 RowMajor', 'OpMemberDecorate %Push 0 MatrixStride 8', 'OpMemberDecorate %Push 1 Offset 24',
];

interface Blocks {
  tt: TypeTable;
  settings: TypeId;
  items: TypeId;
  tight: TypeId;
  push: TypeId;
}

function buildBlocks(): Blocks {
  const tt = newTypeTable();
  const f32 = T.f32(tt);
  const i32 = T.i32(tt);
  const u32 = T.u32(tt);
  const u64 = T.u64(tt);
  const bool = T.bool(tt);
  const vec2 = T.vec(tt, f32, 2);
  const vec3 = T.vec(tt, f32, 3);
  const vec4 = T.vec(tt, f32, 4);
  const ivec4 = T.vec(tt, i32, 4);
  const mat4 = intern(tt, { kind: 'matrix', column: vec4, columns: 4 });
  const mat3 = intern(tt, { kind: 'matrix', column: vec3, columns: 3 });
  const mat2x3 = intern(tt, { kind: 'matrix', column: vec3, columns: 2 });
  void u32;
  const light = declareStruct(tt, 'Light', [
    { name: 'position', type: vec3, offset: 0 }, { name: 'intensity', type: f32, offset: 12 },
    { name: 'color', type: vec3, offset: 16 }, { name: 'type', type: i32, offset: 28 },
  ], { layout: 'std140' });
  const settings = declareStruct(tt, 'Settings', [
    { name: 'viewInverse', type: mat4, offset: 0, matrixStride: 16 },
    { name: 'normalMatrix', type: mat3, offset: 64, matrixStride: 16 },
    { name: 'jitter', type: vec2, offset: 112 },
    { name: 'exposure', type: f32, offset: 120 },
    { name: 'lights', type: intern(tt, { kind: 'array', elem: light, length: 2, stride: 32 }), offset: 128 },
    { name: 'weights', type: intern(tt, { kind: 'array', elem: f32, length: 3, stride: 16 }), offset: 192 },
    { name: 'enabled', type: bool, offset: 240 },
    { name: 'address', type: u64, offset: 248 },
  ], { layout: 'std140', block: true });
  const items = declareStruct(tt, 'Items', [
    { name: 'a', type: vec3, offset: 0 }, { name: 'b', type: f32, offset: 12 },
    { name: 'c', type: intern(tt, { kind: 'array', elem: vec2, length: 3, stride: 8 }), offset: 16 },
    { name: 'm', type: mat3, offset: 48, matrixStride: 16 },
    { name: 'd', type: ivec4, offset: 96 },
    { name: 'e', type: intern(tt, { kind: 'runtimeArray', elem: f32, stride: 4 }), offset: 112 },
  ], { layout: 'std430', block: true });
  const tight = declareStruct(tt, 'Tight', [
    { name: 'a', type: vec3, offset: 0 }, { name: 'b', type: f32, offset: 12 },
    { name: 'c', type: intern(tt, { kind: 'array', elem: vec3, length: 2, stride: 12 }), offset: 16 },
    { name: 'm', type: mat3, offset: 40, matrixStride: 12 },
    { name: 'p', type: u64, offset: 80 },
  ], { layout: 'scalar', block: true });
  const push = declareStruct(tt, 'Push', [
    { name: 'r', type: mat2x3, offset: 0, matrixStride: 8, rowMajor: true },
    { name: 'frame', type: i32, offset: 24 },
  ], { layout: 'std430', block: true });
  return { tt, settings, items, tight, push };
}

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

test('std140 block: matrices, arrays of structs and padded float arrays land at glslang offsets', (t) => {
  const { tt, settings } = buildBlocks();
  const view = new DataView(new ArrayBuffer(256));
  packValue(view, 0, settings, tt, {
    viewInverse: [range(4, 1), range(4, 5), range(4, 9), range(4, 13)],
    normalMatrix: range(9, 100),
    jitter: [0.25, 0.75],
    exposure: 2.5,
    lights: [
      { position: [1, 2, 3], intensity: 4, color: [5, 6, 7], type: 8 },
      { position: [9, 10, 11], intensity: 12, color: [13, 14, 15], type: -3 },
    ],
    weights: [0.5, 1.5, 2.5],
    enabled: true,
    address: '0x123456789abcdef0',
  }, 'settings');
  t.is(view.getFloat32(0, true), 1);
  t.is(view.getFloat32(60, true), 16); // column 3, row 3
  t.is(view.getFloat32(64 + 16 * 2 + 8, true), 108); // normalMatrix column 2 row 2: 16-byte column stride
  t.is(view.getFloat32(112 + 4, true), 0.75);
  t.is(view.getFloat32(120, true), 2.5);
  t.is(view.getFloat32(128 + 32 + 16 + 8, true), 15); // lights[1].color.z
  t.is(view.getInt32(128 + 32 + 28, true), -3);
  t.is(view.getFloat32(192 + 16 * 2, true), 2.5); // weights[2] at a 16-byte stride
  t.is(view.getUint32(240, true), 1);
  t.is(view.getBigUint64(248, true), 0x123456789abcdef0n);
  t.is(view.getUint32(196, true), 0, 'std140 padding after weights[0] is untouched');
});

test('std430 block with a runtime array, and layoutSize counts its elements', (t) => {
  const { tt, items } = buildBlocks();
  t.is(layoutSize(tt, items, 5), 112 + 5 * 4);
  const view = new DataView(new ArrayBuffer(layoutSize(tt, items, 5)));
  packValue(view, 0, items, tt, {
    a: [1, 2, 3], b: 4, c: [[5, 6], [7, 8], [9, 10]], m: [[1, 0, 0], [0, 2, 0], [0, 0, 3]], d: [-1, -2, -3, -4], e: [0, 1, 2, 3, 4],
  }, 'items');
  t.is(view.getFloat32(12, true), 4);
  t.is(view.getFloat32(16 + 8 * 2 + 4, true), 10);
  t.is(view.getFloat32(48 + 16 + 4, true), 2);
  t.is(view.getFloat32(48 + 32 + 8, true), 3);
  t.is(view.getInt32(96 + 12, true), -4);
  t.is(view.getFloat32(112 + 16, true), 4);
});

test('scalar block: vec3 arrays at stride 12, mat3 at matrix stride 12, uint64 at 80', (t) => {
  const { tt, tight } = buildBlocks();
  const view = new DataView(new ArrayBuffer(88));
  packValue(view, 0, tight, tt, { a: [1, 2, 3], b: 4, c: [[5, 6, 7], [8, 9, 10]], m: range(9, 20), p: 2n ** 40n }, 'tight');
  t.is(view.getFloat32(16 + 12 + 8, true), 10);
  t.is(view.getFloat32(40 + 12 * 2 + 8, true), 28);
  t.is(view.getBigUint64(80, true), 2n ** 40n);
});

test('row_major matrix in a push constant block: element (column c, row r) at r * matrixStride + c * 4', (t) => {
  const { tt, push } = buildBlocks();
  const view = new DataView(new ArrayBuffer(28));
  packValue(view, 0, push, tt, { r: [[1, 2, 3], [4, 5, 6]], frame: 7 }, 'pushConstants');
  t.deepEqual(range(6).map((i) => view.getFloat32(i * 4, true)), [1, 4, 2, 5, 3, 6]);
  t.is(view.getInt32(24, true), 7);
});

test('mismatches name the JSON path and what the layout expected', (t) => {
  const { tt, settings, items } = buildBlocks();
  const view = new DataView(new ArrayBuffer(256));
  const good = {
    viewInverse: range(16), normalMatrix: range(9), jitter: [0, 0], exposure: 1,
    lights: [{ position: [0, 0, 0], intensity: 1, color: [1, 1, 1], type: 0 }, { position: [0, 0, 0], intensity: 1, color: [1, 1, 1], type: 0 }],
    weights: [0, 0, 0], enabled: false, address: 0,
  };
  const cases: [unknown, RegExp][] = [
    [{ ...good, jitter: [0] }, /^camera\.jitter: expected an array of 2 for vec2<f32>, found an array of 1$/],
    [{ ...good, lights: [good.lights[0]] }, /^camera\.lights: expected 2 elements/],
    [{ ...good, lights: [good.lights[0], { ...good.lights[1], type: 1.5 }] }, /^camera\.lights\[1\]\.type: expected an integer for i32, found 1\.5$/],
    [{ ...good, exposure: 'bright' }, /^camera\.exposure: expected a number for f32, found "bright"$/],
    [{ ...good, enabled: 'yes' }, /^camera\.enabled: expected true or false/],
    [{ ...good, extra: 1 }, /^camera\.extra: struct Settings has no member "extra"/],
    [{ ...good, address: -1 }, /^camera\.address: -1 does not fit in u64$/],
    [{ ...good, viewInverse: range(15) }, /^camera\.viewInverse: expected 4 columns of 4 numbers/],
  ];
  for (const [value, message] of cases) {
    const err = t.throws(() => packValue(view, 0, settings, tt, value, 'camera'), { instanceOf: LayoutPackError });
    t.regex(err!.message, message);
  }
  const { exposure: _, ...missing } = good;
  t.throws(() => packValue(view, 0, settings, tt, missing, 'camera'), { message: /^camera\.exposure: missing \(struct Settings member of type f32\)$/ });
  t.notThrows(() => packValue(view, 0, settings, tt, missing, 'camera', { missingMembers: 'zero' }));
  const small = new DataView(new ArrayBuffer(116));
  t.throws(() => packValue(small, 0, items, tt, { a: [0, 0, 0], b: 0, c: [[0, 0], [0, 0], [0, 0]], m: range(9), d: [0, 0, 0, 0], e: [1, 2] }, 'buf'),
    { message: /^buf\.e\[1\]: bytes 116\.\.120 lie outside the 116-byte buffer$/ });
});

test('float16 conversion rounds to nearest even and handles the edges', (t) => {
  t.is(float16Bits(1), 0x3c00);
  t.is(float16Bits(-2), 0xc000);
  t.is(float16Bits(65504), 0x7bff);
  t.is(float16Bits(1e6), 0x7c00);
  t.is(float16Bits(2 ** -24), 0x0001);
  t.is(float16Bits(1 + 2 ** -11), 0x3c00); // halfway, rounds to even
  t.is(float16Bits(Number.NaN) & 0x7c00, 0x7c00);
});

const hasGlslang = spawnSync('glslangValidator', ['--version']).status === 0 && spawnSync('spirv-dis', ['--version']).status === 0;

(hasGlslang ? test : test.skip)('the offsets above are what glslang produces (skipped without glslang-tools and spirv-tools)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-layout-'));
  writeFileSync(join(dir, 'layout.rgen'), LAYOUT_SHADER);
  execFileSync('glslangValidator', ['--target-env', 'vulkan1.2', '-V', join(dir, 'layout.rgen'), '-o', join(dir, 'layout.spv')]);
  const dis = execFileSync('spirv-dis', [join(dir, 'layout.spv')], { encoding: 'utf8' });
  const lines = new Set(dis.split('\n').map((l) => l.trim()));
  for (const d of EXPECTED_DECORATIONS) t.true(lines.has(d), d);
});

test('floats as raw bits ("0x3f800000", exactly width/4 digits) or C99 hex-float literals ("0x1.8p+1")', (t) => {
  const types = newTypeTable();
  const f32 = intern(types, { kind: 'float', width: 32 });
  const f64 = intern(types, { kind: 'float', width: 64 });
  const view = new DataView(new ArrayBuffer(8));
  packValue(view, 0, f32, types, '0x3f800000', 'x');
  t.is(view.getFloat32(0, true), 1);
  packValue(view, 0, f32, types, '0x7fc00001', 'x');
  t.is(view.getUint32(0, true), 0x7fc00001, 'a NaN payload survives as bits');
  packValue(view, 0, f32, types, '0x1.8p+1', 'x');
  t.is(view.getFloat32(0, true), 3);
  packValue(view, 0, f32, types, '-0x1p-3', 'x');
  t.is(view.getFloat32(0, true), -0.125);
  packValue(view, 0, f64, types, '0x3ff0000000000000', 'x');
  t.is(view.getFloat64(0, true), 1);
  const e = t.throws(() => packValue(view, 0, f32, types, '0x3f80', 'v.x'), { instanceOf: LayoutPackError });
  t.regex(e!.message, /v\.x: expected a number for f32, found "0x3f80" \(a string may be the raw bits, "0x3f800000" with exactly 8 hex digits/);
});
