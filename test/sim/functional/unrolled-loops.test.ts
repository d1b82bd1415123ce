import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { buildCfg } from '../../../src/ir/cfg.js';
import { dominatorTree } from '../../../src/ir/dominators.js';
import type { ValueId } from '../../../src/ir/inst.js';
import { promotableVariables } from '../../../src/sim/functional/promoted-vars.js';
import { chargesAfterUnrolling, unrolledLoops, type UnrolledLoops } from '../../../src/sim/functional/unrolled-loops.js';
import type { Function, Module } from '../../../src/ir/module.js';
import { FirstUseLoads } from '../../../src/sim/functional/first-use-loads.js';

/** `body` inside a compute shader's main, compiled, with the loops NIR unrolls. */
function analyse(body: string): { m: Module; fn: Function; constants: Map<ValueId, unknown>; u: UnrolledLoops } {
  const r = compileGlsl('k.comp', `#version 460
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { uint v[]; uint n; } o;
void main() {
  uint s = o.v[0];
${body}
  o.v[1] = s;
}`);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const m = r.module;
  const fn = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  const promoted = promotableVariables(fn);
  const constants = new Map(m.constants.map((c) => [c.id as ValueId, c.value as unknown]));
  const cfg = buildCfg(fn);
  const u = unrolledLoops(fn, cfg, dominatorTree(cfg), {
    variableOf: (ptr) => (promoted.has(ptr) ? (ptr as number) : undefined),
    constant: (v) => (typeof constants.get(v) === 'number' ? (constants.get(v) as number) : undefined),
  });
  return { m, fn, constants, u };
}

function unrolled(body: string): { loops: number; removed: string[] } {
  const { u } = analyse(body);
  return { loops: u.headers.size, removed: [...u.removed].map((i) => i.op).sort() };
}

test('a counted loop of 16 trips (InitRandomSeed\'s) is unrolled: its test, induction update and jumps issue nothing', (t) => {
  const u = unrolled('  [[unroll]] for (uint k = 0; k < 16; k++) s = s * 3u + k;');
  t.is(u.loops, 1);
  // the compare and its branch, the update's load / add / store, the test's load, and the loop's jumps.
  t.true(['binary', 'compare', 'condBranch', 'store'].every((op) => u.removed.includes(op)));
  t.true(u.removed.filter((op) => op === 'branch').length >= 2);
});

test('NIR leaves a loop rolled when its trip count is unknown, over 32, or it says dont_unroll', (t) => {
  t.is(unrolled('  for (uint k = 0; k < o.n; k++) s += k;').loops, 0);
  t.is(unrolled('  [[unroll]] for (uint k = 0; k < 40; k++) s += k;').loops, 0);
  t.is(unrolled('  [[dont_unroll]] for (uint k = 0; k < 4; k++) s += k;').loops, 0);
  t.is(unrolled('  for (uint k = 0; k < 4; k++) s += k;').loops, 1, 'small and counted: within the cost limit');
});

test('what an unrolled body loads first is charged once, on the branch entering the loop; a rolled loop pays it per trip', (t) => {
  const charged = (body: string): { total: number; inLoop: number; onEntry: string | undefined } => {
    const { m, fn, constants, u } = analyse(body);
    const loads = new FirstUseLoads(m, (inst, v) => (inst.op !== 'accessChain' && constants.has(v) ? 1 : 0));
    const charges = chargesAfterUnrolling(loads.of(fn), fn, u);
    // The loop's blocks by the front end's labels (for.header, for.body, ...).
    const entering = [...u.entered.values()][0];
    let inLoop = 0;
    let onEntry: string | undefined;
    for (const b of fn.blocks) {
      for (const inst of b.insts) {
        const n = charges.get(inst) ?? 0;
        if (n > 0 && b.name?.startsWith('for.') === true) inLoop += n;
        if (n > 0 && b.id === entering && inst === b.insts.at(-1)) onEntry = inst.op;
      }
    }
    return { total: [...charges.values()].reduce((a, n) => a + n, 0), inLoop, onEntry };
  };
  // 3u and 7u are first used in the body: with [[unroll]] both are charged on the entering branch.
  const un = charged('  [[unroll]] for (uint k = 0; k < 16; k++) s = s * 3u + 7u;');
  t.is(un.inLoop, 0);
  t.is(un.onEntry, 'branch');
  // Rolled, the same constants stay in the body (paid on each trip there).
  const rolled = charged('  [[dont_unroll]] for (uint k = 0; k < 16; k++) s = s * 3u + 7u;');
  t.true(rolled.inLoop >= 2);
  t.is(rolled.total, un.total);
});
