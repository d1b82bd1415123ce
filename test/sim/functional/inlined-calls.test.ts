import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Module } from '../../../src/ir/module.js';
import { InlinedCalls, INLINED_ROOT_BASE, returnKey } from '../../../src/sim/functional/inlined-calls.js';
import { promotableVariables } from '../../../src/sim/functional/promoted-vars.js';
import { compileProgram } from '../../../src/sim/functional/program.js';
import { DepField, extraOpsOf } from '../../../src/sim/step-deps-layout.js';
import { runFunctional } from '../../../src/sim/functional/launch.js';
import type { WarpStep } from '../../../src/sim/warp-step.js';

const SHADER = `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) buffer Out { float v[]; } o;
float step2(inout float x, float y) { x = x * y; return x + 1.0; }
void main() {
  float a = o.v[0];
  float b = step2(a, o.v[1]);
  o.v[2] = a + b;
}
`;

function compile(): Module {
  const r = compileGlsl('k.rgen', SHADER);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.module;
}

test('a GLSL function is inlined: its pointer parameter and the argument temporary become one SSA class', (t) => {
  const m = compile();
  const inlined = new InlinedCalls(m, promotableVariables);
  const entry = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const helper = m.functions.find((f) => f.id !== entry.id)!;
  t.false(inlined.inlines(entry.id));
  t.true(inlined.inlines(helper.id));
  const x = helper.params[0]!.id;
  const root = inlined.inlinedRoot(x);
  t.true(root >= INLINED_ROOT_BASE);
  // glslang's temporary for the inout argument is in the same class.
  const call = entry.blocks.flatMap((b) => b.insts).find((i) => i.op === 'call')!;
  if (call.op !== 'call') throw new Error('no call');
  t.is(inlined.inlinedRoot(call.args[0]!), root);
  t.true(inlined.isInlinedCall(call));
  // The by-value parameter y is passed under its own id.
  t.deepEqual(inlined.byValueArgs(call).map((a) => a.param), [helper.params[1]!.id]);
});

test('a shader stage the lowered pipeline calls is not inlined', (t) => {
  const m = compile();
  const helper = m.functions.find((f) => f.id !== m.entryPoints[0]!.function)!;
  helper.stage = 'closestHit';
  const inlined = new InlinedCalls(m, promotableVariables);
  t.false(inlined.inlines(helper.id));
  t.is(inlined.inlinedRoot(helper.params[0]!.id), -1);
});

test('an inlined call, its return and its parameter traffic issue no PTX; values cross through keys', (t) => {
  const m = compile();
  const p = compileProgram(m);
  const entry = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const helper = m.functions.find((f) => f.id !== entry.id)!;
  const counts = (id: number): number[] =>
    p.byId.get(id as never)!.blocks.flatMap((b) => b.pieces.flatMap((pc) => Array.from({ length: pc.insts }, (_, i) => pc.deps[pc.deps[i]! + DepField.Count]!)));
  // The callee: load x, mul, store x, load x, add, return; only the mul and the add issue, the add
  // after the two movs of its constant 1.0 (not loaded at the call site: first-use-loads.ts).
  t.is(counts(helper.id).reduce((a, b) => a + b, 0), 2 + 2);
  // The add's record: it issues as the first mov (INT); the second mov and the fadd follow on their units.
  const addPiece = p.byId.get(helper.id)!.blocks.flatMap((b) => b.pieces).find((pc) => Array.from({ length: pc.insts }, (_, i) => pc.deps[pc.deps[i]! + DepField.Count]).includes(3))!;
  const addRec = Array.from({ length: addPiece.insts }, (_, i) => addPiece.deps[i]!).find((r) => addPiece.deps[r + DepField.Count] === 3)!;
  t.deepEqual([0, 1, 2, 3].map((c) => extraOpsOf(addPiece.deps[addRec + DepField.Extra]!, c)), [1, 1, 0, 0], 'SP 1 (the fadd), INT 1 (the second mov)');
  // The return forwards its value (computed in the same piece) to the caller's key: the add writes it.
  const piece = p.byId.get(helper.id)!.blocks[0]!.pieces.at(-1)!;
  const keys: number[] = [];
  for (let i = 0; i < piece.insts; i++) {
    const r = piece.deps[i]!;
    for (let k = piece.deps[r + DepField.WKeys]!; k < piece.deps[r + DepField.End]!; k++) keys.push(piece.deps[k]!);
  }
  t.true(keys.includes(returnKey(helper.id)));
  // The caller's call is free too.
  const callerPieces = p.byId.get(entry.id)!.blocks.flatMap((b) => b.pieces);
  const callPiece = callerPieces.find((pc) => pc.end === 'call')!;
  t.is(callPiece.deps[callPiece.deps[callPiece.insts - 1]! + DepField.Count], 0);
});

test('a shader stage\'s call and its return are PTX call / ret: the step after each is fetched anew (a redirect); an inlined call\'s is not', (t) => {
  const stepsOf = (stage: boolean): { jumps: boolean[]; redirects: boolean[] } => {
    const m = compile();
    const helper = m.functions.find((f) => f.id !== m.entryPoints[0]!.function)!;
    if (stage) helper.stage = 'closestHit';
    const p = compileProgram(m);
    const jumps = [...p.byId.values()].flatMap((f) => f.blocks.flatMap((b) => b.pieces.filter((pc) => pc.end === 'call' || pc.end === 'return').map((pc) => pc.jumps)));
    const steps: WarpStep[] = [];
    const out = new Uint8Array(16);
    runFunctional(p, { buffers: [{ set: 0, binding: 0, data: out }] }, {
      entry: m.entryPoints[0]!.function, size: [1, 1, 1], onStep: { onStep: (s: WarpStep) => { steps.push(s); } },
    });
    return { jumps, redirects: steps.map((s) => s.redirect === true) };
  };
  const staged = stepsOf(true);
  // The caller's call piece and the stage's return piece (the entry point here is not a linked stage).
  t.is(staged.jumps.filter(Boolean).length, 2);
  // The steps after the call (the stage's first) and after its return (the caller's rest) are redirects.
  t.is(staged.redirects.filter(Boolean).length, 2);
  const inlined = stepsOf(false);
  t.is(inlined.jumps.filter(Boolean).length, 0);
  t.is(inlined.redirects.filter(Boolean).length, 0);
});
