/**
 * Layout rules of src/frontend/glsl/sema/layout.ts on hand-built types. Expected numbers are the
 * ones glslang emits for the same declarations (checked with glslangValidator -V + spirv-dis).
 */
import test from 'ava';
import { newTypeTable, declareStruct, type TypeId } from '../../../src/ir/types.js';
import { GlslTypes } from '../../../src/frontend/glsl/sema/glsl-types.js';
import { alignAndSize, arrayStride, declaredType, layoutBlock, layoutType, newLayoutCache } from '../../../src/frontend/glsl/sema/layout.js';

function setup() {
  const types = new GlslTypes(newTypeTable());
  const cache = newLayoutCache();
  const n = (s: string) => types.resolveName(s)!;
  return { types, cache, n };
}

function offsets(types: GlslTypes, id: TypeId): number[] {
  const t = types.get(id);
  if (t.kind !== 'struct') throw new Error('not a struct');
  return t.members.map((m) => m.offset!);
}

test('scalar, vector and matrix alignment per rule', (t) => {
  const { types, n } = setup();
  t.deepEqual(alignAndSize(types, n('float'), 'std140'), { align: 4, size: 4 });
  t.deepEqual(alignAndSize(types, n('vec3'), 'std430'), { align: 16, size: 12 });
  t.deepEqual(alignAndSize(types, n('vec3'), 'scalar'), { align: 4, size: 12 });
  t.deepEqual(alignAndSize(types, n('vec2'), 'std140'), { align: 8, size: 8 });
  t.deepEqual(alignAndSize(types, n('dvec3'), 'std430'), { align: 32, size: 24 });
  t.deepEqual(alignAndSize(types, n('mat3'), 'std430'), { align: 16, size: 48 });
  t.deepEqual(alignAndSize(types, n('mat2'), 'std430'), { align: 8, size: 16 });
  t.deepEqual(alignAndSize(types, n('mat2'), 'std140'), { align: 16, size: 32 });
  t.deepEqual(alignAndSize(types, n('mat3'), 'scalar'), { align: 4, size: 36 });
  t.deepEqual(alignAndSize(types, n('uint64_t'), 'std430'), { align: 8, size: 8 });
});

test('array strides: std140 rounds to 16, std430 to the element alignment, scalar packs', (t) => {
  const { types, n } = setup();
  t.is(arrayStride(types, n('float'), 'std140'), 16);
  t.is(arrayStride(types, n('float'), 'std430'), 4);
  t.is(arrayStride(types, n('vec3'), 'std430'), 16);
  t.is(arrayStride(types, n('vec3'), 'scalar'), 12);
  t.is(arrayStride(types, n('ivec2'), 'std140'), 16);
});

test('std140 block: vec3 followed by float packs, arrays and structs round to 16', (t) => {
  const { types, cache, n } = setup();
  const s = declareStruct(types.tt, 'S', [
    { name: 'a', type: n('vec3') }, { name: 'b', type: n('float') }, { name: 'd', type: n('double') }, { name: 'c', type: n('float') },
  ]);
  const block = layoutBlock(types, cache, 'U', [
    { name: 's', type: s }, { name: 'f', type: n('float') }, { name: 'm2', type: n('mat2') }, { name: 'v3', type: n('vec3') },
    { name: 'ia', type: types.arrayOf(n('int'), 3) },
  ], 'std140');
  t.deepEqual(offsets(types, block), [0, 32, 48, 80, 96]);
  const bt = types.get(block);
  if (bt.kind !== 'struct') return t.fail();
  t.is(bt.members[2]!.matrixStride, 16);
  const ia = types.get(bt.members[4]!.type);
  t.is(ia.kind === 'array' ? ia.stride : undefined, 16);
  t.deepEqual(offsets(types, bt.members[0]!.type), [0, 12, 16, 24]);
  t.true(bt.block);
  t.is(bt.layout, 'std140');
});

test('scalar block: struct not padded to its alignment, last array element not padded', (t) => {
  const { types, cache, n } = setup();
  const s = declareStruct(types.tt, 'S', [
    { name: 'a', type: n('vec3') }, { name: 'b', type: n('float') }, { name: 'd', type: n('double') }, { name: 'c', type: n('float') },
  ]);
  const block = layoutBlock(types, cache, 'B', [
    { name: 's', type: types.arrayOf(s, 2) }, { name: 'v', type: types.arrayOf(n('vec3'), 2) }, { name: 'm', type: n('mat3') }, { name: 'x', type: n('float') },
  ], 'scalar');
  t.deepEqual(offsets(types, block), [0, 60, 84, 120]);
  const bt = types.get(block);
  if (bt.kind !== 'struct') return t.fail();
  const sa = types.get(bt.members[0]!.type);
  t.is(sa.kind === 'array' ? sa.stride : undefined, 32);
  t.is(bt.members[2]!.matrixStride, 12);
});

test('explicit offsets and row_major matrices', (t) => {
  const { types, cache, n } = setup();
  const block = layoutBlock(types, cache, 'E', [
    { name: 'a', type: n('vec4'), offset: 32 }, { name: 'b', type: n('float'), offset: 64 }, { name: 'r', type: n('mat3'), rowMajor: true },
    { name: 'c', type: n('mat2x3') },
  ], 'std140');
  t.deepEqual(offsets(types, block), [32, 64, 80, 128]);
  const bt = types.get(block);
  if (bt.kind !== 'struct') return t.fail();
  t.true(bt.members[2]!.rowMajor);
  t.is(bt.members[3]!.matrixStride, 16);
});

test('laid-out copies are cached per rule and map back to the declared type', (t) => {
  const { types, cache, n } = setup();
  const s = declareStruct(types.tt, 'S', [{ name: 'a', type: n('vec3') }, { name: 'b', type: n('float') }]);
  const arr = types.arrayOf(s, 4);
  const a430 = layoutType(types, cache, arr, 'std430');
  const a140 = layoutType(types, cache, arr, 'std140');
  t.is(layoutType(types, cache, arr, 'std430'), a430);
  t.not(a430, a140);
  t.is(declaredType(types, cache, a430), arr);
  t.is(declaredType(types, cache, a140), arr);
  t.is(types.get(s).kind === 'struct' && (types.get(s) as { members: { offset?: number }[] }).members[0]!.offset, undefined, 'declared struct untouched');
});
