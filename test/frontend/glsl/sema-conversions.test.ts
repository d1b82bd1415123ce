/**
 * Implicit conversions and overload resolution (GLSL 4.60 sections 4.1.10 and 6.1), and the type
 * name view (resolving names, spelling types for diagnostics).
 */
import test from 'ava';
import { newTypeTable } from '../../../src/ir/types.js';
import { GlslTypes } from '../../../src/frontend/glsl/sema/glsl-types.js';
import { commonScalar, conversionRank, resolveOverload } from '../../../src/frontend/glsl/sema/conversions.js';

const types = new GlslTypes(newTypeTable());
const n = (s: string) => {
  const id = types.resolveName(s);
  if (id === undefined) throw new Error(s);
  return id;
};

test('type names resolve and spell back', (t) => {
  for (const name of ['float', 'vec3', 'ivec2', 'uvec4', 'bvec3', 'dvec2', 'mat4', 'mat4x3', 'mat2x3', 'dmat3', 'uint64_t', 'int64_t', 'i64vec2', 'u64vec3', 'accelerationStructureEXT', 'sampler2D', 'texture2D', 'image2D', 'uimage2D', 'sampler2DArray', 'samplerCube']) {
    t.is(types.name(n(name)), name, name);
  }
  t.is(n('float32_t'), n('float'));
  t.is(n('f32vec3'), n('vec3'));
  t.is(types.resolveName('vec5'), undefined);
  t.is(types.resolveName('Material'), undefined);
  t.deepEqual(types.matrixShape(n('mat4x3')), { columns: 4, rows: 3 });
});

test('implicit conversions follow GLSL 4.60', (t) => {
  t.is(conversionRank(types, n('int'), n('int')), 0);
  t.truthy(conversionRank(types, n('int'), n('uint')));
  t.truthy(conversionRank(types, n('int'), n('float')));
  t.truthy(conversionRank(types, n('uint'), n('double')));
  t.truthy(conversionRank(types, n('ivec3'), n('vec3')));
  t.truthy(conversionRank(types, n('uint'), n('uint64_t')));
  t.truthy(conversionRank(types, n('mat3'), n('dmat3')));
  t.is(conversionRank(types, n('float'), n('int')), undefined);
  t.is(conversionRank(types, n('uint'), n('int')), undefined);
  t.is(conversionRank(types, n('bool'), n('int')), undefined);
  t.is(conversionRank(types, n('ivec3'), n('vec2')), undefined);
  t.is(conversionRank(types, n('float'), n('vec3')), undefined);
  t.is(conversionRank(types, n('uint64_t'), n('float')), undefined);
  t.true(conversionRank(types, n('float'), n('double'))! < conversionRank(types, n('int'), n('double'))!);
  t.true(conversionRank(types, n('int'), n('float'))! < conversionRank(types, n('int'), n('double'))!);
});

test('common scalar type of binary operands', (t) => {
  t.is(commonScalar(types, n('int'), n('float')), n('float'));
  t.is(commonScalar(types, n('vec3'), n('int')), n('float'));
  t.is(commonScalar(types, n('uint'), n('int')), n('uint'));
  t.is(commonScalar(types, n('float'), n('double')), n('double'));
  t.is(commonScalar(types, n('bool'), n('int')), undefined);
});

test('overload resolution: exact match wins, then the best conversions, ambiguity reported', (t) => {
  const cands = [
    { params: [n('float')], item: 'f' },
    { params: [n('double')], item: 'd' },
    { params: [n('int')], item: 'i' },
  ];
  t.like(resolveOverload(types, [n('int')], cands), { kind: 'ok', item: 'i' });
  t.like(resolveOverload(types, [n('uint')], cands), { kind: 'ok', item: 'f' }, 'uint -> float beats uint -> double');
  t.like(resolveOverload(types, [n('bool')], cands), { kind: 'none' });
  const amb = [
    { params: [n('float'), n('double')], item: 'fd' },
    { params: [n('double'), n('float')], item: 'df' },
  ];
  t.is(resolveOverload(types, [n('int'), n('int')], amb).kind, 'ambiguous');
  const outs = [{ params: [n('float')], outParams: [true], item: 'out' }];
  t.like(resolveOverload(types, [n('int')], outs), { kind: 'none' }, 'out parameters need the exact type');
  t.like(resolveOverload(types, [n('float')], outs), { kind: 'ok', item: 'out' });
});
