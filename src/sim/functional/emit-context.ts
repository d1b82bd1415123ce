/**
 * The interface instruction emitters use to produce JavaScript for one instruction of a lane loop
 * or a warp-wide segment. The function compiler implements it; emitters never see how values are
 * stored (locals vs register file), only expressions.
 *
 * Conventions the generated code keeps (every emitter relies on them):
 * - Inside a lane loop the current lane is the JS variable `l`, the active mask `mask`, the frame's
 *   register file `R` (Float64Array, slot-major: `R[slot*32 + lane]`), the warp runtime `W`.
 * - `read(v, k, lane)` is an expression for leaf k of value v at `lane` (default `l`); it may be a
 *   literal, a local, or a register read; reading another lane is only valid for register-resident
 *   values and materialisable ones (constants, globals, variables).
 * - `def(id, exprs)` binds the result leaves; each expr is evaluated exactly once, in order.
 */
import type { FloatModel } from './float-model.js';
import type { Inst, ValueId } from '../../ir/inst.js';
import type { Module } from '../../ir/module.js';
import type { TypeId } from '../../ir/types.js';
import type { LayoutTable, LeafKind, MatrixDecoration } from './layout.js';
import type { MemorySpace, OpClass } from '../warp-step.js';

/** What the compiler knows statically about where a pointer value points. */
export type PtrBase =
  /** A buffer-like region; `region` is the global (position in Module.globals) whose single buffer it is, when statically known. */
  | { kind: 'shared'; space: 'global' | 'constant'; region?: number; workgroup?: boolean }
  /**
   * Per-lane private memory; `fnStorage` marks function-storage (register-class) locals;
   * `rtState` marks the ray tracing pipeline's per-thread state (payloads, hit attributes,
   * callable data), whose accesses the timing model lays out as gpgpu_rt_thread_state says.
   */
  | { kind: 'private'; fnStorage: boolean; rtState?: boolean }
  /** Anything (pointer parameters, phis of pointers): decided at run time by the sign. */
  | { kind: 'generic' }
  /** A built-in input variable; `leaf` = first leaf of the pointee within the builtin's value. */
  | { kind: 'builtin'; builtin: string; leaf: number }
  /** Opaque handles (images, samplers, acceleration structures): the pointer value is the table index. */
  | { kind: 'handle'; table: 'images' | 'samplers' | 'accels'; global: number }
  /** A descriptor array of buffers, before its first index selected one buffer. */
  | { kind: 'bufferArray'; global: number; space: 'global' | 'constant' };

export interface PtrInfo {
  base: PtrBase;
  pointee: TypeId;
  /** Matrix decoration of the member the pointer points into (matrix pointees only). */
  mat?: MatrixDecoration;
  /** Byte distance between the components of a vector pointee that is a column of a row-major matrix. */
  vecStride?: number;
}

/** A memory access site of the current piece (reported to the timing model in WarpStep.memory). */
export interface MemSite {
  instIndex: number;
  kind: 'load' | 'store' | 'atomic';
  /** Bytes per lane. */
  size: number;
  space: MemorySpace;
  /**
   * The 32-bit words of the access that go to memory, bit k for word k (words from the 32nd on
   * always go): -1 for all; fewer for a store whose other words NIR drops (redundant-stores.ts).
   */
  wordMask: number;
}

export interface EmitContext {
  readonly module: Module;
  readonly layout: LayoutTable;
  /** How float division, normalize, inversesqrt and pow are evaluated (float-model.ts). */
  readonly floatModel: FloatModel;
  read(v: ValueId, k: number, lane?: string): string;
  leaves(v: ValueId): LeafKind[];
  typeOfValue(v: ValueId): TypeId;
  /** Constant value of v when it is a scalar constant (not a spec constant). */
  constantValue(v: ValueId): number | boolean | undefined;
  ptrInfo(v: ValueId): PtrInfo;
  setPtrInfo(v: ValueId, p: PtrInfo): void;
  def(id: ValueId, exprs: string[]): void;
  /** Statement writing leaf k of a register-resident result at lane `lane` (warp-wide segments). */
  regWrite(id: ValueId, k: number, lane: string, expr: string): string;
  /** Emits a statement line. */
  line(s: string): void;
  /** A fresh JS identifier. */
  tmp(prefix?: string): string;
  /** Index of this instruction's site (for located errors and printf). */
  site(inst: Inst): number;
  /** Requests a prelude binding (`const name = init;`) at the top of the piece function. */
  need(name: string, init: string): void;
  /** Registers a memory site for the timing model; returns the JS expression of its address array index. */
  memSite(inst: Inst, kind: MemSite['kind'], size: number, space: MemSite['space'], wordMask?: number): number;
  /** Per leaf of a load's or store's value, whether it is accessed (redundant-stores.ts, dead-results.ts); undefined: every leaf. */
  keptLeaves(inst: Inst): readonly boolean[] | undefined;
  /** Whether NIR deletes the instruction (dead-results.ts): a load or store of it sends nothing. */
  removedByNir(inst: Inst): boolean;
  /** The issue class the current instruction will be reported with (emitters may override the default). */
  setClass(c: OpClass): void;
}

/** JS literal of a number (keeps -0, NaN, infinities). */
export function numLit(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '(-Infinity)';
  if (Object.is(x, -0)) return '(-0)';
  return x < 0 ? `(${x})` : String(x);
}
