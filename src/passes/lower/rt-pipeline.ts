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
import type { BlockId, FunctionId, Inst, ValueId } from '../../ir/inst.js';
import { newModule, type Function, type Module, type Stage } from '../../ir/module.js';
import { T, typeOf } from '../../ir/types.js';
import { importModule, type ImportedModule } from './import-module.js';
import { accepts, callShader, PipelineLinkError, type ShaderEntry } from './shader-call.js';
import { addLocalVariable, componentsOf, emitSwitch, findInstOp, rtCall, setSelectionMerge } from './emit-helpers.js';
import { emitCoalescedCandidateLoop, emitDelayedCandidateLoop } from './candidate-loop.js';

export { PipelineLinkError } from './shader-call.js';

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


export interface LinkOptions {
  /** Lower traceRay with function call coalescing (Vulkan-Sim Section IV-A, Algorithm 3). */
  fcc?: boolean;
}

export function linkPipeline(stages: PipelineStages, opts: LinkOptions = {}): LinkedPipeline {
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
    const fn = im.entries[0]!;
    // The lowered pipeline calls each stage's entry (Vulkan-Sim: call_*_shader ... ret); what it calls, NIR inlines.
    m.functions.find((f) => f.id === fn)!.stage = expected;
    return fn;
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

  const ctx: SiteContext = { m, fcc: opts.fcc ?? false, miss, callables, hitGroups };
  for (const f of [...m.functions]) lowerCallSites(ctx, f);
  m.entryPoints = [{ stage: 'raygen', function: raygenFn, name: 'main' }];
  return { module: m, shaders };
}

interface SiteContext {
  m: Module;
  /** Function call coalescing (Vulkan-Sim Algorithm 3) instead of the per-thread candidate loop. */
  fcc: boolean;
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
    // Split before adding the local: the variable goes into the entry block, which may be this
    // block, and would shift `index` past the reportIntersection.
    const rest = b.splitBlockAt(block.id, index, 'report.rest');
    const accepted = addLocalVariable(b, boolT);
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
    const before = new Set(fn.blocks.map((x) => x.id));
    if (inst.op === 'traceRay') lowerTraceRay(ctx, b, inst, rest);
    else if (inst.op === 'executeCallable') lowerExecuteCallable(ctx, b, inst, rest);
    if (inst.op === 'traceRay') for (const x of fn.blocks) if (!before.has(x.id)) x.lowered = 'traceRay';
  }
}

type InstOp<O extends Inst['op']> = Extract<Inst, { op: O }>;

function lowerTraceRay(ctx: SiteContext, b: Builder, inst: InstOp<'traceRay'>, rest: BlockId): void {
  const { u32, i32, void: voidT } = b.t;
  const origin = componentsOf(b, inst.origin, 3);
  const dir = componentsOf(b, inst.direction, 3);
  const count = rtCall(b, 'traverse', [
    inst.accel, inst.rayFlags, inst.cullMask, inst.sbtOffset, inst.sbtStride, inst.missIndex,
    ...origin, inst.tmin, ...dir, inst.tmax,
  ], u32);
  const done = b.createBlock('trace.shade');
  const loop = { hitGroups: ctx.hitGroups, payload: inst.payload };
  if (ctx.fcc) emitCoalescedCandidateLoop(b, loop, done);
  else emitDelayedCandidateLoop(b, loop, count, done);

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

