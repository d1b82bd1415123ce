/**
 * The function half of the SPIR-V writer: one IR function -> OpFunction ... OpFunctionEnd.
 *
 * Where SPIR-V splits an IR op by operand type (IAdd / FAdd, SLessThan / ULessThan /
 * FOrdLessThan, SAbs / FAbs) the operand's IR type decides, as inst.ts promises. A few IR ops have
 * no single SPIR-V instruction and become short sequences with fresh ids: conversions from and to
 * bool (OpSelect / OpINotEqual), integer vector-times-scalar (splat + OpIMul), integer dot products,
 * `mix` with a bool selector (OpSelect), and bools that a laid-out block holds as u32 (loads,
 * stores, extracts, inserts and constructs convert; module-writer.ts `stored`).
 *
 * Blocks are written in reverse post-order from the entry (so every block follows its dominators,
 * as SPIR-V requires); unreachable blocks follow in their IR order. Merge instructions come from
 * `Block.merge`; a selection merge on a block that no longer ends in a conditional branch or
 * switch is dropped (SPIR-V allows it only there).
 */
import type { BlockId, Inst, ValueId } from '../../ir/inst.js';
import { successors } from '../../ir/inst.js';
import type { Block, Function, Module } from '../../ir/module.js';
import {
  Decoration, GLSL_STD_450, LoopControl, MemoryAccess, Op, Scope, Capability,
} from '../../ir/spirv-enums.js';
import { intern, typeOf, type Type, type TypeId } from '../../ir/types.js';
import { SpirvWriteError, type ModuleWriter } from './module-writer.js';
import { kindOfType, scalarWidth, writeAtomic, writeImage, writeSubgroup, type OpWriterContext, type ScalarKind } from './write-special-ops.js';


export class FunctionWriter implements OpWriterContext {
  private readonly valueTypes = new Map<number, TypeId>();
  private readonly privateRoots = new Set<number>();
  /** Pointers to a bool (or bvec) that a laid-out aggregate holds as u32 (module-writer.ts `stored`). */
  private readonly boolAsUint = new Set<number>();
  private lastLine = '';

  constructor(readonly w: ModuleWriter, readonly m: Module) {
    for (const c of m.constants) this.valueTypes.set(c.id, c.type);
    for (const g of m.globals) this.valueTypes.set(g.id, g.type);
    for (const t of w.transposedBuiltins) this.privateRoots.add(t.copy);
    for (const f of m.functions) {
      for (const p of f.params) this.valueTypes.set(p.id, p.type);
      for (const b of f.blocks) for (const i of b.insts) this.valueTypes.set(i.id, i.type);
    }
  }

  private get s() {
    return this.w.functions;
  }

  typeOfValue(id: number): Type {
    const t = this.valueTypes.get(id);
    if (t === undefined) throw new SpirvWriteError(`%${id} is used but never defined`);
    return typeOf(this.w.types, t);
  }

  scalarKind(id: number): ScalarKind {
    return kindOfType(this.w, this.typeOfValue(id));
  }

  v(id: ValueId): number {
    return this.w.useValue(id);
  }

  private t(id: TypeId): number {
    return this.w.type(id);
  }

  write(f: Function, isEntry: boolean): void {
    const s = this.s;
    this.w.name(f.id, f.name);
    const fnType = this.w.functionType(f.returnType, f.params.map((p) => p.type));
    s.emit(Op.Function, [this.t(f.returnType), f.id, 0, fnType]);
    for (const p of f.params) {
      s.emit(Op.FunctionParameter, [this.t(p.type), p.id]);
      if (p.name) this.w.name(p.id, p.name);
    }
    const order = blockOrder(f);
    order.forEach((b, index) => {
      s.emit(Op.Label, [b.id]);
      this.lastLine = '';
      let i = 0;
      if (index === 0) {
        for (; i < b.insts.length && b.insts[i]!.op === 'variable'; i++) this.inst(b.insts[i]!, b);
        if (isEntry) this.fillTransposedBuiltins();
      }
      for (; i < b.insts.length; i++) this.inst(b.insts[i]!, b);
    });
    s.emit(Op.FunctionEnd, []);
  }

  private fillTransposedBuiltins(): void {
    for (const t of this.w.transposedBuiltins) {
      const loaded = this.w.fresh();
      this.s.emit(Op.Load, [t.builtinType, loaded, t.builtin]);
      const transposed = this.w.fresh();
      this.s.emit(Op.Transpose, [this.t(t.copyType), transposed, loaded]);
      this.s.emit(Op.Store, [t.copy, transposed]);
    }
  }

  private line(inst: Inst): void {
    if (this.w.opts.debugInfo === false || inst.loc.line === 0) return;
    const file = this.w.fileStrings[inst.loc.file];
    if (file === undefined) return;
    const key = `${inst.loc.file}:${inst.loc.line}:${inst.loc.column}`;
    if (key === this.lastLine) return;
    this.lastLine = key;
    this.s.emit(Op.Line, [file, inst.loc.line, inst.loc.column]);
  }

  /** The SPIR-V result type of `inst` (pointer storage follows a transposed built-in's private copy). */
  private resultType(inst: Inst): number {
    if (inst.op === 'accessChain') {
      const ptr = typeOf(this.w.types, inst.type);
      if (ptr.kind !== 'pointer') return this.t(inst.type);
      const storage = this.privateRoots.has(inst.base) ? 'private' : ptr.storage;
      if (storage === 'private') this.privateRoots.add(inst.id);
      let pointee = ptr.pointee;
      const baseType = this.typeOfValue(inst.base);
      const stored = this.w.boolStorage(pointee);
      if (stored !== undefined && baseType.kind === 'pointer'
        && (this.boolAsUint.has(inst.base) || this.crossesLayout(baseType.pointee, inst.indices.map((i) => this.constantIndex(i))))) {
        this.boolAsUint.add(inst.id);
        pointee = stored;
      }
      if (storage !== ptr.storage || pointee !== ptr.pointee) return this.w.internType({ kind: 'pointer', storage, pointee });
    }
    return this.t(inst.type);
  }

  private constantIndex(id: ValueId): number | undefined {
    const c = this.m.constants.find((x) => x.id === id);
    return c && typeof c.value === 'number' ? c.value : undefined;
  }

  /** Whether a walk from `start` through `indices` (all but the last step) passes a laid-out aggregate. */
  private crossesLayout(start: TypeId, indices: readonly (number | undefined)[]): boolean {
    let t = typeOf(this.w.types, start);
    for (let i = 0; i < indices.length; i++) {
      if (this.w.isLaidOut(t)) return true;
      if (i === indices.length - 1) break;
      if (t.kind === 'struct') {
        const k = indices[i];
        if (k === undefined || !t.members[k]) return false;
        t = typeOf(this.w.types, t.members[k]!.type);
      } else if (t.kind === 'array' || t.kind === 'runtimeArray' || t.kind === 'vector') t = typeOf(this.w.types, t.elem);
      else if (t.kind === 'matrix') t = typeOf(this.w.types, t.column);
      else return false;
    }
    return false;
  }

  /** `value` (bool or bvec) as the u32 / uvec a buffer holds. */
  private boolToUint(value: ValueId): number {
    const t = this.valueTypes.get(value)!;
    const stored = this.w.boolStorage(t)!;
    const st = typeOf(this.w.types, stored);
    const tmp = this.w.fresh();
    this.s.emit(Op.Select, [this.t(stored), tmp, this.v(value), this.typedConstant(st, 1), this.typedConstant(st, 0)]);
    return tmp;
  }

  /** Emits `id = (stored != 0)` turning a buffer's u32 / uvec back into the IR's bool / bvec `boolType`. */
  private uintToBool(id: number, boolType: TypeId, stored: number): void {
    const st = typeOf(this.w.types, this.w.boolStorage(boolType)!);
    this.s.emit(Op.INotEqual, [this.t(boolType), id, stored, this.typedConstant(st, 0)]);
  }

  private inst(inst: Inst, block: Block): void {
    this.line(inst);
    const s = this.s;
    const rt = (): number => this.resultType(inst);
    const id = inst.id;
    switch (inst.op) {
      case 'variable': {
        s.emit(Op.Variable, [rt(), id, 7, ...(inst.init !== undefined ? [this.v(inst.init)] : [])]);
        // A local holding a buffer_reference must say whether it aliases (SPIR-V 2.18.2); GLSL's does.
        const ptr = typeOf(this.w.types, inst.type);
        const held = ptr.kind === 'pointer' ? typeOf(this.w.types, ptr.pointee) : undefined;
        if (held?.kind === 'pointer' && held.storage === 'physicalStorageBuffer') this.w.decorate(id, Decoration.AliasedPointer);
        return;
      }
      case 'load':
        if (this.boolAsUint.has(inst.ptr)) {
          const tmp = this.w.fresh();
          s.emit(Op.Load, [this.t(this.w.boolStorage(inst.type)!), tmp, this.v(inst.ptr), ...this.memoryAccess(inst.ptr)]);
          this.uintToBool(id, inst.type, tmp);
          return;
        }
        s.emit(Op.Load, [rt(), id, this.v(inst.ptr), ...this.memoryAccess(inst.ptr)]);
        return;
      case 'store': {
        const value = this.boolAsUint.has(inst.ptr) ? this.boolToUint(inst.value) : this.v(inst.value);
        s.emit(Op.Store, [this.v(inst.ptr), value, ...this.memoryAccess(inst.ptr)]);
        return;
      }
      case 'accessChain':
        s.emit(Op.AccessChain, [rt(), id, this.v(inst.base), ...inst.indices.map((x) => this.v(x))]);
        return;
      case 'arrayLength':
        s.emit(Op.ArrayLength, [rt(), id, this.v(inst.ptr), inst.member]);
        return;
      case 'convertUToPtr':
        s.emit(Op.ConvertUToPtr, [rt(), id, this.v(inst.value)]);
        return;
      case 'convertPtrToU':
        s.emit(Op.ConvertPtrToU, [rt(), id, this.v(inst.value)]);
        return;
      case 'binary':
        this.binary(inst, rt());
        return;
      case 'unary': {
        const k = this.scalarKind(inst.a);
        const op = inst.kind === 'transpose' ? Op.Transpose
          : inst.kind === 'neg' ? (k === 'float' ? Op.FNegate : Op.SNegate)
            : k === 'bool' ? Op.LogicalNot : Op.Not;
        s.emit(op, [rt(), id, this.v(inst.a)]);
        return;
      }
      case 'compare':
        s.emit(compareOp(inst.kind, this.scalarKind(inst.a)), [rt(), id, this.v(inst.a), this.v(inst.b)]);
        return;
      case 'test': {
        const op = { any: Op.Any, all: Op.All, isnan: Op.IsNan, isinf: Op.IsInf }[inst.kind];
        s.emit(op, [rt(), id, this.v(inst.a)]);
        return;
      }
      case 'convert':
        this.convert(inst.id, inst.type, inst.value);
        return;
      case 'bitcast':
        s.emit(Op.Bitcast, [rt(), id, this.v(inst.value)]);
        return;
      case 'select':
        s.emit(Op.Select, [rt(), id, this.v(inst.cond), this.v(inst.a), this.v(inst.b)]);
        return;
      case 'ext':
        this.ext(inst, rt());
        return;
      case 'bits': {
        const k = this.scalarKind(inst.args[0]!);
        const op = inst.fn === 'bitfieldInsert' ? Op.BitFieldInsert
          : inst.fn === 'bitfieldExtract' ? (k === 'sint' ? Op.BitFieldSExtract : Op.BitFieldUExtract)
            : inst.fn === 'bitfieldReverse' ? Op.BitReverse : Op.BitCount;
        s.emit(op, [rt(), id, ...inst.args.map((a) => this.v(a))]);
        return;
      }
      case 'construct': {
        const laidOut = this.w.isLaidOut(typeOf(this.w.types, inst.type));
        const parts = inst.parts.map((p) => (laidOut && this.w.boolStorage(this.valueTypes.get(p)!) !== undefined ? this.boolToUint(p) : this.v(p)));
        s.emit(Op.CompositeConstruct, [rt(), id, ...parts]);
        return;
      }
      case 'extract': {
        const stored = this.w.boolStorage(inst.type);
        if (stored !== undefined && this.crossesLayout(this.valueTypes.get(inst.value)!, inst.indices)) {
          const tmp = this.w.fresh();
          s.emit(Op.CompositeExtract, [this.t(stored), tmp, this.v(inst.value), ...inst.indices]);
          this.uintToBool(id, inst.type, tmp);
          return;
        }
        s.emit(Op.CompositeExtract, [rt(), id, this.v(inst.value), ...inst.indices]);
        return;
      }
      case 'insert': {
        const asUint = this.w.boolStorage(this.valueTypes.get(inst.object)!) !== undefined && this.crossesLayout(inst.type, inst.indices);
        s.emit(Op.CompositeInsert, [rt(), id, asUint ? this.boolToUint(inst.object) : this.v(inst.object), this.v(inst.composite), ...inst.indices]);
        return;
      }
      case 'shuffle':
        s.emit(Op.VectorShuffle, [rt(), id, this.v(inst.a), this.v(inst.b), ...inst.components.map((c) => (c < 0 ? 0xffffffff : c))]);
        return;
      case 'extractDynamic':
        s.emit(Op.VectorExtractDynamic, [rt(), id, this.v(inst.value), this.v(inst.index)]);
        return;
      case 'insertDynamic':
        s.emit(Op.VectorInsertDynamic, [rt(), id, this.v(inst.composite), this.v(inst.value), this.v(inst.index)]);
        return;
      case 'copyObject':
        s.emit(Op.CopyObject, [rt(), id, this.v(inst.value)]);
        return;
      case 'undef':
        s.emit(Op.Undef, [rt(), id]);
        return;
      case 'call':
        s.emit(Op.FunctionCall, [rt(), id, inst.callee, ...inst.args.map((a) => this.v(a))]);
        return;
      case 'phi':
        s.emit(Op.Phi, [rt(), id, ...inst.incoming.flatMap((x) => [this.v(x.value), x.block])]);
        return;
      case 'atomic':
        writeAtomic(this, inst, rt());
        return;
      case 'subgroup':
        writeSubgroup(this, inst, rt());
        return;
      case 'clock':
        this.w.capabilities.add(Capability.ShaderClockKHR);
        this.w.extensions.add('SPV_KHR_shader_clock');
        s.emit(Op.ReadClockKHR, [rt(), id, this.w.constant32(inst.scope === 'device' ? Scope.Device : Scope.Subgroup)]);
        return;
      case 'debugPrintf':
        this.w.extensions.add('SPV_KHR_non_semantic_info');
        s.emit(Op.ExtInst, [rt(), id, this.w.extInstImport('NonSemantic.DebugPrintf'), 1, this.w.string(inst.format), ...inst.args.map((a) => this.v(a))]);
        return;
      case 'image':
        writeImage(this, inst, rt());
        return;
      case 'sampledImage':
        s.emit(Op.SampledImage, [rt(), id, this.v(inst.image), this.v(inst.sampler)]);
        return;
      case 'traceRay':
        this.w.rayTracing();
        s.emit(Op.TraceRayKHR, [
          inst.accel, inst.rayFlags, inst.cullMask, inst.sbtOffset, inst.sbtStride, inst.missIndex,
          inst.origin, inst.tmin, inst.direction, inst.tmax, inst.payload,
        ].map((x) => this.v(x)));
        return;
      case 'reportIntersection':
        this.w.rayTracing();
        s.emit(Op.ReportIntersectionKHR, [rt(), id, this.v(inst.hitT), this.v(inst.hitKind)]);
        return;
      case 'executeCallable':
        this.w.rayTracing();
        s.emit(Op.ExecuteCallableKHR, [this.v(inst.sbtIndex), this.v(inst.callableData)]);
        return;
      case 'convertUToAccel':
        this.w.rayTracing();
        s.emit(Op.ConvertUToAccelerationStructureKHR, [rt(), id, this.v(inst.value)]);
        return;
      case 'rtCall':
        throw new SpirvWriteError(`%${id}: rtCall ${inst.fn} is the simulator's pipeline-internal runtime call; write modules before the RT pipeline lowering`);
      case 'branch':
        this.loopMerge(block);
        s.emit(Op.Branch, [inst.target]);
        return;
      case 'condBranch':
        this.merge(block);
        s.emit(Op.BranchConditional, [this.v(inst.cond), inst.ifTrue, inst.ifFalse]);
        return;
      case 'switch': {
        this.merge(block);
        const sel = this.typeOfValue(inst.selector);
        const wide = sel.kind === 'int' && sel.width === 64;
        s.emit(Op.Switch, [this.v(inst.selector), inst.default, ...inst.cases.flatMap((c) => (wide ? [c.value >>> 0, c.value < 0 ? 0xffffffff : 0, c.target] : [c.value >>> 0, c.target]))]);
        return;
      }
      case 'return':
        if (inst.value !== undefined) s.emit(Op.ReturnValue, [this.v(inst.value)]);
        else s.emit(Op.Return, []);
        return;
      case 'unreachable':
        s.emit(Op.Unreachable, []);
        return;
      case 'ignoreIntersection':
        this.w.rayTracing();
        s.emit(Op.IgnoreIntersectionKHR, []);
        return;
      case 'terminateRay':
        this.w.rayTracing();
        s.emit(Op.TerminateRayKHR, []);
        return;
    }
  }

  private merge(block: Block): void {
    if (!block.merge) return;
    if (block.merge.kind === 'loop') this.loopMerge(block);
    else this.s.emit(Op.SelectionMerge, [block.merge.merge, 0]);
  }

  private loopMerge(block: Block): void {
    if (block.merge?.kind !== 'loop') return;
    const control = block.merge.unroll === 'unroll' ? LoopControl.Unroll : block.merge.unroll === 'dontUnroll' ? LoopControl.DontUnroll : LoopControl.None;
    this.s.emit(Op.LoopMerge, [block.merge.merge, block.merge.continue, control]);
  }

  /** `Aligned` for physical storage buffer pointers (required there), nothing otherwise. */
  private memoryAccess(ptr: ValueId): number[] {
    const t = this.typeOfValue(ptr);
    if (t.kind !== 'pointer' || t.storage !== 'physicalStorageBuffer') return [];
    return [MemoryAccess.Aligned, t.align ?? naturalAlignment(this.w, t.pointee)];
  }

  private binary(inst: Extract<Inst, { op: 'binary' }>, rt: number): void {
    const s = this.s;
    const k = this.scalarKind(inst.a);
    const a = this.v(inst.a);
    const b = this.v(inst.b);
    const pick = (f: number, si: number, ui: number) => (k === 'float' ? f : k === 'sint' ? si : ui);
    let op: number;
    switch (inst.kind) {
      case 'add': op = k === 'float' ? Op.FAdd : Op.IAdd; break;
      case 'sub': op = k === 'float' ? Op.FSub : Op.ISub; break;
      case 'mul': op = k === 'float' ? Op.FMul : Op.IMul; break;
      case 'div': op = pick(Op.FDiv, Op.SDiv, Op.UDiv); break;
      case 'rem': op = pick(Op.FRem, Op.SRem, Op.UMod); break;
      case 'mod': op = pick(Op.FMod, Op.SMod, Op.UMod); break;
      case 'shl': op = Op.ShiftLeftLogical; break;
      case 'shr': op = k === 'sint' ? Op.ShiftRightArithmetic : Op.ShiftRightLogical; break;
      case 'and': op = k === 'bool' ? Op.LogicalAnd : Op.BitwiseAnd; break;
      case 'or': op = k === 'bool' ? Op.LogicalOr : Op.BitwiseOr; break;
      case 'xor': op = k === 'bool' ? Op.LogicalNotEqual : Op.BitwiseXor; break;
      case 'vectorTimesScalar': {
        if (k === 'float') { op = Op.VectorTimesScalar; break; }
        const vt = this.typeOfValue(inst.a);
        const count = vt.kind === 'vector' ? vt.count : 1;
        const splat = this.w.fresh();
        s.emit(Op.CompositeConstruct, [rt, splat, ...new Array<number>(count).fill(b)]);
        s.emit(Op.IMul, [rt, inst.id, a, splat]);
        return;
      }
      case 'matrixTimesScalar': op = Op.MatrixTimesScalar; break;
      case 'vectorTimesMatrix': op = Op.VectorTimesMatrix; break;
      case 'matrixTimesVector': op = Op.MatrixTimesVector; break;
      case 'matrixTimesMatrix': op = Op.MatrixTimesMatrix; break;
      case 'outerProduct': op = Op.OuterProduct; break;
      case 'dot': {
        if (k === 'float') { op = Op.Dot; break; }
        // Integer dot: multiply, then add the components.
        const vt = this.typeOfValue(inst.a);
        const vecType = this.t(this.valueTypes.get(inst.a)!);
        const prod = this.w.fresh();
        s.emit(Op.IMul, [vecType, prod, a, b]);
        const count = vt.kind === 'vector' ? vt.count : 1;
        let acc = this.w.fresh();
        s.emit(Op.CompositeExtract, [rt, acc, prod, 0]);
        for (let c = 1; c < count; c++) {
          const comp = this.w.fresh();
          s.emit(Op.CompositeExtract, [rt, comp, prod, c]);
          const sum = c === count - 1 ? inst.id : this.w.fresh();
          s.emit(Op.IAdd, [rt, sum, acc, comp]);
          acc = sum;
        }
        if (count === 1) s.emit(Op.CopyObject, [rt, inst.id, acc]);
        return;
      }
    }
    s.emit(op, [rt, inst.id, a, b]);
  }

  /** Numeric conversion `value` -> `to` with result id `id`. */
  private convert(id: number, to: TypeId, value: ValueId): void {
    const s = this.s;
    const toType = typeOf(this.w.types, to);
    const from = this.scalarKind(value);
    const target = kindOfType(this.w, toType);
    const rt = this.t(to);
    const v = this.v(value);
    if (from === 'bool') {
      const one = this.typedConstant(toType, 1);
      const zero = this.typedConstant(toType, 0);
      s.emit(Op.Select, [rt, id, v, one, zero]);
      return;
    }
    if (target === 'bool') {
      const zero = this.typedConstant(this.typeOfValue(value), 0);
      s.emit(from === 'float' ? Op.FUnordNotEqual : Op.INotEqual, [rt, id, v, zero]);
      return;
    }
    const fromWidth = scalarWidth(this.w, this.typeOfValue(value));
    const toWidth = scalarWidth(this.w, toType);
    if (from === 'float' && target === 'float') {
      s.emit(fromWidth === toWidth ? Op.CopyObject : Op.FConvert, [rt, id, v]);
    } else if (from === 'float') {
      s.emit(target === 'sint' ? Op.ConvertFToS : Op.ConvertFToU, [rt, id, v]);
    } else if (target === 'float') {
      s.emit(from === 'sint' ? Op.ConvertSToF : Op.ConvertUToF, [rt, id, v]);
    } else if (fromWidth === toWidth) {
      s.emit(from === target ? Op.CopyObject : Op.Bitcast, [rt, id, v]);
    } else if (target === 'uint' || from === 'sint') {
      // SConvert sign-extends a signed source; UConvert zero-extends into an unsigned result.
      if (from === 'sint' && target === 'sint') s.emit(Op.SConvert, [rt, id, v]);
      else if (from === 'uint' && target === 'uint') s.emit(Op.UConvert, [rt, id, v]);
      else {
        const mid = this.w.fresh();
        const midType = this.withSignedness(toType, from === 'sint');
        s.emit(from === 'sint' ? Op.SConvert : Op.UConvert, [midType, mid, v]);
        s.emit(Op.Bitcast, [rt, id, mid]);
      }
    } else {
      // unsigned -> signed of another width: zero-extend / truncate unsigned, then reinterpret.
      const mid = this.w.fresh();
      s.emit(Op.UConvert, [this.withSignedness(toType, false), mid, v]);
      s.emit(Op.Bitcast, [rt, id, mid]);
    }
  }

  private withSignedness(t: Type, signed: boolean): number {
    if (t.kind === 'int') return this.w.internType({ kind: 'int', width: t.width, signed });
    if (t.kind === 'vector') {
      const e = typeOf(this.w.types, t.elem);
      if (e.kind === 'int') return this.w.internType({ kind: 'vector', elem: intern(this.w.types, { kind: 'int', width: e.width, signed }), count: t.count });
    }
    throw new SpirvWriteError('integer conversion of a non-integer type');
  }

  /** A constant of scalar or vector type `t` with every component `n`. */
  private typedConstant(t: Type, n: number): number {
    if (t.kind === 'vector') {
      const e = typeOf(this.w.types, t.elem);
      const part = this.typedConstant(e, n);
      return this.w.splatConstant(this.w.internType(t), t.count, part);
    }
    if (t.kind === 'int') return this.w.scalarConstant(t, t.width === 64 ? BigInt(n) : n);
    if (t.kind === 'float') return this.w.scalarConstant(t, n);
    if (t.kind === 'bool') return this.w.scalarConstant(t, n !== 0);
    throw new SpirvWriteError('constant of a non-numeric type');
  }

  private ext(inst: Extract<Inst, { op: 'ext' }>, rt: number): void {
    const s = this.s;
    if (inst.fn === 'mix' && this.scalarKind(inst.args[2]!) === 'bool') {
      // mix(x, y, bvec) selects y where the selector is true.
      s.emit(Op.Select, [rt, inst.id, this.v(inst.args[2]!), this.v(inst.args[1]!), this.v(inst.args[0]!)]);
      return;
    }
    const entry = GLSL_STD_450[inst.fn];
    let n: number;
    if (typeof entry === 'number') n = entry;
    else {
      const k = this.scalarKind(inst.args[0]!);
      n = k === 'float' ? entry[0] : k === 'sint' ? entry[1] : entry[2];
    }
    s.emit(Op.ExtInst, [rt, inst.id, this.w.extInstImport('GLSL.std.450'), n, ...inst.args.map((a) => this.v(a))]);
  }

}

/** The largest scalar alignment inside `t` (a safe `Aligned` for physical storage buffer access). */
function naturalAlignment(w: ModuleWriter, id: TypeId): number {
  const t = typeOf(w.types, id);
  switch (t.kind) {
    case 'int': case 'float': return t.width / 8;
    case 'vector': case 'array': case 'runtimeArray': return naturalAlignment(w, t.elem);
    case 'matrix': return naturalAlignment(w, t.column);
    case 'struct': return Math.max(4, ...t.members.map((m) => naturalAlignment(w, m.type)));
    case 'pointer': return 8;
    default: return 4;
  }
}

function compareOp(kind: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge', k: ScalarKind): number {
  if (k === 'bool') {
    if (kind === 'eq') return Op.LogicalEqual;
    if (kind === 'ne') return Op.LogicalNotEqual;
    throw new SpirvWriteError(`ordered comparison '${kind}' of booleans`);
  }
  const table = {
    float: { eq: Op.FOrdEqual, ne: Op.FUnordNotEqual, lt: Op.FOrdLessThan, le: Op.FOrdLessThanEqual, gt: Op.FOrdGreaterThan, ge: Op.FOrdGreaterThanEqual },
    sint: { eq: Op.IEqual, ne: Op.INotEqual, lt: Op.SLessThan, le: Op.SLessThanEqual, gt: Op.SGreaterThan, ge: Op.SGreaterThanEqual },
    uint: { eq: Op.IEqual, ne: Op.INotEqual, lt: Op.ULessThan, le: Op.ULessThanEqual, gt: Op.UGreaterThan, ge: Op.UGreaterThanEqual },
  } as const;
  if (k === 'other') throw new SpirvWriteError(`comparison '${kind}' of a non-numeric value`);
  return table[k][kind];
}

/** Reverse post-order from the entry block, then unreachable blocks in IR order. */
export function blockOrder(f: Function): Block[] {
  const byId = new Map<BlockId, Block>(f.blocks.map((b) => [b.id, b]));
  const seen = new Set<BlockId>();
  const post: Block[] = [];
  const entry = f.blocks[0];
  if (!entry) return [];
  // Iterative DFS (deep CFGs must not overflow the stack).
  const stack: { b: Block; next: number; succ: BlockId[] }[] = [];
  const push = (b: Block) => {
    seen.add(b.id);
    const term = b.insts[b.insts.length - 1];
    const succ = term ? successors(term) : [];
    // Visit the merge / continue targets after the successors, so structured constructs stay together.
    stack.push({ b, next: 0, succ: [...succ].reverse() });
  };
  push(entry);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.succ.length) {
      const nb = byId.get(top.succ[top.next++]!);
      if (nb && !seen.has(nb.id)) push(nb);
    } else {
      post.push(top.b);
      stack.pop();
    }
  }
  const order = post.reverse();
  for (const b of f.blocks) if (!seen.has(b.id)) order.push(b);
  return order;
}
