import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Inst } from '../../../src/ir/inst.js';
import type { Module } from '../../../src/ir/module.js';
import { buildCfg } from '../../../src/ir/cfg.js';
import { dominatorTree } from '../../../src/ir/dominators.js';
import { redundantInstructions } from '../../../src/sim/functional/redundant-instructions.js';
import { promotableVariables } from '../../../src/sim/functional/promoted-vars.js';

// The LumiBench sphere intersection's shape: sqrt(d) twice and two divisions by a, in one branch.
const SHADER = `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) buffer Out { float v[]; } o;
void main() {
  const float a = o.v[0];
  const float b = o.v[1];
  const float d = o.v[2];
  float e = o.v[5];
  if (d >= 0) {
    const float t1 = (-b - sqrt(d)) / a;
    const float t2 = (-b + sqrt(d)) / a;
    o.v[3] = t1 + t2;
  }
  e = e * 2.0;
  o.v[4] = sqrt(e) + sqrt(e);
}
`;

function entry(m: Module) {
  return m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
}

function describe(inst: Inst): string {
  if (inst.op === 'binary' || inst.op === 'unary') return `${inst.op} ${inst.kind}`;
  if (inst.op === 'ext') return `ext ${inst.fn}`;
  return inst.op;
}

test('NIR\'s CSE: t2 repeats t1\'s negation and sqrt of once-stored values and shares its reciprocal of a; a variable stored twice is not numbered', (t) => {
  const r = compileGlsl('k.rgen', SHADER);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const fn = entry(r.module);
  const { duplicates, sharedReciprocal } = redundantInstructions(fn, dominatorTree(buildCfg(fn)), promotableVariables(fn));
  t.deepEqual([...duplicates.keys()].map(describe).sort(), ['ext sqrt', 'unary neg']);
  t.deepEqual([...sharedReciprocal].map(describe), ['binary div'], 'the second division by a is the mul alone');
  // e is stored twice: its two loads are different values here (NIR's SSA form would see one), so sqrt(e) + sqrt(e) keeps both.
  t.is([...duplicates.keys()].filter((inst) => inst.op === 'ext').length, 1);
});
