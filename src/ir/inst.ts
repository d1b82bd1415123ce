/**
 * IR instructions: a plain-object discriminated union on `op`, JSON-able and printable.
 *
 * Granularity follows SPIR-V (one IR instruction per SPIR-V instruction of the same meaning), so
 * a SPIR-V reader/writer can be added without changing the IR. Where SPIR-V splits an operation
 * by operand type (OpIAdd / OpFAdd, OpSLessThan / OpULessThan / OpFOrdLessThan) the IR keeps one
 * op and the operand type decides; a writer recovers the SPIR-V opcode from the types.
 *
 * Invariants (checked by `verify`):
 * - Every value-producing instruction has a fresh `id` (unique in the module) and a `type`.
 *   Instructions with no result have `id` too (their identity, e.g. for instrumentation sites)
 *   and `type` = void.
 * - An SSA value is defined before all its uses in dominance order (phis: in the predecessor).
 * - The last instruction of a block, and only it, is a terminator (`isTerminator`).
 * - Phis come first in their block, one incoming entry per predecessor.
 * - `variable` instructions (function-storage locals) come first in the entry block.
 * - Every instruction carries `loc`, the position in the original GLSL source (through #include).
 */
import type { TypeId } from './types.js';

/** An SSA value: instruction result, function parameter, constant or global variable. */
export type ValueId = number & { readonly __brand: 'ValueId' };
export type BlockId = number & { readonly __brand: 'BlockId' };
export type FunctionId = number & { readonly __brand: 'FunctionId' };

/** Source location; `file` indexes `Module.sources`. Line and column are 1-based; 0 = unknown. */
export interface Loc {
  file: number;
  line: number;
  column: number;
}

export const NO_LOC: Loc = { file: 0, line: 0, column: 0 };

/** Two-operand arithmetic, bitwise and logical ops; operand types decide int/float/signedness. */
export type BinaryOp =
  | 'add' | 'sub' | 'mul' | 'div'
  | 'rem' // sign of the dividend (SPIR-V SRem/FRem); GLSL % on ints
  | 'mod' // sign of the divisor (SPIR-V FMod/SMod); GLSL mod()
  | 'shl' | 'shr' // shr is arithmetic for signed, logical for unsigned operands
  | 'and' | 'or' | 'xor' // bitwise on ints, logical on bools
  | 'vectorTimesScalar' | 'matrixTimesScalar' | 'vectorTimesMatrix' | 'matrixTimesVector' | 'matrixTimesMatrix'
  | 'dot' | 'outerProduct';

export type UnaryOp = 'neg' | 'not' /* bitwise ~ or logical ! by type */ | 'transpose';

export type CompareOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

/** Boolean reductions and classification (SPIR-V OpAny/OpAll/OpIsNan/OpIsInf). */
export type TestOp = 'any' | 'all' | 'isnan' | 'isinf';

/**
 * GLSL.std.450 extended instructions (names as GLSL spells them). Operand/result types as in
 * GLSL; the int/uint/float variant is decided by operand type (SAbs/FAbs, SMin/UMin/FMin, ...).
 */
export type ExtFn =
  | 'round' | 'roundEven' | 'trunc' | 'abs' | 'sign' | 'floor' | 'ceil' | 'fract'
  | 'radians' | 'degrees' | 'sin' | 'cos' | 'tan' | 'asin' | 'acos' | 'atan' | 'atan2'
  | 'sinh' | 'cosh' | 'tanh' | 'asinh' | 'acosh' | 'atanh'
  | 'pow' | 'exp' | 'log' | 'exp2' | 'log2' | 'sqrt' | 'inversesqrt'
  | 'determinant' | 'inverse' | 'modf' | 'modfStruct' | 'min' | 'max' | 'clamp' | 'mix' | 'step' | 'smoothstep' | 'fma'
  | 'frexp' | 'ldexp'
  | 'packSnorm4x8' | 'packUnorm4x8' | 'packSnorm2x16' | 'packUnorm2x16' | 'packHalf2x16' | 'packDouble2x32'
  | 'unpackSnorm2x16' | 'unpackUnorm2x16' | 'unpackHalf2x16' | 'unpackSnorm4x8' | 'unpackUnorm4x8' | 'unpackDouble2x32'
  | 'length' | 'distance' | 'cross' | 'normalize' | 'faceforward' | 'reflect' | 'refract'
  | 'findLSB' | 'findMSB' // findMSB: SMsb/UMsb by type
  | 'nmin' | 'nmax' | 'nclamp';

/** Bit ops that are core SPIR-V instructions rather than GLSL.std.450. */
export type BitOp = 'bitfieldInsert' | 'bitfieldExtract' | 'bitfieldReverse' | 'bitCount';

export type AtomicOp =
  | 'load' | 'store' | 'exchange' | 'compareExchange'
  | 'add' | 'sub' | 'min' | 'max' | 'and' | 'or' | 'xor'; // min/max signedness by type

/**
 * Subgroup (GL_KHR_shader_subgroup_*) operations. Arithmetic ones carry a `group` operation
 * (reduce / inclusiveScan / exclusiveScan) as SPIR-V's GroupOperation does.
 */
export type SubgroupOp =
  | 'elect' | 'all' | 'any' | 'allEqual'
  | 'ballot' | 'inverseBallot' | 'ballotBitExtract' | 'ballotBitCount' | 'ballotFindLSB' | 'ballotFindMSB'
  | 'broadcast' | 'broadcastFirst'
  | 'add' | 'mul' | 'min' | 'max' | 'and' | 'or' | 'xor'
  | 'shuffle' | 'shuffleXor' | 'shuffleUp' | 'shuffleDown';

export type GroupOperation = 'reduce' | 'inclusiveScan' | 'exclusiveScan';

export type ImageOp =
  | 'read' // imageLoad: args [image, coord]
  | 'write' // imageStore: args [image, coord, texel]
  | 'querySize' // imageSize / textureSize without lod: args [image]
  | 'querySizeLod' // textureSize(sampler, lod): args [image, lod]
  | 'queryLevels'
  | 'sampleImplicitLod' // texture(): args [sampledImage, coord] (+ bias)
  | 'sampleExplicitLod' // textureLod(): args [sampledImage, coord, lod]
  | 'sampleGrad' // textureGrad(): args [sampledImage, coord, dPdx, dPdy]
  | 'fetch' // texelFetch: args [image, coord, lod]
  | 'gather'
  | 'image'; // extract the image from a sampled image (OpImage): args [sampledImage]

/**
 * Functions of the simulator's RT runtime that lowered pipelines call (per lane):
 * - traverse [accel, rayFlags, cullMask, sbtOffset, sbtStride, missIndex, origin, tmin, direction, tmax] -> u32:
 *   pushes a new ray on the lane's ray stack, runs traverseAS (committing the closest opaque
 *   triangle hit) and records the delayed candidates (procedural AABB hits, non-opaque triangles);
 *   returns how many candidates were recorded.
 * - selectCandidate [i] -> u32: makes candidate i current (hit builtins now describe it); returns its hit group index.
 * - candidateIsProcedural [] -> bool
 * - reportIntersection [hitT, hitKind] -> bool: whether hitT lies in [tmin, committed t]; if so the
 *   candidate's t/kind/attributes become the pending hit.
 * - acceptTriangleCandidate [] -> bool: pending hit := current triangle candidate if closer than the committed one.
 * - commitPending []: the pending hit becomes the committed hit (attributes saved).
 * - terminated [] -> bool: whether terminate-on-first-hit or terminateRay ended the traversal.
 * - requestTerminate []: terminateRay semantics: stop processing further candidates.
 * - committedHitGroup [] -> i32: hit group of the committed hit, -1 when the ray missed.
 * - missIndex [] -> u32
 * - restoreCommitted []: hit builtins and hit attributes describe the committed hit (before closest-hit).
 * - endTrace []: pops the ray.
 * Function call coalescing (Vulkan-Sim Algorithm 3) replaces selectCandidate's in-order walk with:
 * - nextPendingCandidate [] -> i32: the coalescing key of the thread's first candidate not run yet
 *   (2 * hitGroup + 1 procedural, 2 * hitGroup triangle), -1 when none is left or the ray terminated.
 * - selectPendingCandidate [key] -> bool: makes the thread's first not-yet-run candidate with that
 *   key current (as selectCandidate) and marks it run; false when the thread has none.
 */
export type RtRuntimeFn =
  | 'traverse' | 'selectCandidate' | 'candidateIsProcedural' | 'reportIntersection' | 'acceptTriangleCandidate'
  | 'commitPending' | 'terminated' | 'requestTerminate' | 'committedHitGroup' | 'missIndex' | 'restoreCommitted' | 'endTrace'
  | 'nextPendingCandidate' | 'selectPendingCandidate';

export type ClockScope = 'device' | 'subgroup';

/** Operands common to all instructions. */
interface InstCommon {
  /** Result id (or identity for no-result instructions). Unique in the module. */
  id: ValueId;
  /** Result type; `void` type id for instructions without a result. */
  type: TypeId;
  loc: Loc;
}

export type Inst = InstCommon &
  (
    // ----- memory -----
    /** Function-local variable (SPIR-V OpVariable Function). `type` is the pointer type. Only at the start of the entry block. */
    | { op: 'variable'; init?: ValueId; /** The source name (SPIR-V OpName): debug information only, never printed or compared. */ name?: string }
    /**
     * `payloadCopy`: emitted by the RT pipeline lowering to pass a payload / callable data value
     * between a call site and the callee's incoming variable. It stands for argument passing
     * (Vulkan-Sim passes a pointer to the caller's variable; hardware passes registers), so the
     * simulator charges it as a register move, not memory traffic.
     */
    | { op: 'load'; ptr: ValueId; payloadCopy?: boolean }
    | { op: 'store'; ptr: ValueId; value: ValueId; payloadCopy?: boolean }
    /** Pointer into a composite; indices are SSA values (constants for struct members). `type` is the result pointer type. */
    | { op: 'accessChain'; base: ValueId; indices: ValueId[] }
    /** OpArrayLength: number of elements of the runtime array that is member `member` of the block `ptr` points to. */
    | { op: 'arrayLength'; ptr: ValueId; member: number }
    /** buffer_reference: u64 <-> physical storage buffer pointer (OpConvertUToPtr / OpConvertPtrToU). */
    | { op: 'convertUToPtr'; value: ValueId }
    | { op: 'convertPtrToU'; value: ValueId }
    // ----- arithmetic -----
    | { op: 'binary'; kind: BinaryOp; a: ValueId; b: ValueId }
    | { op: 'unary'; kind: UnaryOp; a: ValueId }
    | { op: 'compare'; kind: CompareOp; a: ValueId; b: ValueId }
    | { op: 'test'; kind: TestOp; a: ValueId }
    /** Numeric conversion to `type` (float<->int, width changes, bool from/to number). */
    | { op: 'convert'; value: ValueId }
    /** Reinterpret bits as `type` (same total width). */
    | { op: 'bitcast'; value: ValueId }
    /** Component-wise when `cond` is a bool vector. */
    | { op: 'select'; cond: ValueId; a: ValueId; b: ValueId }
    | { op: 'ext'; fn: ExtFn; args: ValueId[] }
    | { op: 'bits'; fn: BitOp; args: ValueId[] }
    // ----- composites -----
    | { op: 'construct'; parts: ValueId[] }
    | { op: 'extract'; value: ValueId; indices: number[] }
    | { op: 'insert'; object: ValueId; composite: ValueId; indices: number[] }
    /** Components index into the concatenation of a's and b's components. */
    | { op: 'shuffle'; a: ValueId; b: ValueId; components: number[] }
    /** OpVectorExtractDynamic / OpVectorInsertDynamic. */
    | { op: 'extractDynamic'; value: ValueId; index: ValueId }
    | { op: 'insertDynamic'; value: ValueId; composite: ValueId; index: ValueId }
    | { op: 'copyObject'; value: ValueId }
    | { op: 'undef' }
    // ----- calls and SSA -----
    | { op: 'call'; callee: FunctionId; args: ValueId[] }
    | { op: 'phi'; incoming: { value: ValueId; block: BlockId }[] }
    // ----- atomics, subgroup, clocks -----
    /** `value` absent for load; `comparator` only for compareExchange. Returns the original value (void for store). */
    | { op: 'atomic'; kind: AtomicOp; ptr: ValueId; value?: ValueId; comparator?: ValueId }
    /** `args` per op: ballot [pred]; broadcast [value, lane]; broadcastFirst [value]; ballotBitCount [ballot]; add [value] ... */
    | { op: 'subgroup'; kind: SubgroupOp; group?: GroupOperation; args: ValueId[] }
    /** Returns u64 (or uvec2 when `type` is uvec2: clock2x32ARB). */
    | { op: 'clock'; scope: ClockScope; realtime?: boolean }
    | { op: 'debugPrintf'; format: string; args: ValueId[] }
    // ----- images -----
    | { op: 'image'; kind: ImageOp; args: ValueId[]; /** explicit LOD / bias / offset operands */ lod?: ValueId; bias?: ValueId; offset?: ValueId }
    /** OpSampledImage: combine an image and a sampler. */
    | { op: 'sampledImage'; image: ValueId; sampler: ValueId }
    // ----- ray tracing -----
    /**
     * OpTraceRayKHR. `payload` is a pointer to a rayPayload-storage global; the GLSL location
     * passed to traceRayEXT was resolved to it by the front end.
     */
    | {
        op: 'traceRay';
        accel: ValueId; rayFlags: ValueId; cullMask: ValueId; sbtOffset: ValueId; sbtStride: ValueId;
        missIndex: ValueId; origin: ValueId; tmin: ValueId; direction: ValueId; tmax: ValueId; payload: ValueId;
      }
    /** Returns bool: whether the hit was accepted. Intersection shaders only. */
    | { op: 'reportIntersection'; hitT: ValueId; hitKind: ValueId }
    /** `callableData` is a pointer to a callableData-storage global. */
    | { op: 'executeCallable'; sbtIndex: ValueId; callableData: ValueId }
    /** OpConvertUToAccelerationStructureKHR. */
    | { op: 'convertUToAccel'; value: ValueId }
    /**
     * Pipeline-internal ray tracing runtime call, introduced only by the RT pipeline lowering
     * (Vulkan-Sim Algorithm 1), never by the front end: the simulator executes it per active lane
     * through its RT runtime. See `RtRuntimeFn` for the operands and results of each function.
     */
    | { op: 'rtCall'; fn: RtRuntimeFn; args: ValueId[] }
    // ----- terminators -----
    | { op: 'branch'; target: BlockId }
    | { op: 'condBranch'; cond: ValueId; ifTrue: BlockId; ifFalse: BlockId }
    | { op: 'switch'; selector: ValueId; default: BlockId; cases: { value: number; target: BlockId }[] }
    | { op: 'return'; value?: ValueId }
    | { op: 'unreachable' }
    /** Any-hit only: reject this candidate (OpIgnoreIntersectionKHR). */
    | { op: 'ignoreIntersection' }
    /** Any-hit only: accept this candidate and stop traversal (OpTerminateRayKHR). */
    | { op: 'terminateRay' }
  );

export type Op = Inst['op'];
export type InstOf<O extends Op> = Extract<Inst, { op: O }>;

const TERMINATORS: ReadonlySet<Op> = new Set<Op>([
  'branch', 'condBranch', 'switch', 'return', 'unreachable', 'ignoreIntersection', 'terminateRay',
]);

export function isTerminator(inst: Inst): boolean {
  return TERMINATORS.has(inst.op);
}

/** Successor blocks of a terminator, in order (switch: default first, then cases). */
export function successors(inst: Inst): BlockId[] {
  switch (inst.op) {
    case 'branch':
      return [inst.target];
    case 'condBranch':
      return [inst.ifTrue, inst.ifFalse];
    case 'switch':
      return [inst.default, ...inst.cases.map((c) => c.target)];
    default:
      return [];
  }
}

/** Every SSA operand of an instruction, in a fixed order (block ids and callee excluded). */
export function operands(inst: Inst): ValueId[] {
  switch (inst.op) {
    case 'variable':
      return inst.init !== undefined ? [inst.init] : [];
    case 'load':
      return [inst.ptr];
    case 'store':
      return [inst.ptr, inst.value];
    case 'accessChain':
      return [inst.base, ...inst.indices];
    case 'arrayLength':
      return [inst.ptr];
    case 'convertUToPtr':
    case 'convertPtrToU':
    case 'convert':
    case 'bitcast':
    case 'copyObject':
    case 'convertUToAccel':
      return [inst.value];
    case 'binary':
    case 'compare':
      return [inst.a, inst.b];
    case 'unary':
    case 'test':
      return [inst.a];
    case 'select':
      return [inst.cond, inst.a, inst.b];
    case 'ext':
    case 'bits':
    case 'subgroup':
    case 'rtCall':
    case 'debugPrintf':
      return [...inst.args];
    case 'construct':
      return [...inst.parts];
    case 'extract':
      return [inst.value];
    case 'insert':
      return [inst.object, inst.composite];
    case 'shuffle':
      return [inst.a, inst.b];
    case 'extractDynamic':
      return [inst.value, inst.index];
    case 'insertDynamic':
      return [inst.value, inst.composite, inst.index];
    case 'undef':
    case 'clock':
    case 'branch':
    case 'unreachable':
    case 'ignoreIntersection':
    case 'terminateRay':
      return [];
    case 'call':
      return [...inst.args];
    case 'phi':
      return inst.incoming.map((i) => i.value);
    case 'atomic': {
      const r: ValueId[] = [inst.ptr];
      if (inst.value !== undefined) r.push(inst.value);
      if (inst.comparator !== undefined) r.push(inst.comparator);
      return r;
    }
    case 'image': {
      const r = [...inst.args];
      if (inst.lod !== undefined) r.push(inst.lod);
      if (inst.bias !== undefined) r.push(inst.bias);
      if (inst.offset !== undefined) r.push(inst.offset);
      return r;
    }
    case 'sampledImage':
      return [inst.image, inst.sampler];
    case 'traceRay':
      return [
        inst.accel, inst.rayFlags, inst.cullMask, inst.sbtOffset, inst.sbtStride, inst.missIndex,
        inst.origin, inst.tmin, inst.direction, inst.tmax, inst.payload,
      ];
    case 'reportIntersection':
      return [inst.hitT, inst.hitKind];
    case 'executeCallable':
      return [inst.sbtIndex, inst.callableData];
    case 'condBranch':
      return [inst.cond];
    case 'switch':
      return [inst.selector];
    case 'return':
      return inst.value !== undefined ? [inst.value] : [];
  }
}

/** True when the instruction has an observable effect besides its result (may not be removed). */
export function hasSideEffects(inst: Inst): boolean {
  switch (inst.op) {
    case 'store':
    case 'atomic':
    case 'call':
    case 'debugPrintf':
    case 'traceRay':
    case 'reportIntersection':
    case 'executeCallable':
    case 'clock':
    case 'rtCall':
      return true;
    case 'image':
      return inst.kind === 'write';
    default:
      return isTerminator(inst);
  }
}
