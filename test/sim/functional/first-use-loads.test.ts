import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Inst } from '../../../src/ir/inst.js';
import type { Function, Module } from '../../../src/ir/module.js';
import { FirstUseLoads } from '../../../src/sim/functional/first-use-loads.js';
import { compileProgram } from '../../../src/sim/functional/program.js';
import { DepField } from '../../../src/sim/step-deps-layout.js';

const SHADER = `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) buffer Out { float v[]; } o;
float scale(float x) { return x * 3.0 + 7.0; }
float twice(float x) { return x * 9.0 + 7.0; }
void main() {
  float a = o.v[0] * 3.0;
  if (a > 1.0) { a = a * 5.0; } else { a = a * 5.0 + 1.0; }
  o.v[1] = a + 3.0;
  o.v[2] = scale(a);
  o.v[3] = twice(a);
  if (a > 2.0) o.v[4] = twice(a * 9.0);
}
`;

function compile(): Module {
  const r = compileGlsl('k.rgen', SHADER);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.module;
}

/** The constants' values function `fn` loads, in order, each at the instruction (by opcode) charged it. */
function charges(m: Module, loads: FirstUseLoads, fn: Function): string[] {
  const map = loads.of(fn);
  const out: string[] = [];
  for (const b of fn.blocks) for (const inst of b.insts) if (map.has(inst)) out.push(`${describe(inst)}:${map.get(inst)}`);
  return out;
}

function describe(inst: Inst): string {
  return inst.op === 'binary' ? `binary ${inst.kind}` : inst.op;
}

function setup(): { m: Module; loads: FirstUseLoads; fn: (name: string) => Function } {
  const m = compile();
  const constants = new Set(m.constants.map((c) => c.id as number));
  const loads = new FirstUseLoads(m, (inst, v) => (inst.op !== 'accessChain' && constants.has(v as number) ? 1 : 0));
  const fn = (name: string): Function => m.functions.find((f) => f.name.startsWith(name))!;
  return { m, loads, fn };
}

test('a constant is loaded at its first use on each dominator-tree path of a stage', (t) => {
  const { m, loads } = setup();
  const entry = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  // 3.0 at the first mul; 1.0 at the compare; 5.0 once in each arm (neither arm dominates the
  // other); 1.0 is loaded already in the else arm; 3.0 again nowhere; 2.0 at the second compare;
  // 9.0 in the last if's arm is loaded already by the inlined twice before it. The calls pass no constant.
  t.deepEqual(charges(m, loads, entry), ['binary mul:1', 'compare:1', 'binary mul:1', 'binary mul:1', 'compare:1']);
});

test('an inlined function loads what is not loaded at every one of its call sites', (t) => {
  const { m, loads, fn } = setup();
  // scale's one call site has 3.0 loaded: only 7.0 is its own.
  t.deepEqual(charges(m, loads, fn('scale')), ['binary add:1']);
  // twice is called where 9.0 is not loaded, and where it is: it loads 9.0 itself; 7.0 is loaded
  // at both of its call sites, by the inlined scale before them.
  t.deepEqual(charges(m, loads, fn('twice')), ['binary mul:1']);
});

test('a descriptor is loaded once per dominator path, at the access chain that first reaches the buffer', (t) => {
  const m = compile();
  const buffer = m.globals.find((g) => g.storage === 'storageBuffer')!.id;
  const loads = new FirstUseLoads(m, (inst, v) => (inst.op === 'accessChain' && inst.base === v && v === buffer ? 1 : 0));
  const entry = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const chains = entry.blocks.flatMap((b) => b.insts).filter((i) => i.op === 'accessChain');
  t.true(chains.length >= 4);
  const map = loads.of(entry);
  // The first access dominates the rest of main; the callees' accesses are loaded at their call sites.
  t.deepEqual(chains.map((c) => map.get(c) ?? 0), [1, ...chains.slice(1).map(() => 0)]);
  for (const name of ['scale', 'twice']) t.is(loads.of(m.functions.find((f) => f.name.startsWith(name))!).size, 0);
});

/** The PTX instructions the entry function's blocks issue (`DepField.Count` summed over every piece's instructions). */
function entryPtx(source: string): number {
  const r = compileGlsl('k.rgen', source);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const p = compileProgram(r.module);
  let n = 0;
  for (const b of p.byId.get(r.module.entryPoints[0]!.function)!.blocks) {
    for (const piece of b.pieces) for (let i = 0; i < piece.insts; i++) n += piece.deps[piece.deps[i]! + DepField.Count]!;
  }
  return n;
}

test('a constant whose first use NIR deletes is loaded at its first live use, not lost with the dead instruction', (t) => {
  const head = `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) buffer Out { float v[]; } o;
void main() {
`;
  const live = `  o.v[1] = o.v[2] * 5.0;\n}\n`;
  const withDead = entryPtx(`${head}  float unused = o.v[0] * 5.0;\n${live}`);
  const without = entryPtx(head + live);
  // The dead multiply and its load issue nothing; 5.0 is still loaded once, at the live multiply.
  t.is(withDead, without);
  t.true(without > 0);
});
