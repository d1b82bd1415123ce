import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Inst } from '../../../src/ir/inst.js';
import type { Module } from '../../../src/ir/module.js';
import { buildCfg } from '../../../src/ir/cfg.js';
import { dominatorTree } from '../../../src/ir/dominators.js';
import { ConstantLoads } from '../../../src/sim/functional/constant-loads.js';

const SHADER = `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) buffer Out { float v[]; } o;
float scale(float x) { return x * 3.0 + 7.0; }
void main() {
  float a = o.v[0] * 3.0;
  if (a > 1.0) { a = a * 5.0; } else { a = a * 5.0 + 1.0; }
  o.v[1] = a + 3.0;
  o.v[2] = scale(a);
}
`;

function compile(): Module {
  const r = compileGlsl('k.rgen', SHADER);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.module;
}

/** The constants' values an instruction is charged, by opcode. */
function charges(m: Module): { op: string; values: unknown[] }[] {
  const constants = new Map(m.constants.map((c) => [c.id as number, c.value]));
  const loads = new ConstantLoads(m, (v) => (constants.has(v as number) ? 1 : 0), (inst) => inst.op !== 'accessChain');
  const entry = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const helper = m.functions.find((f) => f.id !== entry.id)!;
  const out: { op: string; values: unknown[] }[] = [];
  const map = loads.of(entry, dominatorTree(buildCfg(entry)));
  for (const b of entry.blocks) for (const inst of b.insts) if (map.has(inst)) out.push({ op: describe(inst), values: [map.get(inst)] });
  if (loads.of(helper, dominatorTree(buildCfg(helper))).size !== 0) throw new Error('a callee (inlined by NIR) is charged');
  return out;
}

function describe(inst: Inst): string {
  return inst.op === 'binary' ? `binary ${inst.kind}` : inst.op;
}

test('a constant is loaded at its first use on each dominator-tree path, and a call loads its callee\'s constants', (t) => {
  const c = charges(compile());
  // 3.0 at the first mul; 1.0 at the compare; 5.0 once in each arm (neither arm dominates the
  // other); 1.0 is loaded already in the else arm; 3.0 again nowhere; the call loads only 7.0.
  t.deepEqual(c.map((x) => x.op), ['binary mul', 'compare', 'binary mul', 'binary mul', 'call']);
  t.deepEqual(c.map((x) => x.values[0]), [1, 1, 1, 1, 1]);
});
