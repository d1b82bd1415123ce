/**
 * The PTX ops an IR instruction becomes in Vulkan-Sim, for the timing model's per-opcode latency
 * (ptx-op.ts): the op the instruction issues as, then the ops on the critical path of the
 * dependent sequence that Vulkan-Sim's NIR-to-PTX translator emits for it (mesa-vulkan-sim
 * `nir_print.c` PTX printer and `ptx_lower_instructions.py`: fadd -> add.f32, fmul -> mul.f32,
 * frcp / frsq / fsqrt -> rcp / rsqrt / sqrt.approx, fmin / fmax -> min / max.f32, fsat -> max then
 * min, flrp -> sub, mul, mul, add, fpow -> lg2, mul, ex2, comparisons -> setp, bcsel -> selp;
 * there is no ffma or fdiv in that printer, so NIR's lowering gives mul then add, and rcp then
 * mul). Vector components run in parallel and add nothing to the path; a reduction (dot, length)
 * adds one add per component after the first.
 *
 * What lavapipe's NIR pipeline does before the printer (lvp_pipeline.c `optimize` and
 * `vsim_shader_spirv_to_nir`, llvmpipe's `gallivm_nir_options`) shapes these sequences too:
 * nir_opt_algebraic lowers every subtraction to fadd(a, fneg(b)) (iadd / ineg for integers) and
 * nothing recombines them, so a subtraction is a neg then an add unless b is a constant (its
 * negation folds); lower_fdiv gives fmul(a, frcp(b)) and constant folding turns a constant b's
 * frcp into a constant, so a division by a constant is one mul, and 1 / b is the frcp alone.
 *
 * Where NIR lowers a GLSL function into a longer polynomial or sequence (inverse trigonometry,
 * smoothstep, refract, integer division), the path lists the sequence's dependent steps as the
 * lowering writes them, shortened to its structure; every such case is listed below by name.
 */
import type { Inst, InstOf, ValueId } from '../../ir/inst.js';
import type { TypeId } from '../../ir/types.js';
import { IssueUnit, PtxOp, ptxUnitOf } from '../ptx-op.js';

/** What the mapping needs to know of an operand's type. */
export interface OperandTypes {
  /** The scalar kind of the value (its element kind for a vector or matrix). */
  scalar(v: ValueId): 'f32' | 'f64' | 'int' | 'other';
  /** Components of a vector (its column length for a matrix), 1 for a scalar. */
  components(v: ValueId): number;
  /** The same for a type (an instruction's result type). */
  componentsOfType(t: TypeId): number;
  /** The 32/64-bit leaves of a type (a struct's or matrix's every component; a vector's components). */
  leavesOfType(t: TypeId): number;
  /** The same for a value's type. */
  leaves(v: ValueId): number;
  /** Columns of a matrix type, 1 otherwise. */
  columnsOfType(t: TypeId): number;
  /** Whether the value is a compile-time constant. */
  isConstant(v: ValueId): boolean;
  /** Whether the value is a compile-time constant whose every component is 1. */
  isConstantOne(v: ValueId): boolean;
  /**
   * For a pointer that is a variable itself: 'buffer' for a descriptor-backed one (storage buffer,
   * uniform, shader record), 'variable' for any other, undefined for a derived pointer or a builtin.
   */
  rootKind(v: ValueId): 'buffer' | 'variable' | undefined;
}

/**
 * PTX instructions of a buffer's descriptor (mesa-vulkan-sim ptx_lower_instructions.py): its
 * vulkan_resource_index, load_vulkan_descriptor and deref_cast (mov.b64). NIR's CSE keeps one per
 * dominator path, so they are charged where first used (first-use-loads.ts), not here.
 */
export const DESCRIPTOR_PTX = 3;

/**
 * PTX instructions that reach a variable's address before an access chain or a load / store: a
 * variable's deref_var (mov.b64), 1; a buffer's are DESCRIPTOR_PTX, charged elsewhere.
 */
function rootCount(types: OperandTypes, ptr: ValueId): number {
  return types.rootKind(ptr) === 'variable' ? 1 : 0;
}

/**
 * The PTX instructions of a load or store NIR makes for only `kept` components of its value (a
 * store of values already held: redundant-stores.ts; a load shrunk to the components read:
 * dead-results.ts): those, after the variable's own address when it has no chain; nothing when
 * none is kept.
 */
export function partialAccessCount(inst: InstOf<'load'> | InstOf<'store'>, types: OperandTypes, kept: number): number {
  return kept === 0 ? 0 : kept + rootCount(types, inst.ptr);
}

function arith(kind: 'f32' | 'f64' | 'int' | 'other', fp: PtxOp, dp: PtxOp, int: PtxOp): PtxOp {
  return kind === 'f32' ? fp : kind === 'f64' ? dp : kind === 'int' ? int : PtxOp.Other;
}

const add = (k: ReturnType<OperandTypes['scalar']>): PtxOp => arith(k, PtxOp.FpAdd, PtxOp.DpAdd, PtxOp.IntAdd);
const mul = (k: ReturnType<OperandTypes['scalar']>): PtxOp => arith(k, PtxOp.FpMul, PtxOp.DpMul, PtxOp.IntMul);
const minMax = (k: ReturnType<OperandTypes['scalar']>): PtxOp => arith(k, PtxOp.FpMinMax, PtxOp.DpMinMax, PtxOp.IntMinMax);

/** mul then one add per further component: a dot product of n-component vectors. */
function dot(k: ReturnType<OperandTypes['scalar']>, n: number): PtxOp[] {
  const ops = [mul(k)];
  for (let i = 1; i < n; i++) ops.push(add(k));
  return ops;
}

/** Integer division and remainder: NIR's nir_lower_idiv (u2f, rcp, mul, f2u, then the correction mul and sub). */
const INT_DIVISION: readonly PtxOp[] = [PtxOp.Other, PtxOp.Sfu, PtxOp.FpMul, PtxOp.Other, PtxOp.IntMul, PtxOp.IntAdd];

const MUL = PtxOp.FpMul, ADD = PtxOp.FpAdd, MINMAX = PtxOp.FpMinMax, SFU = PtxOp.Sfu, OTHER = PtxOp.Other;
/** nir_atan (nir_builtin_builder.c): fabs, fmin / fmax, the division, x^2..x^11, the odd terms' fsum, the range fix (flt, b2f, two ffma), the sign. */
const ATAN_CHAIN: readonly PtxOp[] = [OTHER, MINMAX, SFU, MUL, MUL, MUL, MUL, MUL, MUL, MUL, MUL, ADD, MUL, ADD, MUL];

/**
 * NIR's lowerings of the inverse trigonometric functions, per component: the dependent steps of
 * the sequence (`chain`), and its PTX instructions (`count`) with the movs of its load_consts (two
 * per distinct coefficient, the translator's load_const): nir_atan 31 ALU ops and 9 constants;
 * nir_atan2 22 more ALU ops (the quadrant selects, the scaled reciprocal) and 4 more constants;
 * vtn_glsl450.c build_asin, piecewise for asin (30 ALU ops, 10 constants), one piece and a
 * subtraction from pi/2 for acos (19, 7).
 */
const INVERSE_TRIG: Readonly<Record<string, { chain: readonly PtxOp[]; count: number }>> = {
  atan: { chain: ATAN_CHAIN, count: 31 + 2 * 9 },
  atan2: { chain: [OTHER, OTHER, MUL, SFU, MUL, MUL, OTHER, OTHER, ...ATAN_CHAIN, MUL, ADD, OTHER], count: 53 + 2 * 13 },
  asin: { chain: [OTHER, MUL, ADD, MUL, ADD, MUL, ADD, MUL, ADD, MUL, OTHER], count: 30 + 2 * 10 },
  acos: { chain: [OTHER, MUL, ADD, MUL, ADD, MUL, ADD, MUL, ADD, MUL, ADD], count: 19 + 2 * 7 },
};

/** What an IR instruction becomes in Vulkan-Sim's PTX. */
export interface PtxSequence {
  /** The op it issues as, then the ops on its critical path (never empty). */
  chain: readonly PtxOp[];
  /** PTX instructions in all (components and parallel ops included); 0 for an instruction NIR's SSA form does not have. */
  count: number;
}

/**
 * Instructions with no PTX counterpart: NIR's lower_vars_to_ssa turns register-promotable
 * variables into SSA values (their loads, stores and access chains vanish), its scalar ALU ops
 * read vector components through swizzles (extract, shuffle, insert and construct are copy-
 * propagated away), and bitcasts and copies are no-ops.
 */
const NO_PTX: ReadonlySet<string> = new Set(['extract', 'shuffle', 'insert', 'construct', 'copyObject', 'undef', 'bitcast', 'transpose', 'convertUToPtr', 'convertPtrToU']);

/** A payload copy around a shader call: Vulkan-Sim's shaders use the caller's payload in place. */
function isPayloadCopy(inst: Inst): boolean {
  return (inst.op === 'load' || inst.op === 'store') && inst.payloadCopy === true;
}

/**
 * The PTX sequence of instruction `inst`; `promoted`: it loads, stores or indexes a
 * register-promoted variable (an SSA value in NIR).
 */
export function ptxSequenceOf(inst: Inst, types: OperandTypes, promoted: boolean, sharedReciprocal = false): PtxSequence {
  if (promoted || NO_PTX.has(inst.op) || isPayloadCopy(inst)) return { chain: [PtxOp.Other], count: 0 };
  // A division whose divisor's frcp an earlier division took (NIR's CSE): the mul alone.
  const chain = sharedReciprocal && inst.op === 'binary' && inst.kind === 'div' && types.scalar(inst.a) === 'f32' ? [PtxOp.FpMul] : ptxOpsOf(inst, types);
  return { chain, count: ptxCountOf(inst, types, chain) };
}

/**
 * The unit classes (ptx-op.ts IssueUnit Sp, Int, Sfu, Dp) of an ALU instruction's `count` PTX
 * instructions, from its sequence and its result's `components`: an element-wise sequence (count
 * = components x the chain's length) is its chain once per component, so each chain op's class
 * counts that many times;
 * otherwise (a reduction such as dot or length, a polynomial such as atan) the ops off the critical
 * path are taken to be of the chain's most frequent class (SP on a tie), and every chain op of
 * another class to occur once (normalize's one rsqrt, atan's one rcp).
 */
export function sequenceClassCounts(seq: PtxSequence, components: number): number[] {
  const out = [0, 0, 0, 0];
  if (seq.count <= 0 || seq.chain.length === 0) return out;
  const inChain = [0, 0, 0, 0];
  for (const op of seq.chain) inChain[ptxUnitOf(op)]!++;
  if (seq.count === components * seq.chain.length) {
    for (let c = 0; c < 4; c++) out[c] = inChain[c]! * components;
    return out;
  }
  let major = IssueUnit.Sp as number;
  for (let c = 0; c < 4; c++) if (inChain[c]! > inChain[major]!) major = c;
  let others = 0;
  for (let c = 0; c < 4; c++) if (c !== major) {
    out[c] = inChain[c]!;
    others += inChain[c]!;
  }
  out[major] = Math.max(0, seq.count - others);
  return out;
}

/** Instructions whose vector result NIR has as scalar components (ALU ops and composites). */
const VECTOR_BUILDERS: ReadonlySet<string> = new Set(['binary', 'unary', 'ext', 'convert', 'select', 'construct', 'insert', 'shuffle', 'compare', 'bits', 'insertDynamic']);

/**
 * The movs of the vecN instructions NIR builds for the vector operands `inst` reads whole: after
 * nir_lower_alu_to_scalar an ALU result is its scalar components, and copy propagation lets ALU
 * readers use those directly; a reader that takes the vector whole (a store to memory, an image
 * store, a traceRay's origin and direction) reads a vecN, which the PTX printer writes as one mov
 * per component (nir_print.c print_alu_instr_as_ptx). A loaded vector is a vector already.
 * `defOp(v)`: the op defining v; `toRegister`: a store to a register variable (an SSA value in NIR).
 */
export function vectorMovesOf(inst: Inst, types: OperandTypes, defOp: (v: ValueId) => string | undefined, toRegister: boolean): number {
  let whole: readonly ValueId[];
  if (inst.op === 'store') whole = toRegister ? [] : [inst.value];
  else if (inst.op === 'image' || inst.op === 'rtCall') whole = inst.args;
  else return 0;
  let movs = 0;
  for (const v of whole) {
    const n = types.components(v);
    const op = defOp(v);
    if (n > 1 && op !== undefined && VECTOR_BUILDERS.has(op)) movs += n;
  }
  return movs;
}

/** PTX instructions of a non-vanishing instruction: per component for element-wise ops (NIR's ALU is scalar). */
function ptxCountOf(inst: Inst, types: OperandTypes, chain: readonly PtxOp[]): number {
  const n = 'type' in inst && typeof inst.type === 'number' ? types.componentsOfType(inst.type) : 1;
  switch (inst.op) {
    case 'binary':
      switch (inst.kind) {
        case 'dot':
          // fmul per component, then the fsum adds: 2n - 1.
          return 2 * types.components(inst.a) - 1;
        // Each result component is a dot product: k muls and k - 1 adds (the ffma chain, lowered).
        case 'matrixTimesVector':
          return n * (2 * types.components(inst.b) - 1);
        case 'vectorTimesMatrix':
          return n * (2 * types.components(inst.a) - 1);
        case 'matrixTimesMatrix':
          return types.componentsOfType(inst.type) * types.columnsOfType(inst.type) * (2 * types.components(inst.b) - 1);
        case 'outerProduct':
        case 'matrixTimesScalar':
          return types.componentsOfType(inst.type) * types.columnsOfType(inst.type);
        default:
          return n * chain.length;
      }
    case 'ext': {
      const k = types.components(inst.args[0]!);
      // length: the dot's 2k - 1, then sqrt; distance: a neg and an add per component before it.
      if (inst.fn === 'length') return 2 * k;
      if (inst.fn === 'distance') return 4 * k;
      if (inst.fn === 'determinant') return chain.length;
      if (inst.fn === 'normalize') return 2 * k - 1 + 1 + k;
      // faceforward: the dot, flt with 0.0 (its load_const's two movs), fneg and bcsel per component.
      if (inst.fn === 'faceforward') return 2 * k - 1 + 1 + 2 + 2 * k;
      // reflect (vtn_glsl450.c): the dot, fmul by 2.0 (two movs), then a_minus_bc per component (fneg, mul, add).
      if (inst.fn === 'reflect') return 2 * k - 1 + 1 + 2 + 3 * k;
      // refract: the dot; k = 1 - eta^2 (1 - dot^2): two a_minus_bc and a mul (7); sqrt; ffma (2);
      // eta * I and a_minus_bc per component (4k); flt and bcsel per component; 1.0 and 0.0 (four movs).
      if (inst.fn === 'refract') return 2 * k - 1 + 7 + 1 + 2 + 4 * k + 1 + k + 4;
      // cross: per component two fmul, the fneg of one and the fadd (nir_cross3 after lower_ffma).
      if (inst.fn === 'cross') return 12;
      // mix: nir_lower_flrp's a * (1 - t) + b * t, with 1 - t as fneg and fadd.
      if (inst.fn === 'mix') return 5 * n;
      if (inst.fn === 'inverse') return types.componentsOfType(inst.type) * types.columnsOfType(inst.type) * 3;
      if (Object.hasOwn(INVERSE_TRIG, inst.fn)) return n * INVERSE_TRIG[inst.fn]!.count;
      return n * chain.length;
    }
    case 'compare':
    case 'unary':
    case 'select':
    case 'convert':
    case 'subgroup':
    case 'bits':
      return n;
    case 'test':
      // any / all: or / and over the components' predicates; isnan / isinf: a setp each.
      return inst.kind === 'any' || inst.kind === 'all' ? Math.max(1, types.components(inst.a) - 1) : n;
    case 'extractDynamic':
      // NIR lowers an indirect vector index to a bcsel chain.
      return Math.max(1, types.components(inst.value) - 1);
    case 'insertDynamic':
      return types.components(inst.composite);
    case 'load':
    case 'store':
      // Scalar loads and stores per component (ld.global / st.global per component; the access
      // itself stays one vector access here), after the variable's own address when it has no chain.
      // A struct or matrix is one per leaf: nir_lower_var_copies splits its copy into its members'.
      return (inst.op === 'load' ? types.leavesOfType(inst.type) : types.leaves(inst.value)) + rootCount(types, inst.ptr);
    case 'accessChain':
      // The root's address, then per index: deref_struct / constant deref_array add.u64 (1); a
      // dynamic deref_array mov (or cvt), mul.wide, add.u64 (3).
      return rootCount(types, inst.base) + inst.indices.reduce((a, v) => a + (types.isConstant(v) ? 1 : 3), 0);
    case 'switch':
      return 1 + inst.cases.length;
    default:
      return 1;
  }
}

/** The PTX ops instruction `inst` becomes, first the one it issues as (never empty). */
function ptxOpsOf(inst: Inst, types: OperandTypes): readonly PtxOp[] {
  switch (inst.op) {
    case 'binary': {
      const k = types.scalar(inst.a);
      switch (inst.kind) {
        case 'add':
          return [add(k)];
        case 'sub':
          // nir_opt_algebraic lowers every fsub / isub to fadd(a, fneg(b)) and never recombines them
          // (llvmpipe's options have no has_fsub); a constant b's negation folds into the constant.
          return types.isConstant(inst.b) ? [add(k)] : [PtxOp.Other, add(k)];
        case 'mul':
        case 'vectorTimesScalar':
        case 'matrixTimesScalar':
        case 'outerProduct':
          return [mul(k)];
        case 'div':
          // fdiv: rcp then mul; f64 keeps div.f64 (DP DIV); integers through nir_lower_idiv.
          // NIR lowers fdiv to fmul(a, frcp(b)) and then folds constants: a constant divisor's
          // frcp is a constant (the mul alone remains), and 1 / b is the frcp alone.
          if (k !== 'f32') return k === 'f64' ? [PtxOp.DpDiv] : INT_DIVISION;
          if (types.isConstant(inst.b)) return [PtxOp.FpMul];
          return types.isConstantOne(inst.a) ? [PtxOp.Sfu] : [PtxOp.Sfu, PtxOp.FpMul];
        case 'rem':
        case 'mod':
          // x - y * floor(x / y): rcp, mul, cvt.rmi, mul, sub (no rcp for a constant y, folded as in div).
          if (k === 'int') return INT_DIVISION;
          return types.isConstant(inst.b) ? [mul(k), PtxOp.Other, mul(k), add(k)] : [PtxOp.Sfu, mul(k), PtxOp.Other, mul(k), add(k)];
        case 'dot':
          return dot(k, types.components(inst.a));
        case 'matrixTimesVector':
        case 'matrixTimesMatrix':
          // Each result component is a dot product over the left matrix's columns.
          return dot(k, types.components(inst.b));
        case 'vectorTimesMatrix':
          return dot(k, types.components(inst.a));
        default:
          // shl, shr, and, or, xor.
          return [PtxOp.Other];
      }
    }
    case 'ext':
      return extOps(inst.fn, types, inst.args);
    case 'subgroup':
      return inst.kind.startsWith('shuffle') || inst.kind === 'broadcast' || inst.kind === 'broadcastFirst' ? [PtxOp.Shfl] : [PtxOp.Other];
    case 'accessChain': {
      // mov of the root, then an add.u64 per index (a dynamic one after its mul.wide).
      const ops: PtxOp[] = [PtxOp.Other];
      for (const v of inst.indices) {
        if (!types.isConstant(v)) ops.push(PtxOp.IntMul);
        ops.push(PtxOp.IntAdd);
      }
      return ops;
    }
    default:
      // unary (neg, not), compare (setp), test, select (selp), convert (cvt), bitcast, composites
      // (mov), bit ops (popc, brev, bfe, bfi: opcodes set_opcode_and_latency leaves at 1),
      // memory, control, RT: their latency is the memory system's, the RT unit's, or 1.
      return [PtxOp.Other];
  }
}

function extOps(fn: string, types: OperandTypes, args: readonly ValueId[]): readonly PtxOp[] {
  const k = types.scalar(args[0]!);
  const n = types.components(args[0]!);
  switch (fn) {
    case 'min':
    case 'max':
    case 'nmin':
    case 'nmax':
      return [minMax(k)];
    case 'clamp':
    case 'nclamp':
      return [minMax(k), minMax(k)];
    case 'sqrt':
    case 'inversesqrt':
    case 'sin':
    case 'cos':
    case 'exp2':
    case 'log2':
      return [PtxOp.Sfu];
    case 'exp':
      return [PtxOp.FpMul, PtxOp.Sfu];
    case 'log':
      return [PtxOp.Sfu, PtxOp.FpMul];
    case 'pow':
      return [PtxOp.Sfu, PtxOp.FpMul, PtxOp.Sfu];
    case 'tan':
      // sin / cos: cos, rcp, mul (sin in parallel).
      return [PtxOp.Sfu, PtxOp.Sfu, PtxOp.FpMul];
    case 'asin':
    case 'acos':
    case 'atan':
    case 'atan2':
      return INVERSE_TRIG[fn]!.chain;
    case 'sinh':
    case 'cosh':
    case 'tanh':
    case 'asinh':
    case 'acosh':
    case 'atanh':
      // Through exp / log: mul, ex2 (or lg2 of a root), then the combining add and a reciprocal.
      return [PtxOp.FpMul, PtxOp.Sfu, PtxOp.FpAdd, PtxOp.Sfu, PtxOp.FpMul];
    case 'radians':
    case 'degrees':
      return [PtxOp.FpMul];
    case 'abs':
    case 'floor':
    case 'ceil':
    case 'trunc':
    case 'round':
    case 'roundEven':
    case 'findLSB':
    case 'findMSB':
      return [PtxOp.Other];
    case 'sign':
    case 'step':
      return [PtxOp.Other, PtxOp.Other];
    case 'fract':
      return [PtxOp.Other, add(k)];
    case 'modf':
    case 'modfStruct':
    case 'frexp':
    case 'ldexp':
      return [PtxOp.Other, add(k)];
    case 'mix':
      // nir_lower_flrp (precise): a * (1 - t) + b * t; 1 - t is fneg then fadd, then the mul and
      // the final add (the other mul runs beside).
      return [PtxOp.Other, add(k), mul(k), add(k)];
    case 'fma':
      return [mul(k), add(k)];
    case 'smoothstep':
      // t = fsat((x - e0) * rcp(e1 - e0)); t * t * (3 - 2t).
      return [add(k), PtxOp.Sfu, mul(k), minMax(k), minMax(k), mul(k), mul(k)];
    case 'length':
      return [...dot(k, n), PtxOp.Sfu];
    case 'distance':
      // length(a - b): the subtraction's fneg and fadd first.
      return [PtxOp.Other, add(k), ...dot(k, n), PtxOp.Sfu];
    case 'normalize':
      return [...dot(k, n), PtxOp.Sfu, mul(k)];
    case 'cross':
      // nir_cross3: ffma(x.yzx, y.zxy, fneg(x.zxy * y.yzx)), ffma lowered: mul, fneg, add.
      return [mul(k), PtxOp.Other, add(k)];
    case 'faceforward':
      return [...dot(k, n), PtxOp.Other, PtxOp.Other];
    case 'reflect':
      return [...dot(k, n), mul(k), mul(k), add(k)];
    case 'refract':
      return [...dot(k, n), mul(k), add(k), mul(k), PtxOp.Sfu, add(k), mul(k), add(k)];
    case 'determinant':
      return [mul(k), add(k), add(k)];
    case 'inverse':
      return [mul(k), add(k), add(k), PtxOp.Sfu, mul(k)];
    default:
      // pack / unpack: shifts, masks and conversions.
      return [PtxOp.Other, PtxOp.Other];
  }
}
