/**
 * Hand-built IR for primitive and pass tests (until the GLSL front end is used): a ray generation
 * shader whose control flow is spelled out block by block with the Builder.
 */
import { Builder, addFunction, addGlobal, findBlock } from '../../src/ir/builder.js';
import type { BlockId, ValueId } from '../../src/ir/inst.js';
import { freshId, newModule, type Function, type Module, type Stage } from '../../src/ir/module.js';
import { T, intern } from '../../src/ir/types.js';

export interface ShaderFixture {
  m: Module;
  fn: Function;
  b: Builder;
  launchId: ValueId;
}

/** A module with one entry function `main` of `stage` and its entry block; cursor in the entry block. */
export function shaderModule(stage: Stage = 'raygen', path = 'test.rgen', text = ''): ShaderFixture {
  const m = newModule();
  m.sources.push({ path, text });
  const fn = addFunction(m, { name: 'main', returnType: T.void(m.types), loc: { file: 0, line: 1, column: 1 } });
  m.entryPoints.push({ stage, function: fn.id, name: 'main' });
  const b = new Builder(m, fn);
  const entry = b.createBlock('entry');
  b.setInsertPoint(entry);
  const uvec3 = T.vec(m.types, T.u32(m.types), 3);
  const launchId = addGlobal(m, { name: 'gl_LaunchIDEXT', type: T.ptr(m.types, 'input', uvec3), storage: 'input', builtin: 'LaunchId', loc: { file: 0, line: 0, column: 0 } });
  return { m, fn, b, launchId };
}

/** Emits `gl_LaunchIDEXT.x % 32 < n` (the lane index, in a 1-D launch, is below n) at the cursor. */
export function laneBelow(f: ShaderFixture, n: number, line: number): ValueId {
  const { b } = f;
  b.loc = { file: 0, line, column: 3 };
  const id = b.emit('load', { ptr: f.launchId }, b.t.vec(b.t.u32, 3));
  const x = b.emit('extract', { value: id, indices: [0] }, b.t.u32);
  const lane = b.emit('binary', { kind: 'rem', a: x, b: b.constU32(32) }, b.t.u32);
  return b.emit('compare', { kind: 'lt', a: lane, b: b.constU32(n) }, b.t.bool);
}

/** Emits a dummy arithmetic instruction at `line` (so blocks have sizes and lines). */
export function work(f: ShaderFixture, line: number, count = 1): void {
  for (let i = 0; i < count; i++) {
    f.b.loc = { file: 0, line, column: 5 };
    f.b.emit('binary', { kind: 'add', a: f.b.constU32(i), b: f.b.constU32(1) }, f.b.t.u32);
  }
}

/**
 * if (launchID.x % 32 < split) { then: thenInsts } else { else: elseInsts }; merge: return.
 * Lines: entry 2, then 3, else 5, merge 7.
 */
export function branchShader(split: number, sizes = { entry: 2, then: 3, else: 4, merge: 1 }): ShaderFixture & { blocks: Record<'entry' | 'then' | 'else' | 'merge', BlockId> } {
  const f = shaderModule('raygen', 'branch.rgen', 'void main() {\n  work();\n  if (x < 12) {\n    a();\n  } else {\n    b();\n  }\n}\n');
  const { b, fn } = f;
  const entry = fn.blocks[0]!.id;
  const then = b.createBlock('if.then');
  const els = b.createBlock('if.else');
  const merge = b.createBlock('if.merge');
  b.setInsertPoint(entry);
  work(f, 2, sizes.entry);
  const cond = laneBelow(f, split, 3);
  b.emitVoid('condBranch', { cond, ifTrue: then, ifFalse: els });
  fn.blocks[0]!.merge = { kind: 'selection', merge };
  b.setInsertPoint(then);
  work(f, 4, sizes.then);
  b.emitVoid('branch', { target: merge });
  b.setInsertPoint(els);
  work(f, 6, sizes.else);
  b.emitVoid('branch', { target: merge });
  b.setInsertPoint(merge);
  work(f, 8, sizes.merge - 1);
  b.loc = { file: 0, line: 8, column: 1 };
  b.emitVoid('return', {});
  return { ...f, blocks: { entry, then, else: els, merge } };
}

/** Launch ids of warp `w` for a 1-D launch of `width` threads, 32 lanes per warp. */
export function warpLaunch(w: number, width: number): { launchIds: [number, number, number][]; launchSize: [number, number, number] } {
  const launchIds: [number, number, number][] = [];
  for (let l = 0; l < 32 && w * 32 + l < width; l++) launchIds.push([w * 32 + l, 0, 0]);
  return { launchIds, launchSize: [width, 1, 1] };
}

/** Emits a traceRay with constant ray parameters at the cursor (the payload and TLAS are globals). */
export function emitTraceRay(f: ShaderFixture, line: number): ValueId {
  const { m, b } = f;
  b.loc = { file: 0, line, column: 5 };
  let tlas = m.globals.find((g) => g.name === 'tlas')?.id;
  let payload = m.globals.find((g) => g.name === 'payload')?.id;
  const f32 = b.t.f32;
  const vec3 = b.t.vec(f32, 3);
  if (tlas === undefined) {
    const accel = intern(m.types, { kind: 'accelerationStructure' });
    tlas = addGlobal(m, { name: 'tlas', type: T.ptr(m.types, 'uniformConstant', accel), storage: 'uniformConstant', set: 0, binding: 0, loc: { file: 0, line: 1, column: 1 } });
    payload = addGlobal(m, { name: 'payload', type: T.ptr(m.types, 'rayPayload', vec3), storage: 'rayPayload', location: 0, loc: { file: 0, line: 1, column: 1 } });
  }
  const accelValue = b.emit('load', { ptr: tlas }, intern(m.types, { kind: 'accelerationStructure' }));
  const one = b.constF32(1);
  const v = b.constant(vec3, null, [one, one, one]);
  return b.emitVoid('traceRay', {
    accel: accelValue, rayFlags: b.constU32(0), cullMask: b.constU32(0xff), sbtOffset: b.constU32(0), sbtStride: b.constU32(0),
    missIndex: b.constU32(0), origin: v, tmin: b.constF32(0.001), direction: v, tmax: b.constF32(1000), payload: payload!,
  });
}

/**
 * Fig. 9's bounce loop: lane with launch x bounces `x % 4` times (without `withTrace`, the body
 * does an add instead of the traceRay, for runs without an RT runtime).
 *   entry:  n = x % 4; branch header                            (line 2)
 *   header: i = phi(0, i+1); if (i < n) body else exit          (line 3; loop merge exit, continue latch)
 *   body:   traceRay; branch latch                              (line 4)
 *   latch:  i + 1; branch header                                (line 5)
 *   exit:   return                                              (line 7)
 */
export function bounceLoopShader(withTrace = true): ShaderFixture & { blocks: Record<'entry' | 'header' | 'body' | 'latch' | 'exit', BlockId>; traceRay: ValueId } {
  const text = 'void main() {\n  uint n = gl_LaunchIDEXT.x % 4;\n  for (uint i = 0; i < n; i++) {\n    traceRayEXT(tlas, 0, 0xff, 0, 0, 0, o, 0.001, d, 1000, 0);\n  }\n  // done\n}\n';
  const f = shaderModule('raygen', 'bounce.rgen', text);
  const { b, fn, m } = f;
  const entry = fn.blocks[0]!.id;
  const header = b.createBlock('for.header');
  const body = b.createBlock('for.body');
  const latch = b.createBlock('for.latch');
  const exit = b.createBlock('for.exit');
  const u32 = b.t.u32;
  b.setInsertPoint(entry);
  b.loc = { file: 0, line: 2, column: 3 };
  const id = b.emit('load', { ptr: f.launchId }, b.t.vec(u32, 3));
  const x = b.emit('extract', { value: id, indices: [0] }, u32);
  const n = b.emit('binary', { kind: 'rem', a: x, b: b.constU32(4) }, u32);
  b.emitVoid('branch', { target: header });
  b.setInsertPoint(header);
  b.loc = { file: 0, line: 3, column: 3 };
  const phiId = freshId<ValueId>(m);
  const next = freshId<ValueId>(m);
  findBlock(fn, header).insts.push({ op: 'phi', id: phiId, type: u32, loc: { ...b.loc }, incoming: [{ value: b.constU32(0), block: entry }, { value: next, block: latch }] });
  const cond = b.emit('compare', { kind: 'lt', a: phiId, b: n }, b.t.bool);
  b.emitVoid('condBranch', { cond, ifTrue: body, ifFalse: exit });
  findBlock(fn, header).merge = { kind: 'loop', merge: exit, continue: latch };
  b.setInsertPoint(body);
  const traceRay = withTrace ? emitTraceRay(f, 4) : b.emit('binary', { kind: 'add', a: phiId, b: b.constU32(7) }, u32);
  b.emitVoid('branch', { target: latch });
  b.setInsertPoint(latch);
  b.loc = { file: 0, line: 3, column: 30 };
  findBlock(fn, latch).insts.push({ op: 'binary', kind: 'add', a: phiId, b: b.constU32(1), id: next, type: u32, loc: { ...b.loc } });
  b.emitVoid('branch', { target: header });
  b.setInsertPoint(exit);
  b.loc = { file: 0, line: 7, column: 1 };
  b.emitVoid('return', {});
  return { ...f, blocks: { entry, header, body, latch, exit }, traceRay };
}

/**
 * A raygen with an early return: lanes with x % 4 == 0 return at line 3; the others trace at line 5
 * and return at the end of main (line 7).
 */
export function earlyReturnShader(): ShaderFixture & { blocks: Record<'entry' | 'early' | 'trace', BlockId> } {
  const text = 'void main() {\n  if (gl_LaunchIDEXT.x % 4 == 0)\n    return;\n  work();\n  traceRayEXT(...);\n  store();\n}\n';
  const f = shaderModule('raygen', 'early.rgen', text);
  const { b, fn } = f;
  const entry = fn.blocks[0]!.id;
  const early = b.createBlock('if.then');
  const trace = b.createBlock('if.merge');
  const u32 = b.t.u32;
  b.setInsertPoint(entry);
  b.loc = { file: 0, line: 2, column: 3 };
  const id = b.emit('load', { ptr: f.launchId }, b.t.vec(u32, 3));
  const x = b.emit('extract', { value: id, indices: [0] }, u32);
  const r = b.emit('binary', { kind: 'rem', a: x, b: b.constU32(4) }, u32);
  const c = b.emit('compare', { kind: 'eq', a: r, b: b.constU32(0) }, b.t.bool);
  b.emitVoid('condBranch', { cond: c, ifTrue: early, ifFalse: trace });
  findBlock(fn, entry).merge = { kind: 'selection', merge: trace };
  b.setInsertPoint(early);
  b.loc = { file: 0, line: 3, column: 5 };
  b.emitVoid('return', {});
  b.setInsertPoint(trace);
  work(f, 4, 2);
  emitTraceRay(f, 5);
  work(f, 6, 1);
  b.loc = { file: 0, line: 7, column: 1 };
  b.emitVoid('return', {});
  return { ...f, blocks: { entry, early, trace } };
}
