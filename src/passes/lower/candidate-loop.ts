/**
 * The loop after traverseAS that runs the delayed intersection and any-hit shaders of the
 * candidates traversal recorded, in two variants:
 *
 * - Baseline (Vulkan-Sim Algorithm 1, lines 2-11): each thread walks its own candidate list in
 *   order; per candidate, an if-else-if (a switch) over hit groups calls that group's intersection
 *   shader, or for a non-opaque triangle its any-hit shader. Threads whose candidates need
 *   different shaders diverge at the switch.
 * - Function call coalescing (Vulkan-Sim Algorithm 3, after Nowicki): the warp's pending candidates
 *   form a coalescing table keyed by shader; each iteration takes one key for the whole warp
 *   (`getNextCoalescedCall`: here the smallest pending key, agreed with a subgroup min) and every
 *   thread that has a candidate with that key runs it, so the call itself never diverges. A thread
 *   may appear in several rows with the same key (several hits on the same geometry kind). Keys
 *   are `2 * hitGroup + 1` for intersection shaders and `2 * hitGroup` for any-hit shaders.
 *
 * Both commit hits through the RT runtime; the closest accepted hit is the same either way.
 */
import { findBlock, type Builder } from '../../ir/builder.js';
import type { BlockId, ValueId } from '../../ir/inst.js';
import { addLocalVariable, emitSwitch, rtCall } from './emit-helpers.js';
import { accepts, callShader, type ShaderEntry } from './shader-call.js';

export interface CandidateLoopContext {
  hitGroups: { closestHit?: ShaderEntry; anyHit?: ShaderEntry; intersection?: ShaderEntry }[];
  /** The caller's payload pointer (any-hit shaders read and write it). */
  payload: ValueId;
}

/** Algorithm 1, lines 2-11. The cursor is after traverseAS; on return control reaches `done`. */
export function emitDelayedCandidateLoop(b: Builder, ctx: CandidateLoopContext, count: ValueId, done: BlockId): void {
  const t = b.t;
  const iVar = addLocalVariable(b, t.u32);
  b.emitVoid('store', { ptr: iVar, value: b.constU32(0) });
  const header = b.createBlock('trace.candidates');
  const body = b.createBlock('trace.candidate');
  const cont = b.createBlock('trace.next');
  b.emitVoid('branch', { target: header });

  b.setInsertPoint(header);
  findBlock(b.fn, header).merge = { kind: 'loop', merge: done, continue: cont };
  const i = b.emit('load', { ptr: iVar }, t.u32);
  const more = b.emit('compare', { kind: 'lt', a: i, b: count }, t.bool);
  const live = b.emit('unary', { kind: 'not', a: rtCall(b, 'terminated', [], t.bool) }, t.bool);
  b.emitVoid('condBranch', { cond: b.emit('binary', { kind: 'and', a: more, b: live }, t.bool), ifTrue: body, ifFalse: done });

  b.setInsertPoint(body);
  const hg = rtCall(b, 'selectCandidate', [i], t.u32);
  emitCandidate(b, ctx, rtCall(b, 'candidateIsProcedural', [], t.bool), hg, cont);

  b.setInsertPoint(cont);
  const iNow = b.emit('load', { ptr: iVar }, t.u32);
  b.emitVoid('store', { ptr: iVar, value: b.emit('binary', { kind: 'add', a: iNow, b: b.constU32(1) }, t.u32) });
  b.emitVoid('branch', { target: header });
}

/** Algorithm 3, lines 2-9. The cursor is after traverseAS; on return control reaches `done`. */
export function emitCoalescedCandidateLoop(b: Builder, ctx: CandidateLoopContext, done: BlockId): void {
  const t = b.t;
  const header = b.createBlock('fcc.rows');
  const body = b.createBlock('fcc.row');
  const mine = b.createBlock('fcc.call');
  const cont = b.createBlock('fcc.next');
  b.emitVoid('branch', { target: header });

  // intersectionExit: the loop runs while any thread of the warp has a pending candidate.
  b.setInsertPoint(header);
  findBlock(b.fn, header).merge = { kind: 'loop', merge: done, continue: cont };
  const key = rtCall(b, 'nextPendingCandidate', [], t.i32);
  const pending = b.emit('compare', { kind: 'ge', a: key, b: b.constI32(0) }, t.bool);
  const anyPending = b.emit('subgroup', { kind: 'any', args: [pending] }, t.bool);
  b.emitVoid('condBranch', { cond: anyPending, ifTrue: body, ifFalse: done });

  // getNextCoalescedCall: one key for the whole warp, then each thread takes its candidate of it.
  b.setInsertPoint(body);
  const candidateKey = b.emit('select', { cond: pending, a: key, b: b.constI32(0x7fffffff) }, t.i32);
  const rowKey = b.emit('subgroup', { kind: 'min', group: 'reduce', args: [candidateKey] }, t.i32);
  const inRow = rtCall(b, 'selectPendingCandidate', [rowKey], t.bool);
  b.emitVoid('condBranch', { cond: inRow, ifTrue: mine, ifFalse: cont });
  findBlock(b.fn, body).merge = { kind: 'selection', merge: cont };

  b.setInsertPoint(mine);
  const hg = b.emit('convert', { value: b.emit('binary', { kind: 'shr', a: rowKey, b: b.constI32(1) }, t.i32) }, t.u32);
  const procedural = b.emit('compare', { kind: 'eq', a: b.emit('binary', { kind: 'and', a: rowKey, b: b.constI32(1) }, t.i32), b: b.constI32(1) }, t.bool);
  emitCandidate(b, ctx, procedural, hg, cont);

  b.setInsertPoint(cont);
  b.emitVoid('branch', { target: header });
}

/** One selected candidate: intersection shader of its hit group, or the triangle path; then `cont`. */
function emitCandidate(b: Builder, ctx: CandidateLoopContext, procedural: ValueId, hg: ValueId, cont: BlockId): void {
  const here = b.block;
  const procBlock = b.createBlock('trace.procedural');
  const triBlock = b.createBlock('trace.triangle');
  b.emitVoid('condBranch', { cond: procedural, ifTrue: procBlock, ifFalse: triBlock });
  findBlock(b.fn, here).merge = { kind: 'selection', merge: cont };
  b.setInsertPoint(procBlock);
  emitIntersectionDispatch(b, ctx, hg, cont);
  b.setInsertPoint(triBlock);
  emitTriangleCandidate(b, ctx, hg, cont);
}

/** Procedural candidates: the hit group's intersection shader (it reports, runs any-hit, commits). */
function emitIntersectionDispatch(b: Builder, ctx: CandidateLoopContext, hg: ValueId, cont: BlockId): void {
  const cases: { value: number; target: BlockId }[] = [];
  ctx.hitGroups.forEach((g, k) => {
    if (g.intersection && accepts(b, g.anyHit, ctx.payload)) cases.push({ value: k, target: b.createBlock(`trace.isect${k}`) });
  });
  emitSwitch(b, hg, cases, cont);
  for (const c of cases) {
    b.setInsertPoint(c.target);
    const g = ctx.hitGroups[c.value]!;
    // The any-hit an intersection shader reaches reads the caller's payload.
    callShader(b, g.intersection!, g.anyHit, ctx.payload, b.t.void);
    b.emitVoid('branch', { target: cont });
  }
}

/** Non-opaque triangle candidates: if closer, any-hit decides; without one the candidate is accepted. */
function emitTriangleCandidate(b: Builder, ctx: CandidateLoopContext, hg: ValueId, cont: BlockId): void {
  const t = b.t;
  const fn = b.fn;
  const here = b.block;
  const closer = rtCall(b, 'acceptTriangleCandidate', [], t.bool);
  const triHit = b.createBlock('trace.triangle.closer');
  b.emitVoid('condBranch', { cond: closer, ifTrue: triHit, ifFalse: cont });
  findBlock(fn, here).merge = { kind: 'selection', merge: cont };
  b.setInsertPoint(triHit);
  const commit = b.createBlock('trace.commit');
  const cases: { value: number; target: BlockId }[] = [];
  ctx.hitGroups.forEach((g, k) => {
    if (g.anyHit && accepts(b, g.anyHit, ctx.payload)) cases.push({ value: k, target: b.createBlock(`trace.anyhit${k}`) });
  });
  emitSwitch(b, hg, cases, commit);
  for (const c of cases) {
    b.setInsertPoint(c.target);
    const status = callShader(b, ctx.hitGroups[c.value]!.anyHit!, undefined, ctx.payload, t.u32);
    const ignored = b.emit('compare', { kind: 'eq', a: status, b: b.constU32(1) }, t.bool);
    const accept = b.createBlock(`trace.anyhit${c.value}.accept`);
    b.emitVoid('condBranch', { cond: ignored, ifTrue: cont, ifFalse: accept });
    findBlock(fn, c.target).merge = { kind: 'selection', merge: cont };
    b.setInsertPoint(accept);
    rtCall(b, 'commitPending', [], t.void);
    const term = b.emit('compare', { kind: 'eq', a: status, b: b.constU32(2) }, t.bool);
    const terminate = b.createBlock(`trace.anyhit${c.value}.terminate`);
    b.emitVoid('condBranch', { cond: term, ifTrue: terminate, ifFalse: cont });
    findBlock(fn, accept).merge = { kind: 'selection', merge: cont };
    b.setInsertPoint(terminate);
    rtCall(b, 'requestTerminate', [], t.void);
    b.emitVoid('branch', { target: cont });
  }
  b.setInsertPoint(commit);
  rtCall(b, 'commitPending', [], t.void);
  b.emitVoid('branch', { target: cont });
}
