/**
 * SPIR-V for the IR's synchronising and resource ops, split from function-writer.ts: atomics
 * (Device scope, relaxed semantics, as GLSL's atomic*() on buffers), subgroup operations
 * (Subgroup scope; the capability each group needs) and image operations (image operands; LOD 0
 * for texture() outside fragment and compute shaders, as glslang writes it).
 */
import type { Inst, ValueId } from '../../ir/inst.js';
import type { Module } from '../../ir/module.js';
import { Capability, GroupOperationCode, ImageOperand, Op, Scope } from '../../ir/spirv-enums.js';
import { typeOf, type Type } from '../../ir/types.js';
import { SpirvWriteError, type ModuleWriter } from './module-writer.js';

export type ScalarKind = 'float' | 'sint' | 'uint' | 'bool' | 'other';

/** What these writers need from the function writer. */
export interface OpWriterContext {
  readonly w: ModuleWriter;
  readonly m: Module;
  v(id: ValueId): number;
  scalarKind(id: number): ScalarKind;
  typeOfValue(id: number): Type;
}

export function kindOfType(w: ModuleWriter, t: Type): ScalarKind {
  const scalar = t.kind === 'vector' ? typeOf(w.types, t.elem) : t.kind === 'matrix' ? scalarOfMatrix(w, t) : t;
  if (scalar.kind === 'float') return 'float';
  if (scalar.kind === 'int') return scalar.signed ? 'sint' : 'uint';
  if (scalar.kind === 'bool') return 'bool';
  return 'other';
}

function scalarOfMatrix(w: ModuleWriter, t: Type & { kind: 'matrix' }): Type {
  const col = typeOf(w.types, t.column);
  return col.kind === 'vector' ? typeOf(w.types, col.elem) : col;
}

export function scalarWidth(w: ModuleWriter, t: Type): number {
  const scalar = t.kind === 'vector' ? typeOf(w.types, t.elem) : t;
  return scalar.kind === 'int' || scalar.kind === 'float' ? scalar.width : 32;
}

export function writeAtomic(cx: OpWriterContext, inst: Extract<Inst, { op: 'atomic' }>, rt: number): void {
  const s = cx.w.functions;
  const ptr = cx.v(inst.ptr);
  const pt = cx.typeOfValue(inst.ptr);
  if (pt.kind === 'pointer' && scalarWidth(cx.w, typeOf(cx.w.types, pt.pointee)) === 64) cx.w.capabilities.add(Capability.Int64Atomics);
  const scope = cx.w.constant32(Scope.Device);
  const relaxed = cx.w.constant32(0);
  const value = inst.value !== undefined ? cx.v(inst.value) : 0;
  const signed = cx.scalarKind(inst.value ?? inst.id) === 'sint';
  switch (inst.kind) {
    case 'load': s.emit(Op.AtomicLoad, [rt, inst.id, ptr, scope, relaxed]); return;
    case 'store': s.emit(Op.AtomicStore, [ptr, scope, relaxed, value]); return;
    case 'compareExchange':
      s.emit(Op.AtomicCompareExchange, [rt, inst.id, ptr, scope, relaxed, relaxed, value, cx.v(inst.comparator!)]);
      return;
    default: {
      const op = {
        exchange: Op.AtomicExchange, add: Op.AtomicIAdd, sub: Op.AtomicISub, and: Op.AtomicAnd, or: Op.AtomicOr,
        xor: Op.AtomicXor, min: signed ? Op.AtomicSMin : Op.AtomicUMin, max: signed ? Op.AtomicSMax : Op.AtomicUMax,
      }[inst.kind];
      s.emit(op, [rt, inst.id, ptr, scope, relaxed, value]);
    }
  }
}


export function writeSubgroup(cx: OpWriterContext, inst: Extract<Inst, { op: 'subgroup' }>, rt: number): void {
  const caps = cx.w.capabilities;
  caps.add(Capability.GroupNonUniform);
  const scope = cx.w.constant32(Scope.Subgroup);
  const args = inst.args.map((a) => cx.v(a));
  const k = inst.args.length > 0 ? cx.scalarKind(inst.args[0]!) : 'other';
  const group = GroupOperationCode[inst.group ?? 'reduce'];
  let op: number;
  let withGroup = false;
  switch (inst.kind) {
    case 'elect': op = Op.GroupNonUniformElect; break;
    case 'all': op = Op.GroupNonUniformAll; caps.add(Capability.GroupNonUniformVote); break;
    case 'any': op = Op.GroupNonUniformAny; caps.add(Capability.GroupNonUniformVote); break;
    case 'allEqual': op = Op.GroupNonUniformAllEqual; caps.add(Capability.GroupNonUniformVote); break;
    case 'ballot': op = Op.GroupNonUniformBallot; caps.add(Capability.GroupNonUniformBallot); break;
    case 'inverseBallot': op = Op.GroupNonUniformInverseBallot; caps.add(Capability.GroupNonUniformBallot); break;
    case 'ballotBitExtract': op = Op.GroupNonUniformBallotBitExtract; caps.add(Capability.GroupNonUniformBallot); break;
    case 'ballotBitCount': op = Op.GroupNonUniformBallotBitCount; withGroup = true; caps.add(Capability.GroupNonUniformBallot); break;
    case 'ballotFindLSB': op = Op.GroupNonUniformBallotFindLSB; caps.add(Capability.GroupNonUniformBallot); break;
    case 'ballotFindMSB': op = Op.GroupNonUniformBallotFindMSB; caps.add(Capability.GroupNonUniformBallot); break;
    case 'broadcast': op = Op.GroupNonUniformBroadcast; caps.add(Capability.GroupNonUniformBallot); break;
    case 'broadcastFirst': op = Op.GroupNonUniformBroadcastFirst; caps.add(Capability.GroupNonUniformBallot); break;
    case 'shuffle': op = Op.GroupNonUniformShuffle; caps.add(Capability.GroupNonUniformShuffle); break;
    case 'shuffleXor': op = Op.GroupNonUniformShuffleXor; caps.add(Capability.GroupNonUniformShuffle); break;
    case 'shuffleUp': op = Op.GroupNonUniformShuffleUp; caps.add(Capability.GroupNonUniformShuffleRelative); break;
    case 'shuffleDown': op = Op.GroupNonUniformShuffleDown; caps.add(Capability.GroupNonUniformShuffleRelative); break;
    default: {
      caps.add(Capability.GroupNonUniformArithmetic);
      withGroup = true;
      const f = k === 'float';
      const b = k === 'bool';
      const sgn = k === 'sint';
      op = {
        add: f ? Op.GroupNonUniformFAdd : Op.GroupNonUniformIAdd,
        mul: f ? Op.GroupNonUniformFMul : Op.GroupNonUniformIMul,
        min: f ? Op.GroupNonUniformFMin : sgn ? Op.GroupNonUniformSMin : Op.GroupNonUniformUMin,
        max: f ? Op.GroupNonUniformFMax : sgn ? Op.GroupNonUniformSMax : Op.GroupNonUniformUMax,
        and: b ? Op.GroupNonUniformLogicalAnd : Op.GroupNonUniformBitwiseAnd,
        or: b ? Op.GroupNonUniformLogicalOr : Op.GroupNonUniformBitwiseOr,
        xor: b ? Op.GroupNonUniformLogicalXor : Op.GroupNonUniformBitwiseXor,
      }[inst.kind];
    }
  }
  cx.w.functions.emit(op, [rt, inst.id, scope, ...(withGroup ? [group] : []), ...args]);
}


export function writeImage(cx: OpWriterContext, inst: Extract<Inst, { op: 'image' }>, rt: number): void {
  const s = cx.w.functions;
  const a = inst.args.map((x) => cx.v(x));
  const operands = (): number[] => {
    let mask = 0;
    const extra: number[] = [];
    if (inst.bias !== undefined) { mask |= ImageOperand.Bias; extra.push(cx.v(inst.bias)); }
    if (inst.lod !== undefined) { mask |= ImageOperand.Lod; extra.push(cx.v(inst.lod)); }
    if (inst.offset !== undefined) {
      mask |= cx.w.isConstant(inst.offset) ? ImageOperand.ConstOffset : ImageOperand.Offset;
      extra.push(cx.v(inst.offset));
    }
    return mask === 0 ? [] : [mask, ...extra];
  };
  const imageType = cx.typeOfValue(inst.args[0]!);
  const unknownFormat = imageType.kind === 'image' && !imageType.sampled && imageType.format === 'unknown';
  switch (inst.kind) {
    case 'read':
      if (unknownFormat) cx.w.capabilities.add(Capability.StorageImageReadWithoutFormat);
      s.emit(Op.ImageRead, [rt, inst.id, a[0]!, a[1]!, ...operands()]);
      return;
    case 'write':
      if (unknownFormat) cx.w.capabilities.add(Capability.StorageImageWriteWithoutFormat);
      s.emit(Op.ImageWrite, [a[0]!, a[1]!, a[2]!, ...operands()]);
      return;
    case 'querySize':
      cx.w.capabilities.add(Capability.ImageQuery);
      s.emit(Op.ImageQuerySize, [rt, inst.id, a[0]!]);
      return;
    case 'querySizeLod':
      cx.w.capabilities.add(Capability.ImageQuery);
      s.emit(Op.ImageQuerySizeLod, [rt, inst.id, a[0]!, a[1]!]);
      return;
    case 'queryLevels':
      cx.w.capabilities.add(Capability.ImageQuery);
      s.emit(Op.ImageQueryLevels, [rt, inst.id, a[0]!]);
      return;
    case 'sampleImplicitLod': {
      if (cx.m.entryPoints[0]?.stage === 'compute') {
        s.emit(Op.ImageSampleImplicitLod, [rt, inst.id, a[0]!, a[1]!, ...operands()]);
        return;
      }
      // Ray tracing stages have no derivatives: texture() samples level 0, as glslang writes it.
      if (inst.bias !== undefined) throw new SpirvWriteError(`%${inst.id}: texture() with a bias has no SPIR-V form outside fragment and compute shaders`);
      const zero = cx.w.scalarConstant({ kind: 'float', width: 32 }, 0);
      const offset = inst.offset !== undefined ? [cx.w.isConstant(inst.offset) ? ImageOperand.ConstOffset : ImageOperand.Offset] : [];
      const mask = ImageOperand.Lod | (offset[0] ?? 0);
      s.emit(Op.ImageSampleExplicitLod, [rt, inst.id, a[0]!, a[1]!, mask, zero, ...(inst.offset !== undefined ? [cx.v(inst.offset)] : [])]);
      return;
    }
    case 'sampleExplicitLod': {
      const lod = inst.lod ?? inst.args[2];
      if (lod === undefined) throw new SpirvWriteError(`%${inst.id}: explicit-LOD sample without a LOD`);
      const ops = inst.lod !== undefined ? operands() : [ImageOperand.Lod, cx.v(lod)];
      s.emit(Op.ImageSampleExplicitLod, [rt, inst.id, a[0]!, a[1]!, ...ops]);
      return;
    }
    case 'sampleGrad':
      s.emit(Op.ImageSampleExplicitLod, [rt, inst.id, a[0]!, a[1]!, ImageOperand.Grad, a[2]!, a[3]!]);
      return;
    case 'fetch': {
      const lod = inst.lod ?? inst.args[2];
      s.emit(Op.ImageFetch, [rt, inst.id, a[0]!, a[1]!, ...(lod !== undefined ? [ImageOperand.Lod, cx.v(lod)] : [])]);
      return;
    }
    case 'gather':
      s.emit(Op.ImageGather, [rt, inst.id, a[0]!, a[1]!, a[2]!, ...operands()]);
      return;
    case 'image':
      s.emit(Op.Image, [rt, inst.id, a[0]!]);
      return;
  }
}

