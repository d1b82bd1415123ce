/**
 * A compiled program: every function of a module compiled to per-block JS pieces, with the static
 * per-block information the warp, the counters and the timing model use (instruction counts, op
 * classes, memory sites, successors, reconvergence points) and the site table for located errors.
 *
 * Invariants: `functions[i].blocks[j].globalIndex` numbers all blocks of the program densely from
 * 0 (`blockCount` in total), in function order then block layout order; `blockNames[k]` is
 * `<function>/<block>` for the block with global index k. A program is immutable once built and
 * can be launched any number of times.
 */
import type { FloatModel } from './float-model.js';
import type { FunctionId, Inst, ValueId } from '../../ir/inst.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { dominatorTrees, FirstUseLoads } from './first-use-loads.js';
import { InlinedCalls } from './inlined-calls.js';
import { tracePtx } from './trace-ray-ptx.js';
import { promotableVariables } from './promoted-vars.js';
import { redundantInstructions } from './redundant-instructions.js';
import { ReturnSummaries } from './redundant-stores.js';
import { deadInstructions } from './dead-results.js';
import type { Module } from '../../ir/module.js';
import { FunctionCompiler, type FunctionInfo } from './compile-to-js.js';
import { ModuleStatics } from './module-statics.js';
import type { Site } from './errors.js';
import { compileLaneSerial, laneSerialEligible, type LaneFn } from './compile-lane-serial.js';

export interface Program {
  module: Module;
  statics: ModuleStatics;
  functions: FunctionInfo[];
  byId: Map<FunctionId, FunctionInfo>;
  sites: Site[];
  blockCount: number;
  blockNames: string[];
  /** Lane-serial functions by function position; absent when lanes could observe each other (subgroup ops, clocks, printf, atomics). */
  laneFns?: LaneFn[];
}

/** `floatModel`: how float division, normalize and pow are evaluated (float-model.ts). */
export function compileProgram(m: Module, floatModel: FloatModel = 'ieee'): Program {
  const statics = new ModuleStatics(m, floatModel);
  const sites: Site[] = [];
  const functions: FunctionInfo[] = [];
  const blockNames: string[] = [];
  let blockCount = 0;
  // A constant is a register operand of anything but an access chain (there it is an offset).
  const domOf = dominatorTrees();
  const leafCount = (t: TypeId) => statics.layout.leavesOf(t).length;
  const dead = deadInstructions(m, leafCount);
  // An instruction NIR deletes loads nothing: its constants and descriptors are loaded at their first live use.
  const deleted = new Set([...dead.values()].flatMap((d) => [...d.dead]));
  const firstUse = {
    constants: new FirstUseLoads(m, (inst, v) => (inst.op === 'accessChain' || deleted.has(inst) ? 0 : constantComponents(m, statics, v)), domOf),
    descriptors: new FirstUseLoads(m, (inst, v) => (!deleted.has(inst) && isBufferRootOperand(statics, inst, v) ? 1 : 0), domOf),
  };
  const inlined = new InlinedCalls(m, promotableVariables);
  const trace = tracePtx(m);
  const storeSummaries = new ReturnSummaries(
    { module: m, leafCount },
    (fn) => redundantInstructions(fn, domOf(fn), promotableVariables(fn)).numberOf,
  );
  for (const fn of m.functions) {
    const info = new FunctionCompiler(m, fn, statics, sites, blockCount, firstUse, inlined, trace, storeSummaries, dead).compile();
    info.index = functions.length;
    functions.push(info);
    for (const b of info.blocks) blockNames[b.globalIndex] = `${fn.name}/${b.name}`;
    blockCount += fn.blocks.length;
  }
  const p: Program = { module: m, statics, functions, byId: new Map(functions.map((f) => [f.id, f])), sites, blockCount, blockNames };
  if (laneSerialEligible(m)) p.laneFns = compileLaneSerial(m, statics, sites, functions);
  return p;
}

/**
 * Whether operand v of `inst` is a descriptor-backed variable (storage buffer, uniform block,
 * shader record) that `inst` addresses: a load's or store's pointer, an access chain's base.
 */
function isBufferRootOperand(statics: ModuleStatics, inst: Inst, v: ValueId): boolean {
  const ptr = inst.op === 'load' || inst.op === 'store' ? inst.ptr : inst.op === 'accessChain' ? inst.base : undefined;
  return ptr === v && statics.isDescriptorBacked(v);
}

/** Components of a numeric or boolean constant (scalar 1, vector n), 0 for any other value. */
function constantComponents(m: Module, statics: ModuleStatics, v: ValueId): number {
  const type = statics.constantLeaves(v) === undefined ? undefined : statics.valueType(v);
  if (type === undefined) return 0;
  let t = typeOf(m.types, type);
  const n = t.kind === 'vector' ? t.count : 1;
  if (t.kind === 'vector') t = typeOf(m.types, t.elem);
  return t.kind === 'float' || t.kind === 'int' || t.kind === 'bool' ? n : 0;
}

/** The generated JS of one function (for debugging and `vvision sim --dump-js`). */
export function functionSource(p: Program, id: FunctionId): string {
  const f = p.byId.get(id);
  return f ? f.source : '';
}
