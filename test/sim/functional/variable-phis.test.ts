import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Module } from '../../../src/ir/module.js';
import { buildCfg } from '../../../src/ir/cfg.js';
import { dominatorTree } from '../../../src/ir/dominators.js';
import { promotableVariables } from '../../../src/sim/functional/promoted-vars.js';
import { variablePhis } from '../../../src/sim/functional/variable-phis.js';

function phisOf(src: string): { total: number; variables: number } {
  const r = compileGlsl('k.comp', src);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const m: Module = r.module;
  const fn = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const promoted = promotableVariables(fn);
  const cfg = buildCfg(fn);
  // Every promoted variable here is a scalar, accessed whole.
  const phis = variablePhis(fn, cfg, dominatorTree(cfg), (inst) => {
    if (inst.op !== 'load' && inst.op !== 'store') return undefined;
    return promoted.has(inst.ptr) ? { variable: inst.ptr, size: 1, first: 0, count: 1 } : undefined;
  });
  return { total: [...phis.values()].reduce((a, b) => a + b.count, 0), variables: [...phis.values()].reduce((a, b) => a + b.variables.length, 0) };
}

const HEAD = `#version 460
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { float v[]; uint n; } o;
`;

test('a variable defined on one arm of an if and read after it gets a phi at the merge; one not read after gets none', (t) => {
  const p = phisOf(`${HEAD}
void main() {
  float a = o.v[0];
  float dead = 1.0;
  if (o.v[1] > 0.0) { a = 2.0; dead = 3.0; }
  o.v[2] = a;
}`);
  t.is(p.total, 1);
});

test('a loop gets a header phi per loop-carried variable that is live there', (t) => {
  const p = phisOf(`${HEAD}
void main() {
  float s = 0.0;
  for (uint i = 0; i < o.n; i++) s += o.v[i];
  o.v[0] = s;
}`);
  // s and i at the loop header, nothing at the exit (only the header reaches it).
  t.is(p.total, 2);
  t.is(p.variables, 2, 'each phi names its variable');
});
