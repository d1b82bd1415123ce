import test from 'ava';
import type { Inst } from '../../../src/ir/inst.js';
import { newModule, type Block, type Function, type Stage } from '../../../src/ir/module.js';
import { tracePtx } from '../../../src/sim/functional/trace-ray-ptx.js';

const fn = (id: number, stage?: Stage): Function => ({ id, name: `f${id}`, returnType: 0, params: [], blocks: [], loc: { file: 0, line: 1, column: 1 }, ...(stage ? { stage } : {}) }) as unknown as Function;
const inst = (i: Record<string, unknown>): Inst => i as unknown as Inst;
const block = (lowered: boolean, loop = false): Block => ({ id: 1, insts: [], ...(lowered ? { lowered: 'traceRay' } : {}), ...(loop ? { merge: { kind: 'loop', merge: 2, continue: 3 } } : {}) }) as unknown as Block;

function pipeline() {
  const m = newModule();
  // raygen, two intersection shaders, three closest-hit shaders, a GLSL helper.
  m.functions = [fn(1), fn(2, 'intersection'), fn(3, 'intersection'), fn(4, 'closestHit'), fn(5, 'closestHit'), fn(6, 'closestHit'), fn(7)];
  m.entryPoints = [{ stage: 'raygen', function: 1 as never, name: 'main' }];
  return { m, t: tracePtx(m) };
}

test('a lowered traceRay is charged what translate_trace_ray writes, per shader of the pipeline', (t) => {
  const { t: p } = pipeline();
  const lowered = block(true);
  t.is(p.countOf(inst({ op: 'rtCall', fn: 'traverse', args: [] }), lowered), 2, 'trace_ray and the counter mov');
  t.is(p.countOf(inst({ op: 'rtCall', fn: 'selectCandidate', args: [] }), lowered), 4 + 2 * 2, 'two intersection shaders: a setp and a bra each');
  t.is(p.countOf(inst({ op: 'rtCall', fn: 'restoreCommitted', args: [] }), lowered), 1 + 2 * 3);
  t.is(p.countOf(inst({ op: 'condBranch', cond: 0, ifTrue: 2, ifFalse: 3 }), block(true, true)), 2, 'the loop test: intersection_exit and its branch');
  t.is(p.countOf(inst({ op: 'switch', selector: 0, default: 2, cases: [] }), lowered), 0, 'our dispatch switch is not the translator\'s');
  t.is(p.countOf(inst({ op: 'call', callee: 2, args: [] }), lowered), 1, 'call_intersection_shader');
  t.is(p.countOf(inst({ op: 'binary', kind: 'add', a: 0, b: 0 }), block(false)), undefined, 'code of the shader itself: its own PTX');
});

test('each shader stage starts with the translator\'s constants, and the ray generation shader with the launch-bounds check', (t) => {
  const { m, t: p } = pipeline();
  t.is(p.prologue(m.functions[0]!), 12);
  t.is(p.prologue(m.functions[3]!), 4);
  t.is(p.prologue(m.functions[6]!), 0, 'a GLSL function is inlined: no prologue');
});
