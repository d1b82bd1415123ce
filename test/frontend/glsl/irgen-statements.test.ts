/**
 * Statements to structured CFG: if/else selection merges, for/while/do-while loop merges with
 * continue targets and unroll hints, switch with fall-through and default, break/continue targets,
 * early return, code after return dropped, short-circuit && / || / ?: shapes.
 */
import test from 'ava';
import type { Block } from '../../../src/ir/module.js';
import { compileErrors, compileOk, fn, instsOf } from './compile-fixtures/harness.js';

const P = 'layout(location = 0) rayPayloadEXT vec3 p;\n';
const CFA = '#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_control_flow_attributes : require\n';
const term = (b: Block) => b.insts[b.insts.length - 1]!;

test('if/else: header with selection merge, both arms branch to the merge', (t) => {
  const m = compileOk(P + 'void main() { float x = p.x; if (x > 0.0) { p.y = 1.0; } else { p.y = 2.0; } p.z = 3.0; }');
  const f = fn(m);
  const header = f.blocks.find((b) => b.merge?.kind === 'selection')!;
  t.truthy(header);
  const br = term(header);
  t.is(br.op, 'condBranch');
  if (br.op !== 'condBranch' || header.merge?.kind !== 'selection') return;
  const merge = header.merge.merge;
  for (const arm of [br.ifTrue, br.ifFalse]) {
    const b = f.blocks.find((x) => x.id === arm)!;
    t.like(term(b), { op: 'branch', target: merge });
  }
  t.is(f.blocks.filter((b) => term(b).op === 'return').length, 1);
});

test('for loop: header with loop merge + continue, condition block, back edge from continue', (t) => {
  const m = compileOk(CFA + P + 'void main() { float s = 0.0; [[unroll]] for (int i = 0; i < 4; i++) { if (i == 2) continue; if (s > 9.0) break; s += 1.0; } p = vec3(s); }');
  const f = fn(m);
  const header = f.blocks.find((b) => b.merge?.kind === 'loop')!;
  t.truthy(header);
  if (header.merge?.kind !== 'loop') return;
  t.is(header.merge.unroll, 'unroll');
  const cont = f.blocks.find((b) => b.id === (header.merge as { continue: number }).continue)!;
  t.like(term(cont), { op: 'branch', target: header.id });
  t.true(cont.insts.some((i) => i.op === 'binary' && i.kind === 'add'), 'i++ in the continue block');
  const branches = f.blocks.map(term);
  t.true(branches.some((b) => b.op === 'branch' && b.target === header.merge!.merge), 'break jumps to the merge');
  t.true(branches.filter((b) => b.op === 'branch' && b.target === cont.id).length >= 2, 'continue and fall-through reach the continue block');
  const condBlock = f.blocks.find((b) => b.id === (term(header) as { target: number }).target)!;
  t.like(term(condBlock), { op: 'condBranch', ifFalse: header.merge.merge });
});

test('while(true) and do-while; dont_unroll hint', (t) => {
  const m = compileOk(CFA + P + 'void main() { int i = 0; while (true) { if (++i > 3) break; } [[dont_unroll]] do { i--; } while (i > 0); p = vec3(float(i)); }');
  const f = fn(m);
  const loops = f.blocks.filter((b) => b.merge?.kind === 'loop');
  t.is(loops.length, 2);
  const doLoop = loops[1]!;
  t.like(doLoop.merge, { kind: 'loop', unroll: 'dontUnroll' });
  if (doLoop.merge?.kind !== 'loop') return;
  const cont = f.blocks.find((b) => b.id === (doLoop.merge as { continue: number }).continue)!;
  t.like(term(cont), { op: 'condBranch', ifTrue: doLoop.id, ifFalse: doLoop.merge.merge });
});

test('switch: selection merge, case labels, fall-through between cases, default', (t) => {
  const m = compileOk(P + 'void main() { int k = int(p.x); int r = 0; switch (k) { case 0: r = 1; case 1: case 2: r += 2; break; case -3: r = 7; break; default: r = 9; } p.y = float(r); }');
  const f = fn(m);
  const sw = instsOf(f, 'switch')[0]!;
  t.deepEqual(sw.cases.map((c) => c.value), [0, 1, 2, -3]);
  t.is(sw.cases[1]!.target, sw.cases[2]!.target, 'case 1 and 2 share a block');
  const header = f.blocks.find((b) => term(b) === sw)!;
  t.is(header.merge?.kind, 'selection');
  const case0 = f.blocks.find((b) => b.id === sw.cases[0]!.target)!;
  t.like(term(case0), { op: 'branch', target: sw.cases[1]!.target }, 'case 0 falls through into case 1');
  t.not(sw.default, header.merge!.merge, 'default has its own block');
});

test('early return in main and code after return is dropped', (t) => {
  const m = compileOk(P + 'void main() { if (p.x < 0.0) { p = vec3(0.0); return; p = vec3(5.0); } p = vec3(1.0); }');
  const f = fn(m);
  t.is(f.blocks.filter((b) => term(b).op === 'return').length, 2);
  const fives = m.constants.filter((c) => c.value === 5);
  for (const c of fives) t.false(instsOf(f, 'store').some((s) => s.value === c.id), 'store after return is gone');
  for (const b of f.blocks) t.is(b.insts.filter((i) => ['branch', 'condBranch', 'return', 'switch', 'unreachable'].includes(i.op)).length, 1);
});

test('&& with a call on the right short-circuits with blocks and a phi; simple operands use and', (t) => {
  const m = compileOk(P + 'bool check(float x) { p.z = x; return x > 1.0; }\nvoid main() { bool a = p.x > 0.0 && check(p.y); bool b = p.x > 0.0 || p.y < 1.0; p = vec3(a ? 1.0 : 0.0, b ? 1.0 : 0.0, 0.0); }');
  const f = fn(m);
  const phi = instsOf(f, 'phi');
  t.is(phi.length, 1);
  t.is(phi[0]!.incoming.length, 2);
  t.true(instsOf(f, 'binary').some((i) => i.kind === 'or'), '|| of simple operands is a plain or');
  t.is(instsOf(f, 'select').length, 2, 'simple ?: becomes select');
});

test('?: with side effects branches and merges with a phi', (t) => {
  const m = compileOk(P + 'float bump() { p.x += 1.0; return p.x; }\nvoid main() { float v = p.y > 0.0 ? bump() : 2.0; p.z = v; }');
  const f = fn(m);
  t.is(instsOf(f, 'phi').length, 1);
  t.is(instsOf(f, 'select').length, 0);
});

test('locals are variables at the top of the entry block; in-params are copied', (t) => {
  const m = compileOk(P + 'float twice(float x) { x *= 2.0; return x; }\nvoid main() { float a = 1.0; { float b = twice(a); p = vec3(b); } }');
  for (const f of m.functions) {
    const entry = f.blocks[0]!;
    const vars = f.blocks.flatMap((b) => b.insts.filter((i) => i.op === 'variable'));
    t.deepEqual(entry.insts.slice(0, vars.length), vars);
  }
  const tw = fn(m, 'twice');
  t.is(tw.params.length, 1);
  t.is(instsOf(tw, 'store')[0]!.value, tw.params[0]!.id, 'parameter stored into its local');
});

test('loop attributes need GL_EXT_control_flow_attributes', (t) => {
  t.regex(compileErrors(P + 'void main() { [[unroll]] for (int i = 0; i < 2; i++) {} }')[0]!, /'\[\[unroll\]\]' requires #extension GL_EXT_control_flow_attributes/);
});

test('a switch whose last label has no statements is an error (as in glslang)', (t) => {
  t.regex(compileErrors(P + 'void main() { int k = int(p.x); switch (k) { case 0: p.y = 1.0; break; default: } }')[0]!, /snippet\.rgen:4:\d+: error: the last case\/default label of a switch must be followed by statements/);
});
