/**
 * Ray tracing pipeline lowering (Vulkan-Sim Section III-B, Algorithm 1: "delayed intersection and
 * any-hit execution"). Links the stage modules of a pipeline into one module whose only entry
 * point is the ray generation shader, and rewrites every `traceRay` into
 *
 *   count = traverseAS(ray)                      -- rtCall traverse: closest opaque triangle hit committed,
 *                                                   procedural / non-opaque candidates recorded
 *   for i in 0..count while !terminated:         -- the delayed intersection / any-hit loop
 *     hg = selectCandidate(i)
 *     procedural ? call intersection shader of hg (switch over hit groups)
 *                : if closer: call any-hit of hg (switch), commit unless ignored
 *   switch committedHitGroup(): closest-hit of hg | miss shader of missIndex (switch) | nothing
 *   endTraceRay
 *
 * and every `executeCallable` into a switch over the callable shaders of the SBT.
 *
 * Payload passing: each hit / miss / callable shader keeps its incoming payload as a per-lane
 * global; a call site copies the caller's payload in, calls, copies it back out, and restores the
 * callee's previous incoming value (so recursion — closest-hit tracing into the same closest-hit —
 * sees its own payload again). Struct payload types declared separately in two shaders are
 * converted member by member (they must have the same shape, as Vulkan requires).
 *
 * Any-hit entry functions are rewritten to return a status (0 accept, 1 ignoreIntersection,
 * 2 terminateRay). Intersection shaders are imported once per hit group that uses them, and each
 * `reportIntersection` is expanded in place into the range check, that hit group's any-hit call
 * and the commit.
 *
 * The result verifies; it contains no `traceRay`, `executeCallable`, `reportIntersection`,
 * `ignoreIntersection` or `terminateRay`.
 */
import { Builder, findBlock } from '../../ir/builder.js';
import type { BlockId, FunctionId, Inst, Loc, RtRuntimeFn, ValueId } from '../../ir/inst.js';
import { newModule, type Function, type Global, type Module, type Stage } from '../../ir/module.js';
import { T, typeOf, type TypeId } from '../../ir/types.js';
import { importModule, type ImportedModule } from './import-module.js';

/** The pipeline as the host declares it: shader stages and the shader binding table order. */
export interface PipelineStages {
  raygen: Module;
  /** SBT miss records, indexed by traceRay's missIndex. */
  miss: Module[];
  /** SBT hit group records, indexed by instance sbtOffset + sbtRecordOffset + sbtRecordStride * geometryIndex. */
  hitGroups: { closestHit?: Module; anyHit?: Module; intersection?: Module }[];
  /** SBT callable records, indexed by executeCallable's sbtIndex. */
  callables: Module[];
}

export interface LinkedShader {
  stage: Stage;
  /** The shader's main source file. */
  path: string;
  function: FunctionId;
  /** Hit group (for closest-hit / any-hit / intersection), miss or callable index in the SBT. */
  sbtIndex: number;
  /** The shader's module-scope variables in the linked module (its shader record block among them). */
  globals: ValueId[];
  /** Where a block of the shader's own module (by its id there) is in the linked module. */
  block(stageBlock: BlockId): BlockId;
}

export interface LinkedPipeline {
  module: Module;
  shaders: LinkedShader[];
}

export class PipelineLinkError extends Error {}

interface ShaderEntry {
  fn: FunctionId;
  /** The shader's incoming payload / callable data global, if it declares one. */
  incoming?: Global;
}

export function linkPipeline(stages: PipelineStages): LinkedPipeline {
  const m = newModule();
  const shaders: LinkedShader[] = [];
  const imported = new Map<Module, ImportedModule>();
  const importOnce = (mod: Module, prefix: string): ImportedModule => {
    let im = imported.get(mod);
    if (!im) {
      im = importModule(m, mod, prefix);
      imported.set(mod, im);
    }
    return im;
  };
  const entryOf = (mod: Module, im: ImportedModule, expected: Stage, what: string): FunctionId => {
    const ep = mod.entryPoints[0];
    if (!ep || mod.entryPoints.length !== 1) throw new PipelineLinkError(`${what}: expected exactly one entry point`);
    if (ep.stage !== expected) {
      throw new PipelineLinkError(`${what}: ${mod.sources[0]?.path ?? '?'} is a ${ep.stage} shader, expected ${expected}`);
    }
    return im.entries[0]!;
  };
  const pathOf = (mod: Module) => mod.sources[0]?.path ?? '<memory>';
  const globalsOf = (mod: Module, im: ImportedModule) => mod.globals.map((g) => im.value(g.id));
  const blockOf = (im: ImportedModule) => (b: BlockId) => im.value(b as unknown as ValueId) as unknown as BlockId;

  const rg = importOnce(stages.raygen, 'rgen.');
  const raygenFn = entryOf(stages.raygen, rg, 'raygen', 'raygen');
  shaders.push({ stage: 'raygen', path: pathOf(stages.raygen), function: raygenFn, sbtIndex: 0, globals: globalsOf(stages.raygen, rg), block: blockOf(rg) });

  const incomingOf = (im: ImportedModule, storage: 'incomingRayPayload' | 'incomingCallableData', mod: Module) => {
    const src = mod.globals.find((g) => g.storage === storage);
    return src ? m.globals.find((g) => g.id === im.value(src.id)) : undefined;
  };

  const miss: (ShaderEntry | undefined)[] = stages.miss.map((mod, i) => {
    const im = importOnce(mod, `miss${i}.`);
    const fn = entryOf(mod, im, 'miss', `miss[${i}]`);
    shaders.push({ stage: 'miss', path: pathOf(mod), function: fn, sbtIndex: i, globals: globalsOf(mod, im), block: blockOf(im) });
    return { fn, incoming: incomingOf(im, 'incomingRayPayload', mod) };
  });
  const callables: ShaderEntry[] = stages.callables.map((mod, i) => {
    const im = importOnce(mod, `call${i}.`);
    const fn = entryOf(mod, im, 'callable', `callables[${i}]`);
    shaders.push({ stage: 'callable', path: pathOf(mod), function: fn, sbtIndex: i, globals: globalsOf(mod, im), block: blockOf(im) });
    return { fn, incoming: incomingOf(im, 'incomingCallableData', mod) };
  });

  interface HitGroupEntries { closestHit?: ShaderEntry; anyHit?: ShaderEntry; intersection?: ShaderEntry }
  const anyHitDone = new Set<FunctionId>();
  const hitGroups: HitGroupEntries[] = stages.hitGroups.map((hg, k) => {
    const out: HitGroupEntries = {};
    if (hg.closestHit) {
      const im = importOnce(hg.closestHit, `chit${k}.`);
      const fn = entryOf(hg.closestHit, im, 'closestHit', `hitGroups[${k}].closestHit`);
      shaders.push({ stage: 'closestHit', path: pathOf(hg.closestHit), function: fn, sbtIndex: k, globals: globalsOf(hg.closestHit, im), block: blockOf(im) });
      out.closestHit = { fn, incoming: incomingOf(im, 'incomingRayPayload', hg.closestHit) };
    }
    if (hg.anyHit) {
      const im = importOnce(hg.anyHit, `ahit${k}.`);
      const fn = entryOf(hg.anyHit, im, 'anyHit', `hitGroups[${k}].anyHit`);
      shaders.push({ stage: 'anyHit', path: pathOf(hg.anyHit), function: fn, sbtIndex: k, globals: globalsOf(hg.anyHit, im), block: blockOf(im) });
      if (!anyHitDone.has(fn)) {
        rewriteAnyHitExits(m, fn);
        anyHitDone.add(fn);
      }
      out.anyHit = { fn, incoming: incomingOf(im, 'incomingRayPayload', hg.anyHit) };
    }
    if (hg.intersection) {
      // One copy per hit group: its reportIntersection calls this group's any-hit.
      const im = importModule(m, hg.intersection, `isect${k}.`);
      const fn = entryOf(hg.intersection, im, 'intersection', `hitGroups[${k}].intersection`);
      shaders.push({ stage: 'intersection', path: pathOf(hg.intersection), function: fn, sbtIndex: k, globals: globalsOf(hg.intersection, im), block: blockOf(im) });
      const ownFns = new Set(hg.intersection.functions.map((f) => im.fn(f.id)));
      for (const f of m.functions) if (ownFns.has(f.id)) lowerReportIntersection(m, f, fn, out.anyHit);
      out.intersection = { fn };
    }
    return out;
  });

  const ctx: SiteContext = { m, miss, callables, hitGroups };
  for (const f of [...m.functions]) lowerCallSites(ctx, f);
  m.entryPoints = [{ stage: 'raygen', function: raygenFn, name: 'main' }];
  return { module: m, shaders };
}

interface SiteContext {
  m: Module;
  miss: (ShaderEntry | undefined)[];
  callables: ShaderEntry[];
  hitGroups: { closestHit?: ShaderEntry; anyHit?: ShaderEntry; intersection?: ShaderEntry }[];
}

/** Any-hit main: return -> return 0, ignoreIntersection -> return 1, terminateRay -> return 2. */
function rewriteAnyHitExits(m: Module, fnId: FunctionId): void {
  const fn = m.functions.find((f) => f.id === fnId)!;
  const u32 = T.u32(m.types);
  fn.returnType = u32;
  const b = new Builder(m, fn);
  for (const block of fn.blocks) {
    const last = block.insts[block.insts.length - 1];
    if (!last) continue;
    const status = last.op === 'return' ? 0 : last.op === 'ignoreIntersection' ? 1 : last.op === 'terminateRay' ? 2 : -1;
    if (status < 0) continue;
    block.insts[block.insts.length - 1] = { op: 'return', value: b.constU32(status), id: last.id, type: T.void(m.types), loc: last.loc };
  }
  for (const other of m.functions) {
    if (other === fn) continue;
    for (const block of other.blocks) {
      for (const inst of block.insts) {
        if (inst.op === 'ignoreIntersection' || inst.op === 'terminateRay') {
          throw new PipelineLinkError(
            `${inst.op === 'ignoreIntersection' ? 'ignoreIntersectionEXT' : 'terminateRayEXT'} outside the any-hit shader's main function is not supported (in ${other.name})`,
          );
        }
      }
    }
  }
}

/** Expands each reportIntersection of an intersection shader copy (see the file comment). */
function lowerReportIntersection(m: Module, fn: Function, entry: FunctionId, anyHit: ShaderEntry | undefined): void {
  const boolT = T.bool(m.types);
  for (;;) {
    const site = findInstOp(fn, 'reportIntersection');
    if (!site) return;
    const { block, index, inst } = site;
    if (inst.op !== 'reportIntersection') return;
    const b = new Builder(m, fn);
    b.loc = inst.loc;
    const accepted = addLocalVariable(b, boolT);
    const rest = b.splitBlockAt(block.id, index, 'report.rest');
    // `rest` starts with the reportIntersection itself: it becomes the load of the verdict, keeping its id.
    const restBlock = findBlock(fn, rest);
    restBlock.insts[0] = { op: 'load', ptr: accepted, id: inst.id, type: boolT, loc: inst.loc };
    const head = block.id;
    const headBlock = findBlock(fn, head);
    headBlock.insts.pop(); // the split's branch; re-emitted below
    b.setInsertPoint(head);
    const inRange = rtCall(b, 'reportIntersection', [inst.hitT, inst.hitKind], boolT);
    b.emitVoid('store', { ptr: accepted, value: inRange });
    const onHit = b.createBlock('report.hit');
    b.emitVoid('condBranch', { cond: inRange, ifTrue: onHit, ifFalse: rest });
    setSelectionMerge(headBlock, rest);
    b.setInsertPoint(onHit);
    if (!anyHit) {
      rtCall(b, 'commitPending', [], T.void(m.types));
      b.emitVoid('branch', { target: rest });
      continue;
    }
    const status = b.emit('call', { callee: anyHit.fn, args: [] }, T.u32(m.types));
    const ignored = b.emit('compare', { kind: 'eq', a: status, b: b.constU32(1) }, boolT);
    const onIgnore = b.createBlock('report.ignored');
    const onAccept = b.createBlock('report.accepted');
    b.emitVoid('condBranch', { cond: ignored, ifTrue: onIgnore, ifFalse: onAccept });
    findBlock(fn, onHit).merge = { kind: 'selection', merge: rest };
    b.setInsertPoint(onIgnore);
    b.emitVoid('store', { ptr: accepted, value: b.constBool(false) });
    b.emitVoid('branch', { target: rest });
    b.setInsertPoint(onAccept);
    rtCall(b, 'commitPending', [], T.void(m.types));
    const terminate = b.emit('compare', { kind: 'eq', a: status, b: b.constU32(2) }, boolT);
    const onTerminate = b.createBlock('report.terminate');
    b.emitVoid('condBranch', { cond: terminate, ifTrue: onTerminate, ifFalse: rest });
    findBlock(fn, onAccept).merge = { kind: 'selection', merge: rest };
    b.setInsertPoint(onTerminate);
    rtCall(b, 'requestTerminate', [], T.void(m.types));
    // terminateRay ends the intersection shader too; elsewhere the runtime rejects later reports.
    if (fn.id === entry && typeOf(m.types, fn.returnType).kind === 'void') b.emitVoid('return', {});
    else b.emitVoid('branch', { target: rest });
  }
}

/** Lowers every traceRay and executeCallable in `fn`. */
function lowerCallSites(ctx: SiteContext, fn: Function): void {
  for (;;) {
    const site = findInstOp(fn, 'traceRay') ?? findInstOp(fn, 'executeCallable');
    if (!site) return;
    const { block, index, inst } = site;
    const b = new Builder(ctx.m, fn);
    b.loc = inst.loc;
    const rest = b.splitBlockAt(block.id, index, inst.op === 'traceRay' ? 'trace.rest' : 'callable.rest');
    findBlock(fn, rest).insts.shift(); // drop the traceRay / executeCallable
    const head = findBlock(fn, block.id);
    head.insts.pop();
    b.setInsertPoint(block.id);
    if (inst.op === 'traceRay') lowerTraceRay(ctx, b, inst, rest);
    else if (inst.op === 'executeCallable') lowerExecuteCallable(ctx, b, inst, rest);
  }
}

type InstOp<O extends Inst['op']> = Extract<Inst, { op: O }>;

function lowerTraceRay(ctx: SiteContext, b: Builder, inst: InstOp<'traceRay'>, rest: BlockId): void {
  const m = ctx.m;
  const fn = b.fn;
  const { u32, i32, bool } = { u32: T.u32(m.types), i32: T.i32(m.types), bool: T.bool(m.types) };
  const voidT = T.void(m.types);
  const origin = componentsOf(b, inst.origin, 3);
  const dir = componentsOf(b, inst.direction, 3);
  const count = rtCall(b, 'traverse', [
    inst.accel, inst.rayFlags, inst.cullMask, inst.sbtOffset, inst.sbtStride, inst.missIndex,
    ...origin, inst.tmin, ...dir, inst.tmax,
  ], u32);
  const iVar = addLocalVariable(b, u32);
  b.emitVoid('store', { ptr: iVar, value: b.constU32(0) });
  const header = b.createBlock('trace.candidates');
  const body = b.createBlock('trace.candidate');
  const cont = b.createBlock('trace.next');
  const done = b.createBlock('trace.shade');
  b.emitVoid('branch', { target: header });

  b.setInsertPoint(header);
  findBlock(fn, header).merge = { kind: 'loop', merge: done, continue: cont };
  const i = b.emit('load', { ptr: iVar }, u32);
  const more = b.emit('compare', { kind: 'lt', a: i, b: count }, bool);
  const terminated = rtCall(b, 'terminated', [], bool);
  const live = b.emit('unary', { kind: 'not', a: terminated }, bool);
  const go = b.emit('binary', { kind: 'and', a: more, b: live }, bool);
  b.emitVoid('condBranch', { cond: go, ifTrue: body, ifFalse: done });

  b.setInsertPoint(body);
  const hg = rtCall(b, 'selectCandidate', [i], u32);
  const procedural = rtCall(b, 'candidateIsProcedural', [], bool);
  const procBlock = b.createBlock('trace.procedural');
  const triBlock = b.createBlock('trace.triangle');
  b.emitVoid('condBranch', { cond: procedural, ifTrue: procBlock, ifFalse: triBlock });
  findBlock(fn, body).merge = { kind: 'selection', merge: cont };

  // Procedural candidates: the hit group's intersection shader (it reports, runs any-hit, commits).
  b.setInsertPoint(procBlock);
  const isectCases: { value: number; target: BlockId }[] = [];
  ctx.hitGroups.forEach((g, k) => {
    if (!g.intersection || !accepts(b, g.anyHit, inst.payload)) return;
    const target = b.createBlock(`trace.isect${k}`);
    isectCases.push({ value: k, target });
  });
  emitSwitch(b, hg, isectCases, cont);
  for (const c of isectCases) {
    b.setInsertPoint(c.target);
    const g = ctx.hitGroups[c.value]!;
    // The any-hit an intersection shader reaches reads the caller's payload.
    callShader(b, g.intersection!, g.anyHit, inst.payload, voidT);
    b.emitVoid('branch', { target: cont });
  }

  // Non-opaque triangle candidates: any-hit decides; without one the candidate is accepted.
  b.setInsertPoint(triBlock);
  const closer = rtCall(b, 'acceptTriangleCandidate', [], bool);
  const triHit = b.createBlock('trace.triangle.closer');
  b.emitVoid('condBranch', { cond: closer, ifTrue: triHit, ifFalse: cont });
  findBlock(fn, triBlock).merge = { kind: 'selection', merge: cont };
  b.setInsertPoint(triHit);
  const commit = b.createBlock('trace.commit');
  const anyHitCases: { value: number; target: BlockId }[] = [];
  ctx.hitGroups.forEach((g, k) => {
    if (g.anyHit && accepts(b, g.anyHit, inst.payload)) anyHitCases.push({ value: k, target: b.createBlock(`trace.anyhit${k}`) });
  });
  emitSwitch(b, hg, anyHitCases, commit);
  for (const c of anyHitCases) {
    b.setInsertPoint(c.target);
    const g = ctx.hitGroups[c.value]!;
    const status = callShader(b, g.anyHit!, undefined, inst.payload, u32);
    const ignored = b.emit('compare', { kind: 'eq', a: status, b: b.constU32(1) }, bool);
    const accept = b.createBlock(`trace.anyhit${c.value}.accept`);
    b.emitVoid('condBranch', { cond: ignored, ifTrue: cont, ifFalse: accept });
    findBlock(fn, c.target).merge = { kind: 'selection', merge: cont };
    b.setInsertPoint(accept);
    rtCall(b, 'commitPending', [], voidT);
    const term = b.emit('compare', { kind: 'eq', a: status, b: b.constU32(2) }, bool);
    const terminate = b.createBlock(`trace.anyhit${c.value}.terminate`);
    b.emitVoid('condBranch', { cond: term, ifTrue: terminate, ifFalse: cont });
    findBlock(fn, accept).merge = { kind: 'selection', merge: cont };
    b.setInsertPoint(terminate);
    rtCall(b, 'requestTerminate', [], voidT);
    b.emitVoid('branch', { target: cont });
  }
  b.setInsertPoint(commit);
  rtCall(b, 'commitPending', [], voidT);
  b.emitVoid('branch', { target: cont });

  b.setInsertPoint(cont);
  const iNow = b.emit('load', { ptr: iVar }, u32);
  b.emitVoid('store', { ptr: iVar, value: b.emit('binary', { kind: 'add', a: iNow, b: b.constU32(1) }, u32) });
  b.emitVoid('branch', { target: header });

  // Shading: closest-hit of the committed hit group, or the miss shader, or nothing (skip closest-hit).
  b.setInsertPoint(done);
  const end = b.createBlock('trace.end');
  const committed = rtCall(b, 'committedHitGroup', [], i32);
  const chitCases: { value: number; target: BlockId }[] = [];
  ctx.hitGroups.forEach((g, k) => {
    if (g.closestHit && accepts(b, g.closestHit, inst.payload)) chitCases.push({ value: k, target: b.createBlock(`trace.chit${k}`) });
  });
  const missBlock = b.createBlock('trace.miss');
  emitSwitch(b, committed, [...chitCases, { value: -1, target: missBlock }], end);
  for (const c of chitCases) {
    b.setInsertPoint(c.target);
    rtCall(b, 'restoreCommitted', [], voidT);
    callShader(b, ctx.hitGroups[c.value]!.closestHit!, undefined, inst.payload, voidT);
    b.emitVoid('branch', { target: end });
  }
  b.setInsertPoint(missBlock);
  const missIndex = rtCall(b, 'missIndex', [], u32);
  const missCases: { value: number; target: BlockId }[] = [];
  ctx.miss.forEach((s, k) => {
    if (s && accepts(b, s, inst.payload)) missCases.push({ value: k, target: b.createBlock(`trace.miss${k}`) });
  });
  emitSwitch(b, missIndex, missCases, end);
  for (const c of missCases) {
    b.setInsertPoint(c.target);
    callShader(b, ctx.miss[c.value]!, undefined, inst.payload, voidT);
    b.emitVoid('branch', { target: end });
  }
  b.setInsertPoint(end);
  rtCall(b, 'endTrace', [], voidT);
  b.emitVoid('branch', { target: rest });
}

function lowerExecuteCallable(ctx: SiteContext, b: Builder, inst: InstOp<'executeCallable'>, rest: BlockId): void {
  const voidT = T.void(ctx.m.types);
  const cases = ctx.callables.flatMap((s, k) =>
    accepts(b, s, inst.callableData) ? [{ value: k, target: b.createBlock(`callable${k}`) }] : []);
  emitSwitch(b, inst.sbtIndex, cases, rest);
  for (const c of cases) {
    b.setInsertPoint(c.target);
    callShader(b, ctx.callables[c.value]!, undefined, inst.callableData, voidT);
    b.emitVoid('branch', { target: rest });
  }
}

/**
 * Calls a shader's entry with copy-in / copy-out of the caller's payload (`payload`, a pointer)
 * through the callee's incoming global, saving and restoring the callee's previous incoming value.
 * `alsoFor` is a second shader reached from the callee (the any-hit an intersection shader runs),
 * whose incoming payload must hold the caller's payload as well.
 */
function callShader(b: Builder, callee: ShaderEntry, alsoFor: ShaderEntry | undefined, payload: ValueId, resultType: TypeId): ValueId {
  const targets = [callee, alsoFor].filter((s): s is ShaderEntry => !!s?.incoming).map((s) => s.incoming!);
  const payloadType = pointeeOf(b.module, valueType(b, payload));
  const saved = targets.map((g) => {
    const t = pointeeOf(b.module, g.type);
    const old = b.emit('load', { ptr: g.id }, t);
    const incoming = b.emit('load', { ptr: payload }, payloadType);
    b.emitVoid('store', { ptr: g.id, value: convertValue(b, incoming, payloadType, t) });
    return { g, t, old };
  });
  const result = b.emit('call', { callee: callee.fn, args: [] }, resultType);
  for (const { g, t, old } of saved.slice(0, 1)) {
    const out = b.emit('load', { ptr: g.id }, t);
    b.emitVoid('store', { ptr: payload, value: convertValue(b, out, t, payloadType) });
  }
  for (const { g, old } of saved) b.emitVoid('store', { ptr: g.id, value: old });
  return result;
}

/**
 * Whether a shader can be called with this payload: its incoming payload has the same shape. A
 * call site dispatches only to the shaders it could legally reach; the SBT indices an application
 * computes select among those (selecting another is undefined behaviour in Vulkan, and here the
 * switch's default: no shader runs).
 */
function accepts(b: Builder, shader: ShaderEntry | undefined, payload: ValueId): boolean {
  if (!shader?.incoming) return true;
  return sameShape(b.module, pointeeOf(b.module, valueType(b, payload)), pointeeOf(b.module, shader.incoming.type));
}

function sameShape(m: Module, a: TypeId, b: TypeId): boolean {
  if (a === b) return true;
  const ta = typeOf(m.types, a);
  const tb = typeOf(m.types, b);
  if (ta.kind === 'struct' && tb.kind === 'struct') {
    return ta.members.length === tb.members.length && ta.members.every((x, i) => sameShape(m, x.type, tb.members[i]!.type));
  }
  if (ta.kind === 'array' && tb.kind === 'array') return ta.length === tb.length && sameShape(m, ta.elem, tb.elem);
  return false;
}

/** Converts a value between structurally identical types (nominal structs declared in two shaders). */
function convertValue(b: Builder, value: ValueId, from: TypeId, to: TypeId): ValueId {
  if (from === to) return value;
  const tt = b.module.types;
  const f = typeOf(tt, from);
  const t = typeOf(tt, to);
  if (f.kind === 'struct' && t.kind === 'struct' && f.members.length === t.members.length) {
    const parts = f.members.map((mem, k) =>
      convertValue(b, b.emit('extract', { value, indices: [k] }, mem.type), mem.type, t.members[k]!.type));
    return b.emit('construct', { parts }, to);
  }
  if (f.kind === 'array' && t.kind === 'array' && f.length === t.length) {
    const parts: ValueId[] = [];
    for (let k = 0; k < f.length; k++) {
      parts.push(convertValue(b, b.emit('extract', { value, indices: [k] }, f.elem), f.elem, t.elem));
    }
    return b.emit('construct', { parts }, to);
  }
  throw new PipelineLinkError(
    `payload type mismatch: the caller passes ${describe(tt, from)} but the shader declares ${describe(tt, to)}`,
  );
}

function describe(tt: Module['types'], id: TypeId): string {
  const t = typeOf(tt, id);
  return t.kind === 'struct' ? `struct ${t.name}` : t.kind;
}

function emitSwitch(b: Builder, selector: ValueId, cases: { value: number; target: BlockId }[], fallback: BlockId): void {
  const here = b.block;
  if (cases.length === 0) {
    b.emitVoid('branch', { target: fallback });
    return;
  }
  b.emitVoid('switch', { selector, default: fallback, cases });
  setSelectionMerge(findBlock(b.fn, here), fallback);
}

/** Marks a selection header unless the block already heads a loop (a loop merge must stay). */
function setSelectionMerge(block: { merge?: Function['blocks'][number]['merge'] }, merge: BlockId): void {
  if (block.merge?.kind !== 'loop') block.merge = { kind: 'selection', merge };
}

function rtCall(b: Builder, fn: RtRuntimeFn, args: ValueId[], type: TypeId): ValueId {
  return b.emit('rtCall', { fn, args }, type);
}

/** A function-storage variable at the start of the entry block (where the verifier wants it). */
function addLocalVariable(b: Builder, pointee: TypeId): ValueId {
  const m = b.module;
  const entry = b.fn.blocks[0]!;
  let at = 0;
  while (at < entry.insts.length && entry.insts[at]!.op === 'variable') at++;
  const id = m.nextId++ as ValueId;
  const loc: Loc = entry.insts[0]?.loc ?? b.loc;
  entry.insts.splice(at, 0, { op: 'variable', id, type: T.ptr(m.types, 'function', pointee), loc: { ...loc } });
  return id;
}

function componentsOf(b: Builder, vec: ValueId, n: number): ValueId[] {
  const elem = T.f32(b.module.types);
  const out: ValueId[] = [];
  for (let k = 0; k < n; k++) out.push(b.emit('extract', { value: vec, indices: [k] }, elem));
  return out;
}

function pointeeOf(m: Module, ptrType: TypeId): TypeId {
  const t = typeOf(m.types, ptrType);
  if (t.kind !== 'pointer') throw new PipelineLinkError(`expected a pointer, found ${t.kind}`);
  return t.pointee;
}

/** Type of a value visible in the builder's function: global, constant, parameter or instruction. */
function valueType(b: Builder, id: ValueId): TypeId {
  const m = b.module;
  const g = m.globals.find((x) => x.id === id);
  if (g) return g.type;
  const c = m.constants.find((x) => x.id === id);
  if (c) return c.type;
  const p = b.fn.params.find((x) => x.id === id);
  if (p) return p.type;
  for (const block of b.fn.blocks) for (const inst of block.insts) if (inst.id === id) return inst.type;
  throw new PipelineLinkError(`value %${id} not found`);
}

function findInstOp(fn: Function, op: Inst['op']): { block: Function['blocks'][number]; index: number; inst: Inst } | undefined {
  for (const block of fn.blocks) {
    const index = block.insts.findIndex((i) => i.op === op);
    if (index >= 0) return { block, index, inst: block.insts[index]! };
  }
  return undefined;
}
