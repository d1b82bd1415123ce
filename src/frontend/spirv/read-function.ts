/**
 * The function half of the SPIR-V reader: OpFunction ... OpFunctionEnd -> IR functions, blocks and
 * instructions, the inverse of src/backend/spirv/function-writer.ts. Typed SPIR-V opcodes collapse
 * into the IR's one op per meaning (IAdd / FAdd -> add, SLessThan / FOrdLessThan -> lt); the
 * operand types keep the distinction. Merge instructions become `Block.merge`; OpLine (and
 * NonSemantic.Shader.DebugInfo's DebugLine) set the `loc` of the instructions that follow.
 *
 * What the IR does not distinguish is said where it is merged: FOrd* and FUnord* comparisons
 * other than not-equal read as the ordered ones (they differ only on NaN).
 */
import type { AtomicOp, BinaryOp, BlockId, CompareOp, ExtFn, FunctionId, Inst, Loc, SubgroupOp, ValueId } from '../../ir/inst.js';
import type { Block, Function } from '../../ir/module.js';
import { constant } from '../../ir/builder.js';
import { operands } from '../../ir/inst.js';
import { remapInst, type IdMaps } from '../../ir/remap.js';
import { GLSL_STD_450, ImageOperand, LoopControl, Op, Scope } from '../../ir/spirv-enums.js';
import { intern, typeOf, type TypeId } from '../../ir/types.js';
import { NO_SOURCE_LOC, sourceIndexOf, type ReadContext } from './read-module.js';
import { opcodeName, SpirvReadError, type SpirvInstruction } from './spirv-words.js';

const EXT_FN = new Map<number, ExtFn>();
for (const [fn, n] of Object.entries(GLSL_STD_450) as [ExtFn, number | readonly number[]][]) {
  for (const k of typeof n === 'number' ? [n] : n) if (!EXT_FN.has(k)) EXT_FN.set(k, fn);
}

const BINARY: ReadonlyMap<number, BinaryOp> = new Map<number, BinaryOp>([
  [Op.IAdd, 'add'], [Op.FAdd, 'add'], [Op.ISub, 'sub'], [Op.FSub, 'sub'], [Op.IMul, 'mul'], [Op.FMul, 'mul'],
  [Op.UDiv, 'div'], [Op.SDiv, 'div'], [Op.FDiv, 'div'], [Op.UMod, 'rem'], [Op.SRem, 'rem'], [Op.FRem, 'rem'],
  [Op.SMod, 'mod'], [Op.FMod, 'mod'], [Op.ShiftLeftLogical, 'shl'], [Op.ShiftRightLogical, 'shr'],
  [Op.ShiftRightArithmetic, 'shr'], [Op.BitwiseAnd, 'and'], [Op.BitwiseOr, 'or'], [Op.BitwiseXor, 'xor'],
  [Op.LogicalAnd, 'and'], [Op.LogicalOr, 'or'], [Op.VectorTimesScalar, 'vectorTimesScalar'],
  [Op.MatrixTimesScalar, 'matrixTimesScalar'], [Op.VectorTimesMatrix, 'vectorTimesMatrix'],
  [Op.MatrixTimesVector, 'matrixTimesVector'], [Op.MatrixTimesMatrix, 'matrixTimesMatrix'], [Op.Dot, 'dot'],
  [Op.OuterProduct, 'outerProduct'],
]);

const COMPARE: ReadonlyMap<number, CompareOp> = new Map<number, CompareOp>([
  [Op.IEqual, 'eq'], [Op.INotEqual, 'ne'], [Op.LogicalEqual, 'eq'], [Op.LogicalNotEqual, 'ne'],
  [Op.UGreaterThan, 'gt'], [Op.SGreaterThan, 'gt'], [Op.UGreaterThanEqual, 'ge'], [Op.SGreaterThanEqual, 'ge'],
  [Op.ULessThan, 'lt'], [Op.SLessThan, 'lt'], [Op.ULessThanEqual, 'le'], [Op.SLessThanEqual, 'le'],
  [Op.FOrdEqual, 'eq'], [Op.FUnordEqual, 'eq'], [Op.FOrdNotEqual, 'ne'], [Op.FUnordNotEqual, 'ne'],
  [Op.FOrdLessThan, 'lt'], [Op.FUnordLessThan, 'lt'], [Op.FOrdGreaterThan, 'gt'], [Op.FUnordGreaterThan, 'gt'],
  [Op.FOrdLessThanEqual, 'le'], [Op.FUnordLessThanEqual, 'le'], [Op.FOrdGreaterThanEqual, 'ge'],
  [Op.FUnordGreaterThanEqual, 'ge'],
]);

const CONVERT = new Set<number>([Op.ConvertFToU, Op.ConvertFToS, Op.ConvertSToF, Op.ConvertUToF, Op.UConvert, Op.SConvert, Op.FConvert]);

const ATOMIC: ReadonlyMap<number, AtomicOp> = new Map<number, AtomicOp>([
  [Op.AtomicExchange, 'exchange'], [Op.AtomicIAdd, 'add'], [Op.AtomicISub, 'sub'], [Op.AtomicSMin, 'min'],
  [Op.AtomicUMin, 'min'], [Op.AtomicSMax, 'max'], [Op.AtomicUMax, 'max'], [Op.AtomicAnd, 'and'], [Op.AtomicOr, 'or'],
  [Op.AtomicXor, 'xor'],
]);

/** Group ops without a GroupOperation operand: [kind, operands after the scope]. */
const SUBGROUP_PLAIN: ReadonlyMap<number, SubgroupOp> = new Map<number, SubgroupOp>([
  [Op.GroupNonUniformElect, 'elect'], [Op.GroupNonUniformAll, 'all'], [Op.GroupNonUniformAny, 'any'],
  [Op.GroupNonUniformAllEqual, 'allEqual'], [Op.GroupNonUniformBroadcast, 'broadcast'],
  [Op.GroupNonUniformBroadcastFirst, 'broadcastFirst'], [Op.GroupNonUniformBallot, 'ballot'],
  [Op.GroupNonUniformInverseBallot, 'inverseBallot'], [Op.GroupNonUniformBallotBitExtract, 'ballotBitExtract'],
  [Op.GroupNonUniformBallotFindLSB, 'ballotFindLSB'], [Op.GroupNonUniformBallotFindMSB, 'ballotFindMSB'],
  [Op.GroupNonUniformShuffle, 'shuffle'], [Op.GroupNonUniformShuffleXor, 'shuffleXor'],
  [Op.GroupNonUniformShuffleUp, 'shuffleUp'], [Op.GroupNonUniformShuffleDown, 'shuffleDown'],
]);

const SUBGROUP_GROUPED: ReadonlyMap<number, SubgroupOp> = new Map<number, SubgroupOp>([
  [Op.GroupNonUniformBallotBitCount, 'ballotBitCount'], [Op.GroupNonUniformIAdd, 'add'], [Op.GroupNonUniformFAdd, 'add'],
  [Op.GroupNonUniformIMul, 'mul'], [Op.GroupNonUniformFMul, 'mul'], [Op.GroupNonUniformSMin, 'min'],
  [Op.GroupNonUniformUMin, 'min'], [Op.GroupNonUniformFMin, 'min'], [Op.GroupNonUniformSMax, 'max'],
  [Op.GroupNonUniformUMax, 'max'], [Op.GroupNonUniformFMax, 'max'], [Op.GroupNonUniformBitwiseAnd, 'and'],
  [Op.GroupNonUniformBitwiseOr, 'or'], [Op.GroupNonUniformBitwiseXor, 'xor'], [Op.GroupNonUniformLogicalAnd, 'and'],
  [Op.GroupNonUniformLogicalOr, 'or'], [Op.GroupNonUniformLogicalXor, 'xor'],
]);

const GROUP_OPERATION = ['reduce', 'inclusiveScan', 'exclusiveScan'] as const;

type InstBody = Inst extends infer I ? (I extends Inst ? Omit<I, 'id' | 'type' | 'loc'> : never) : never;

export function readFunctions(cx: ReadContext, insts: readonly SpirvInstruction[]): void {
  let fn: Function | undefined;
  let block: Block | undefined;
  let loc: Loc = NO_SOURCE_LOC;
  let fnLocSet = false;
  const fail = (inst: SpirvInstruction, message: string): never => {
    throw new SpirvReadError(cx.file, inst.offset, `${opcodeName(inst.opcode)}: ${message}`);
  };
  const type = (inst: SpirvInstruction, id: number): TypeId => {
    const t = cx.types.get(id);
    if (t === undefined) fail(inst, `%${id} is not a type`);
    return t!;
  };
  for (const inst of insts) {
    cx.position.inst = inst;
    const o = inst.operands;
    switch (inst.opcode) {
      case Op.Function:
        if (fn) fail(inst, 'a function inside a function (missing OpFunctionEnd)');
        cx.position.idOffsets.set(o[1]!, inst.offset);
        fn = { id: o[1]! as FunctionId, name: cx.names.get(o[1]!) || `fn${o[1]}`, returnType: type(inst, o[0]!), params: [], blocks: [], loc: { ...loc } };
        fnLocSet = false;
        cx.m.functions.push(fn);
        continue;
      case Op.FunctionParameter: {
        if (!fn || fn.blocks.length > 0) fail(inst, 'outside a function header');
        cx.position.idOffsets.set(o[1]!, inst.offset);
        const p = { id: o[1]! as ValueId, type: type(inst, o[0]!) } as Function['params'][number];
        const name = cx.names.get(o[1]!);
        if (name) p.name = name;
        fn!.params.push(p);
        cx.valueTypes.set(o[1]!, p.type);
        continue;
      }
      case Op.FunctionEnd:
        if (!fn) fail(inst, 'without OpFunction');
        if (cx.specOps.size > 0) materializeSpecOps(cx, fn!, fail);
        fn = undefined;
        block = undefined;
        continue;
      case Op.Label:
        if (!fn) fail(inst, 'outside a function');
        block = { id: o[0]! as BlockId, insts: [] };
        cx.position.idOffsets.set(o[0]!, inst.offset);
        const name = cx.names.get(o[0]!);
        if (name) block.name = name;
        fn!.blocks.push(block);
        continue;
      case Op.Line: {
        const file = sourceIndexOf(cx, o[0]!);
        loc = { file: file ?? 0, line: o[1]!, column: o[2]! };
        if (fn && !fnLocSet) { fn.loc = { ...loc }; fnLocSet = true; }
        continue;
      }
      case Op.NoLine:
        continue;
      case Op.SelectionMerge:
        if (!block) fail(inst, 'outside a block');
        block!.merge = { kind: 'selection', merge: o[0]! as BlockId };
        continue;
      case Op.LoopMerge: {
        if (!block) fail(inst, 'outside a block');
        const control = o[2]!;
        block!.merge = {
          kind: 'loop', merge: o[0]! as BlockId, continue: o[1]! as BlockId,
          ...(control & LoopControl.Unroll ? { unroll: 'unroll' as const } : control & LoopControl.DontUnroll ? { unroll: 'dontUnroll' as const } : {}),
        };
        continue;
      }
      case Op.ExtInst: {
        const set = cx.extInstSets.get(o[2]!);
        if (set === 'NonSemantic.Shader.DebugInfo.100') {
          if (o[3] === 103) {
            // DebugLine: Source, Line Start, Line End, Column Start, Column End (ids of constants).
            const num = (id: number) => Number(cx.constants.get(id)?.value ?? 0);
            loc = { file: cx.debugSources.get(o[4]!) ?? 0, line: num(o[5]!), column: num(o[7]!) };
            if (fn && !fnLocSet) { fn.loc = { ...loc }; fnLocSet = true; }
          }
          continue;
        }
        break;
      }
      default:
        break;
    }
    if (!block) fail(inst, 'outside a function body');
    const here = block!;
    const emit = (b: InstBody, t: TypeId): ValueId => {
      const id = cx.m.nextId++ as ValueId;
      cx.position.idOffsets.set(id, inst.offset);
      cx.valueTypes.set(id, t);
      here.insts.push({ ...b, id, type: t, loc: { ...loc } } as Inst);
      return id;
    };
    if (inst.opcode === Op.CopyLogical) {
      // Same structure, other decorations (a laid-out block member copied to a local): member by member.
      const t = type(inst, o[0]!);
      const copy = copyLogical(cx, o[2]! as ValueId, t, emit, () => fail(inst, 'operand and result do not have the same structure'));
      here.insts.push({ op: 'copyObject', value: copy, id: o[1]! as ValueId, type: t, loc: { ...loc } });
      cx.position.idOffsets.set(o[1]!, inst.offset);
      cx.valueTypes.set(o[1]!, t);
      continue;
    }
    const body = fixIntegerSignedness(cx, inst, emit) ?? translate(cx, inst, fail);
    if (!body) continue;
    const hasResult = body.resultType !== undefined;
    const id = (hasResult ? body.resultId! : cx.m.nextId++) as ValueId;
    const t = hasResult ? type(inst, body.resultType!) : voidType(cx);
    if (hasResult) cx.valueTypes.set(id, t);
    cx.position.idOffsets.set(id, inst.offset);
    const name = body.inst.op === 'variable' ? cx.names.get(id) : undefined;
    block!.insts.push({ ...body.inst, ...(name ? { name } : {}), id, type: t, loc: { ...loc } } as Inst);
  }
  if (fn) throw new SpirvReadError(cx.file, cx.position.idOffsets.get(fn.id), `OpFunction: function %${fn.id} has no OpFunctionEnd`);
}

const SIGNED_OPS = new Set<number>([Op.SDiv, Op.SRem, Op.SMod, Op.ShiftRightArithmetic, Op.SGreaterThan, Op.SGreaterThanEqual, Op.SLessThan, Op.SLessThanEqual]);
const UNSIGNED_OPS = new Set<number>([Op.UDiv, Op.UMod, Op.ShiftRightLogical, Op.UGreaterThan, Op.UGreaterThanEqual, Op.ULessThan, Op.ULessThanEqual]);
const SIGN_AGNOSTIC_OPS = new Set<number>([Op.IAdd, Op.ISub, Op.IMul, Op.BitwiseAnd, Op.BitwiseOr, Op.BitwiseXor, Op.ShiftLeftLogical, Op.IEqual, Op.INotEqual]);

/**
 * SPIR-V integer ops take operands of either signedness (`OpIAdd %uint %u %int_1`), and S/U ops
 * say the signedness in the opcode; the IR wants operands of one type and takes signedness from
 * them. So operands of another signedness are bitcast first (and a result computed in the
 * opcode's signedness is bitcast to the declared type), which changes no bits.
 */
function fixIntegerSignedness(cx: ReadContext, inst: SpirvInstruction, emit: (b: InstBody, t: TypeId) => ValueId): Translated | undefined {
  const op = inst.opcode;
  if (!SIGNED_OPS.has(op) && !UNSIGNED_OPS.has(op) && !SIGN_AGNOSTIC_OPS.has(op)) return undefined;
  const o = inst.operands;
  const resultType = cx.types.get(o[0]!);
  const aType = cx.valueTypes.get(o[2]!);
  if (resultType === undefined || aType === undefined) return undefined;
  const signedOf = (t: TypeId): boolean | undefined => {
    const ty = typeOf(cx.m.types, t);
    const sc = ty.kind === 'vector' ? typeOf(cx.m.types, ty.elem) : ty;
    return sc.kind === 'int' ? sc.signed : undefined;
  };
  const withSign = (t: TypeId, signed: boolean): TypeId => {
    const ty = typeOf(cx.m.types, t);
    if (ty.kind === 'int') return intern(cx.m.types, { kind: 'int', width: ty.width, signed });
    if (ty.kind === 'vector') {
      const e = typeOf(cx.m.types, ty.elem);
      if (e.kind === 'int') return intern(cx.m.types, { kind: 'vector', elem: intern(cx.m.types, { kind: 'int', width: e.width, signed }), count: ty.count });
    }
    return t;
  };
  const aSigned = signedOf(aType);
  if (aSigned === undefined) return undefined;
  const compare = COMPARE.get(op);
  const shift = op === Op.ShiftLeftLogical || op === Op.ShiftRightLogical || op === Op.ShiftRightArithmetic;
  const required = SIGNED_OPS.has(op) ? true : UNSIGNED_OPS.has(op) ? false : compare ? aSigned : signedOf(resultType) ?? aSigned;
  const cast = (id: ValueId): ValueId => {
    const t = cx.valueTypes.get(id);
    if (t === undefined || signedOf(t) === undefined || signedOf(t) === required) return id;
    return emit({ op: 'bitcast', value: id }, withSign(t, required));
  };
  const a = cast(o[2]! as ValueId);
  const b = shift ? (o[3]! as ValueId) : cast(o[3]! as ValueId);
  if (compare) return { inst: { op: 'compare', kind: compare, a, b }, resultType: o[0]!, resultId: o[1]! };
  const kind = BINARY.get(op)!;
  const opType = withSign(resultType, required);
  if (opType === resultType) return { inst: { op: 'binary', kind, a, b }, resultType: o[0]!, resultId: o[1]! };
  const value = emit({ op: 'binary', kind, a, b }, opType);
  return { inst: { op: 'bitcast', value }, resultType: o[0]!, resultId: o[1]! };
}

/**
 * The OpSpecConstantOp values `fn` uses, computed at the top of its entry block (after the
 * variables) with fresh ids, and every use in `fn` renamed to them.
 */
function materializeSpecOps(cx: ReadContext, fn: Function, fail: (inst: SpirvInstruction, message: string) => never): void {
  const used = new Set<number>();
  const need = (id: number): void => {
    const op = cx.specOps.get(id);
    if (!op || used.has(id)) return;
    used.add(id);
    for (const x of op.operands.subarray(3)) need(x);
  };
  for (const b of fn.blocks) for (const i of b.insts) for (const x of operands(i)) need(x);
  if (used.size === 0) return;
  const entry = fn.blocks[0];
  if (!entry) return;
  const fresh = new Map<number, ValueId>();
  const maps: IdMaps = { value: (id) => fresh.get(id) ?? id, block: (id) => id, fn: (id) => id, type: (id) => id };
  const computed: Inst[] = [];
  const loc = entry.insts.find((i) => i.op !== 'variable')?.loc ?? fn.loc;
  const emit = (b: InstBody, t: TypeId): ValueId => {
    const id = cx.m.nextId++ as ValueId;
    cx.valueTypes.set(id, t);
    computed.push({ ...b, id, type: t, loc: { ...loc } } as Inst);
    return id;
  };
  for (const [id, op] of cx.specOps) {
    if (!used.has(id)) continue;
    // The same operand layout as the opcode it names: [result type, result id, operands...].
    const inner: SpirvInstruction = { opcode: op.operands[2]!, operands: Uint32Array.of(op.operands[0]!, op.operands[1]!, ...op.operands.subarray(3)), offset: op.offset };
    const body = fixIntegerSignedness(cx, inner, emit) ?? translate(cx, inner, fail);
    if (!body || body.resultType === undefined) fail(op, 'a specialization constant expression without a result');
    const t = cx.types.get(body!.resultType!)!;
    const own = cx.m.nextId++ as ValueId;
    cx.valueTypes.set(own, t);
    computed.push({ ...body!.inst, id: own, type: t, loc: { ...loc } } as Inst);
    fresh.set(id, own);
  }
  for (const b of fn.blocks) b.insts = b.insts.map((i) => remapInst(i, maps));
  const at = entry.insts.findIndex((i) => i.op !== 'variable');
  entry.insts.splice(at < 0 ? entry.insts.length : at, 0, ...computed.map((i) => remapInst(i, maps)));
}

/** `value` (of a type with the same structure as `to`) rebuilt as a `to` value, member by member. */
function copyLogical(cx: ReadContext, value: ValueId, to: TypeId, emit: (b: InstBody, t: TypeId) => ValueId, mismatch: () => never): ValueId {
  const from = cx.valueTypes.get(value);
  if (from === to) return value;
  const tt = typeOf(cx.m.types, to);
  if (tt.kind === 'struct') {
    const parts = tt.members.map((mem, i) => copyLogical(cx, emit({ op: 'extract', value, indices: [i] }, memberType(cx, from, i, mismatch)), mem.type, emit, mismatch));
    return emit({ op: 'construct', parts }, to);
  }
  if (tt.kind === 'array') {
    const elem = from !== undefined ? typeOf(cx.m.types, from) : undefined;
    if (elem?.kind !== 'array' || elem.length !== tt.length) mismatch();
    const parts: ValueId[] = [];
    for (let i = 0; i < tt.length; i++) parts.push(copyLogical(cx, emit({ op: 'extract', value, indices: [i] }, (elem as { elem: TypeId }).elem), tt.elem, emit, mismatch));
    return emit({ op: 'construct', parts }, to);
  }
  return mismatch();
}

function memberType(cx: ReadContext, t: TypeId | undefined, i: number, mismatch: () => never): TypeId {
  const st = t !== undefined ? typeOf(cx.m.types, t) : undefined;
  if (st?.kind !== 'struct' || !st.members[i]) mismatch();
  return (st as { members: { type: TypeId }[] }).members[i]!.type;
}

function voidType(cx: ReadContext): TypeId {
  const i = cx.m.types.types.findIndex((t) => t.kind === 'void');
  if (i >= 0) return i as TypeId;
  cx.m.types.types.push({ kind: 'void' });
  cx.m.types.index = undefined;
  return (cx.m.types.types.length - 1) as TypeId;
}

interface Translated {
  inst: InstBody;
  resultType?: number;
  resultId?: number;
}

function translate(cx: ReadContext, inst: SpirvInstruction, fail: (inst: SpirvInstruction, message: string) => never): Translated | undefined {
  const o = inst.operands;
  const op = inst.opcode;
  const v = (i: number) => o[i]! as ValueId;
  const rest = (from: number) => [...o.subarray(from)] as ValueId[];
  const result = (body: InstBody): Translated => ({ inst: body, resultType: o[0]!, resultId: o[1]! });
  const none = (body: InstBody): Translated => ({ inst: body });
  const binary = BINARY.get(op);
  if (binary) return result({ op: 'binary', kind: binary, a: v(2), b: v(3) });
  const compare = COMPARE.get(op);
  if (compare) return result({ op: 'compare', kind: compare, a: v(2), b: v(3) });
  if (CONVERT.has(op)) return result({ op: 'convert', value: v(2) });
  const atomic = ATOMIC.get(op);
  if (atomic) return result({ op: 'atomic', kind: atomic, ptr: v(2), value: v(5) });
  const plain = SUBGROUP_PLAIN.get(op);
  if (plain) {
    checkSubgroupScope(cx, inst, o[2]!, fail);
    return result({ op: 'subgroup', kind: plain, args: rest(3) });
  }
  const grouped = SUBGROUP_GROUPED.get(op);
  if (grouped) {
    checkSubgroupScope(cx, inst, o[2]!, fail);
    const group = GROUP_OPERATION[o[3]!];
    if (!group) fail(inst, `group operation ${o[3]} (clustered or partitioned) is not supported`);
    return result({ op: 'subgroup', kind: grouped, args: rest(4), ...(grouped === 'ballotBitCount' && group === 'reduce' ? {} : { group }) } as InstBody);
  }
  switch (op) {
    case Op.Variable: return result({ op: 'variable', ...(o.length > 3 ? { init: v(3) } : {}) });
    case Op.Load: return result({ op: 'load', ptr: v(2) });
    case Op.Store: return none({ op: 'store', ptr: v(0), value: v(1) });
    case Op.AccessChain: case Op.InBoundsAccessChain: return result({ op: 'accessChain', base: v(2), indices: rest(3) });
    case Op.ArrayLength: return result({ op: 'arrayLength', ptr: v(2), member: o[3]! });
    case Op.ConvertUToPtr: return result({ op: 'convertUToPtr', value: v(2) });
    case Op.ConvertPtrToU: return result({ op: 'convertPtrToU', value: v(2) });
    case Op.SNegate: case Op.FNegate: return result({ op: 'unary', kind: 'neg', a: v(2) });
    case Op.Not: case Op.LogicalNot: return result({ op: 'unary', kind: 'not', a: v(2) });
    case Op.Transpose: return result({ op: 'unary', kind: 'transpose', a: v(2) });
    case Op.Any: return result({ op: 'test', kind: 'any', a: v(2) });
    case Op.All: return result({ op: 'test', kind: 'all', a: v(2) });
    case Op.IsNan: return result({ op: 'test', kind: 'isnan', a: v(2) });
    case Op.IsInf: return result({ op: 'test', kind: 'isinf', a: v(2) });
    case Op.Bitcast: return result({ op: 'bitcast', value: v(2) });
    case Op.Select: return result({ op: 'select', cond: v(2), a: v(3), b: v(4) });
    case Op.BitFieldInsert: return result({ op: 'bits', fn: 'bitfieldInsert', args: rest(2) });
    case Op.BitFieldSExtract: case Op.BitFieldUExtract: return result({ op: 'bits', fn: 'bitfieldExtract', args: rest(2) });
    case Op.BitReverse: return result({ op: 'bits', fn: 'bitfieldReverse', args: rest(2) });
    case Op.BitCount: return result({ op: 'bits', fn: 'bitCount', args: rest(2) });
    case Op.CompositeConstruct: return result({ op: 'construct', parts: rest(2) });
    case Op.CompositeExtract: return result({ op: 'extract', value: v(2), indices: [...o.subarray(3)] });
    case Op.CompositeInsert: return result({ op: 'insert', object: v(2), composite: v(3), indices: [...o.subarray(4)] });
    case Op.VectorShuffle: return result({ op: 'shuffle', a: v(2), b: v(3), components: [...o.subarray(4)].map((c) => (c === 0xffffffff ? 0 : c)) });
    case Op.VectorExtractDynamic: return result({ op: 'extractDynamic', value: v(2), index: v(3) });
    case Op.VectorInsertDynamic: return result({ op: 'insertDynamic', composite: v(2), value: v(3), index: v(4) });
    case Op.CopyObject: return result({ op: 'copyObject', value: v(2) });
    case Op.Undef: return result({ op: 'undef' });
    case Op.FunctionCall: return result({ op: 'call', callee: o[2]! as FunctionId, args: rest(3) });
    case Op.Phi: {
      const incoming: { value: ValueId; block: BlockId }[] = [];
      for (let i = 2; i + 1 < o.length; i += 2) incoming.push({ value: o[i]! as ValueId, block: o[i + 1]! as BlockId });
      return result({ op: 'phi', incoming });
    }
    case Op.AtomicLoad: return result({ op: 'atomic', kind: 'load', ptr: v(2) });
    case Op.AtomicStore: return none({ op: 'atomic', kind: 'store', ptr: v(0), value: v(3) });
    case Op.AtomicCompareExchange: return result({ op: 'atomic', kind: 'compareExchange', ptr: v(2), value: v(6), comparator: v(7) });
    case Op.AtomicIIncrement: case Op.AtomicIDecrement: {
      const one = constant(cx.m, cx.types.get(o[0]!)!, typeOf(cx.m.types, cx.types.get(o[0]!)!).kind === 'int' && (typeOf(cx.m.types, cx.types.get(o[0]!)!) as { width: number }).width === 64 ? 1n : 1);
      cx.valueTypes.set(one, cx.types.get(o[0]!)!);
      return result({ op: 'atomic', kind: op === Op.AtomicIIncrement ? 'add' : 'sub', ptr: v(2), value: one });
    }
    case Op.ReadClockKHR: {
      const scope = Number(cx.constants.get(o[2]!)?.value ?? Scope.Subgroup);
      return result(scope === Scope.Device ? { op: 'clock', scope: 'device', realtime: true } : { op: 'clock', scope: 'subgroup' });
    }
    case Op.ExtInst: return extInst(cx, inst, fail);
    case Op.SampledImage: return result({ op: 'sampledImage', image: v(2), sampler: v(3) });
    case Op.Image: return result({ op: 'image', kind: 'image', args: [v(2)] });
    case Op.ImageRead: return result({ op: 'image', kind: 'read', args: [v(2), v(3)] });
    case Op.ImageWrite: return none({ op: 'image', kind: 'write', args: [v(0), v(1), v(2)] });
    case Op.ImageQuerySize: return result({ op: 'image', kind: 'querySize', args: [v(2)] });
    case Op.ImageQuerySizeLod: return result({ op: 'image', kind: 'querySizeLod', args: [v(2), v(3)] });
    case Op.ImageQueryLevels: return result({ op: 'image', kind: 'queryLevels', args: [v(2)] });
    case Op.ImageSampleImplicitLod: case Op.ImageSampleExplicitLod: case Op.ImageFetch: case Op.ImageGather: {
      const operandsAt = op === Op.ImageGather ? 5 : 4;
      const io = imageOperands(inst, o, operandsAt, fail);
      const args = [v(2), v(3)];
      if (op === Op.ImageGather) args.push(v(4));
      if (io.grad) return result({ op: 'image', kind: 'sampleGrad', args: [...args, ...io.grad] });
      if (op === Op.ImageFetch) return result({ op: 'image', kind: 'fetch', args: io.lod !== undefined ? [...args, io.lod] : args });
      const kind = op === Op.ImageGather ? 'gather' : op === Op.ImageSampleExplicitLod ? 'sampleExplicitLod' : 'sampleImplicitLod';
      return result({
        op: 'image', kind, args, ...(io.lod !== undefined ? { lod: io.lod } : {}), ...(io.bias !== undefined ? { bias: io.bias } : {}),
        ...(io.offset !== undefined ? { offset: io.offset } : {}),
      });
    }
    case Op.TraceRayKHR:
      return none({
        op: 'traceRay', accel: v(0), rayFlags: v(1), cullMask: v(2), sbtOffset: v(3), sbtStride: v(4), missIndex: v(5),
        origin: v(6), tmin: v(7), direction: v(8), tmax: v(9), payload: v(10),
      });
    case Op.ReportIntersectionKHR: return result({ op: 'reportIntersection', hitT: v(2), hitKind: v(3) });
    case Op.ExecuteCallableKHR: return none({ op: 'executeCallable', sbtIndex: v(0), callableData: v(1) });
    case Op.ConvertUToAccelerationStructureKHR: return result({ op: 'convertUToAccel', value: v(2) });
    case Op.Branch: return none({ op: 'branch', target: o[0]! as BlockId });
    case Op.BranchConditional: return none({ op: 'condBranch', cond: v(0), ifTrue: o[1]! as BlockId, ifFalse: o[2]! as BlockId });
    case Op.Switch: {
      const selType = cx.valueTypes.get(o[0]!);
      const sel = selType !== undefined ? typeOf(cx.m.types, selType) : undefined;
      const wide = sel?.kind === 'int' && sel.width === 64;
      const signed = sel?.kind === 'int' && sel.signed;
      const cases: { value: number; target: BlockId }[] = [];
      for (let i = 2; i < o.length; i += wide ? 3 : 2) {
        const value = wide ? Number(BigInt.asIntN(64, (BigInt(o[i + 1]!) << 32n) | BigInt(o[i]!))) : signed ? o[i]! | 0 : o[i]!;
        cases.push({ value, target: o[i + (wide ? 2 : 1)]! as BlockId });
      }
      return none({ op: 'switch', selector: v(0), default: o[1]! as BlockId, cases });
    }
    case Op.Return: return none({ op: 'return' });
    case Op.ReturnValue: return none({ op: 'return', value: v(0) });
    case Op.Unreachable: return none({ op: 'unreachable' });
    case Op.IgnoreIntersectionKHR: return none({ op: 'ignoreIntersection' });
    case Op.TerminateRayKHR: return none({ op: 'terminateRay' });
    case Op.Nop: return undefined;
    default:
      return fail(inst, 'is not supported by vvision\'s SPIR-V reader (no IR instruction has its meaning)');
  }
}

function checkSubgroupScope(cx: ReadContext, inst: SpirvInstruction, scopeId: number, fail: (inst: SpirvInstruction, message: string) => never): void {
  const scope = cx.constants.get(scopeId)?.value;
  if (scope !== Scope.Subgroup) fail(inst, `execution scope ${String(scope)} (vvision models subgroup scope only)`);
}

function imageOperands(
  inst: SpirvInstruction, o: Uint32Array, at: number, fail: (inst: SpirvInstruction, message: string) => never,
): { lod?: ValueId; bias?: ValueId; offset?: ValueId; grad?: [ValueId, ValueId] } {
  if (at >= o.length) return {};
  const mask = o[at]!;
  let i = at + 1;
  const next = () => o[i++]! as ValueId;
  const out: { lod?: ValueId; bias?: ValueId; offset?: ValueId; grad?: [ValueId, ValueId] } = {};
  if (mask & ImageOperand.Bias) out.bias = next();
  if (mask & ImageOperand.Lod) out.lod = next();
  if (mask & ImageOperand.Grad) out.grad = [next(), next()];
  if (mask & ImageOperand.ConstOffset) out.offset = next();
  if (mask & ImageOperand.Offset) out.offset = next();
  const unsupported = mask & ~(ImageOperand.Bias | ImageOperand.Lod | ImageOperand.Grad | ImageOperand.ConstOffset | ImageOperand.Offset);
  if (unsupported) fail(inst, `image operands 0x${unsupported.toString(16)} are not supported`);
  return out;
}

function extInst(cx: ReadContext, inst: SpirvInstruction, fail: (inst: SpirvInstruction, message: string) => never): Translated {
  const o = inst.operands;
  const set = cx.extInstSets.get(o[2]!);
  const args = [...o.subarray(4)] as ValueId[];
  if (set === 'GLSL.std.450') {
    const fn = EXT_FN.get(o[3]!);
    if (!fn) fail(inst, `GLSL.std.450 instruction ${o[3]} is not supported`);
    return { inst: { op: 'ext', fn: fn!, args }, resultType: o[0]!, resultId: o[1]! };
  }
  if (set === 'NonSemantic.DebugPrintf' && o[3] === 1) {
    const format = cx.strings.get(o[4]!);
    if (format === undefined) fail(inst, `debugPrintf format %${o[4]} is not an OpString`);
    return { inst: { op: 'debugPrintf', format: format!, args: args.slice(1) }, resultType: o[0]!, resultId: o[1]! };
  }
  return fail(inst, `extended instruction ${o[3]} of '${set ?? `%${o[2]}`}' is not supported`);
}
