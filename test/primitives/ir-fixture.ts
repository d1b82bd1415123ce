/**
 * Hand-built IR for primitive and pass tests (until the GLSL front end is used): a ray generation
 * shader whose control flow is spelled out block by block with the Builder.
 */
import { Builder, addFunction, addGlobal } from '../../src/ir/builder.js';
import type { BlockId, ValueId } from '../../src/ir/inst.js';
import { newModule, type Function, type Module, type Stage } from '../../src/ir/module.js';
import { T } from '../../src/ir/types.js';

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

/** Emits `gl_LaunchIDEXT.x < n` at the cursor. */
export function launchXBelow(f: ShaderFixture, n: number, line: number): ValueId {
  const { b } = f;
  b.loc = { file: 0, line, column: 3 };
  const id = b.emit('load', { ptr: f.launchId }, b.t.vec(b.t.u32, 3));
  const x = b.emit('extract', { value: id, indices: [0] }, b.t.u32);
  return b.emit('compare', { kind: 'lt', a: x, b: b.constU32(n) }, b.t.bool);
}

/** Emits a dummy arithmetic instruction at `line` (so blocks have sizes and lines). */
export function work(f: ShaderFixture, line: number, count = 1): void {
  for (let i = 0; i < count; i++) {
    f.b.loc = { file: 0, line, column: 5 };
    f.b.emit('binary', { kind: 'add', a: f.b.constU32(i), b: f.b.constU32(1) }, f.b.t.u32);
  }
}

/**
 * if (launchID.x < split) { then: thenInsts } else { else: elseInsts }; merge: return.
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
  const cond = launchXBelow(f, split, 3);
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
