/**
 * The built-in function table: signatures (GLSL spelling, generic over `genF`-style families as
 * the GLSL specification writes them) and how each lowers to IR. Texture and image functions,
 * whose signatures depend on the sampler type, live in `texture-functions.ts`; `debugPrintfEXT`
 * (variadic) is handled by the call generator.
 *
 * Generic families expand to sizes 1-4 (`genF` = float, vec2, vec3, vec4; `genI`, `genU`, `genB`,
 * `genD`, `genI64`, `genU64` likewise); `vecN`-style families (`vecN`, `ivecN`, `uvecN`, `bvecN`,
 * `dvecN`) to sizes 2-4. All generic parameters of one signature share the size.
 * A parameter written `out T` / `inout T` is passed by pointer.
 */
import type { AtomicOp, BinaryOp, BitOp, ClockScope, CompareOp, ExtFn, GroupOperation, SubgroupOp, TestOp } from '../../../ir/inst.js';
import type { Stage } from '../../../ir/module.js';
import type { Feature } from '../sema/extensions.js';

export type Lowering =
  | { kind: 'ext'; fn: ExtFn }
  /** atan(y) / atan(y, x) */
  | { kind: 'atan' }
  | { kind: 'binary'; op: BinaryOp }
  | { kind: 'compare'; op: CompareOp }
  | { kind: 'test'; op: TestOp }
  | { kind: 'not' }
  | { kind: 'bits'; fn: BitOp }
  | { kind: 'bitcast' }
  | { kind: 'mix' }
  | { kind: 'matrixCompMult' }
  | { kind: 'transpose' }
  | { kind: 'subgroup'; op: SubgroupOp; group?: GroupOperation }
  | { kind: 'atomic'; op: AtomicOp }
  | { kind: 'clock'; scope: ClockScope; realtime?: boolean }
  | { kind: 'traceRay' }
  | { kind: 'reportIntersection' }
  | { kind: 'executeCallable' }
  /** Barriers: the IR has no barrier instruction; the simulator runs warps in lock-step per subgroup. */
  | { kind: 'nop' }
  /** nonuniformEXT(x) is a qualifier spelled as a call: the value itself. */
  | { kind: 'identity' };

export interface BuiltinFunction {
  /** `RET(P1, P2, ...)` with generic families; see the file comment. */
  signatures: string[];
  lower: Lowering;
  /** Stages the function exists in; all when absent. */
  stages?: readonly Stage[];
}

export interface ExpandedSignature {
  ret: string;
  params: string[];
  /** `out`/`inout` per parameter. */
  byRef: boolean[];
}

const sig = (...s: string[]): string[] => s;
const ext = (fn: ExtFn, ...signatures: string[]): BuiltinFunction => ({ signatures, lower: { kind: 'ext', fn } });

const F1 = sig('genF(genF)');
const FD1 = sig('genF(genF)', 'genD(genD)');
const FDIU1 = sig('genF(genF)', 'genD(genD)', 'genI(genI)', 'genI64(genI64)');
const MINMAX = sig(
  'genF(genF,genF)', 'genF(genF,float)', 'genD(genD,genD)', 'genD(genD,double)', 'genI(genI,genI)', 'genI(genI,int)',
  'genU(genU,genU)', 'genU(genU,uint)', 'genI64(genI64,genI64)', 'genU64(genU64,genU64)',
);
const CLAMP = sig(
  'genF(genF,genF,genF)', 'genF(genF,float,float)', 'genD(genD,genD,genD)', 'genD(genD,double,double)',
  'genI(genI,genI,genI)', 'genI(genI,int,int)', 'genU(genU,genU,genU)', 'genU(genU,uint,uint)',
  'genI64(genI64,genI64,genI64)', 'genU64(genU64,genU64,genU64)',
);
const RELATIONAL = sig('bvecN(vecN,vecN)', 'bvecN(ivecN,ivecN)', 'bvecN(uvecN,uvecN)', 'bvecN(dvecN,dvecN)', 'bvecN(i64vecN,i64vecN)', 'bvecN(u64vecN,u64vecN)');
const GEN_ALL = ['genF', 'genD', 'genI', 'genU', 'genB', 'genI64', 'genU64'];
const GEN_NUM = ['genF', 'genD', 'genI', 'genU', 'genI64', 'genU64'];
const GEN_BITS = ['genI', 'genU', 'genB', 'genI64', 'genU64'];
const RT_TRACE: readonly Stage[] = ['raygen', 'closestHit', 'miss'];

function each(families: string[], pattern: string): string[] {
  return families.map((f) => pattern.replaceAll('T', f));
}

function subgroupArith(op: SubgroupOp, families: string[]): Record<string, BuiltinFunction> {
  const name = op[0]!.toUpperCase() + op.slice(1);
  const s = each(families, 'T(T)');
  return {
    [`subgroup${name}`]: { signatures: s, lower: { kind: 'subgroup', op, group: 'reduce' } },
    [`subgroupInclusive${name}`]: { signatures: s, lower: { kind: 'subgroup', op, group: 'inclusiveScan' } },
    [`subgroupExclusive${name}`]: { signatures: s, lower: { kind: 'subgroup', op, group: 'exclusiveScan' } },
  };
}

const ATOMIC_TYPES = sig('int(inout int,int)', 'uint(inout uint,uint)', 'int64_t(inout int64_t,int64_t)', 'uint64_t(inout uint64_t,uint64_t)');

export const BUILTIN_FUNCTIONS: Readonly<Record<string, BuiltinFunction>> = {
  // ----- angle and trigonometry
  radians: ext('radians', ...F1), degrees: ext('degrees', ...F1),
  sin: ext('sin', ...F1), cos: ext('cos', ...F1), tan: ext('tan', ...F1),
  asin: ext('asin', ...F1), acos: ext('acos', ...F1),
  atan: { signatures: sig('genF(genF,genF)', 'genF(genF)'), lower: { kind: 'atan' } },
  sinh: ext('sinh', ...F1), cosh: ext('cosh', ...F1), tanh: ext('tanh', ...F1),
  asinh: ext('asinh', ...F1), acosh: ext('acosh', ...F1), atanh: ext('atanh', ...F1),
  // ----- exponential
  pow: ext('pow', 'genF(genF,genF)'), exp: ext('exp', ...F1), log: ext('log', ...F1), exp2: ext('exp2', ...F1), log2: ext('log2', ...F1),
  sqrt: ext('sqrt', ...FD1), inversesqrt: ext('inversesqrt', ...FD1),
  // ----- common
  abs: ext('abs', ...FDIU1), sign: ext('sign', ...FDIU1),
  floor: ext('floor', ...FD1), ceil: ext('ceil', ...FD1), trunc: ext('trunc', ...FD1), round: ext('round', ...FD1),
  roundEven: ext('roundEven', ...FD1), fract: ext('fract', ...FD1),
  mod: { signatures: sig('genF(genF,genF)', 'genF(genF,float)', 'genD(genD,genD)', 'genD(genD,double)'), lower: { kind: 'binary', op: 'mod' } },
  modf: ext('modf', 'genF(genF,out genF)', 'genD(genD,out genD)'),
  min: ext('min', ...MINMAX), max: ext('max', ...MINMAX), clamp: ext('clamp', ...CLAMP),
  mix: {
    signatures: sig('genF(genF,genF,genF)', 'genF(genF,genF,float)', 'genD(genD,genD,genD)', 'genD(genD,genD,double)',
      'genF(genF,genF,genB)', 'genD(genD,genD,genB)', 'genI(genI,genI,genB)', 'genU(genU,genU,genB)', 'genB(genB,genB,genB)'),
    lower: { kind: 'mix' },
  },
  step: ext('step', 'genF(genF,genF)', 'genF(float,genF)', 'genD(genD,genD)', 'genD(double,genD)'),
  smoothstep: ext('smoothstep', 'genF(genF,genF,genF)', 'genF(float,float,genF)', 'genD(genD,genD,genD)', 'genD(double,double,genD)'),
  fma: ext('fma', 'genF(genF,genF,genF)', 'genD(genD,genD,genD)'),
  frexp: ext('frexp', 'genF(genF,out genI)', 'genD(genD,out genI)'),
  ldexp: ext('ldexp', 'genF(genF,genI)', 'genD(genD,genI)'),
  isnan: { signatures: sig('genB(genF)', 'genB(genD)'), lower: { kind: 'test', op: 'isnan' } },
  isinf: { signatures: sig('genB(genF)', 'genB(genD)'), lower: { kind: 'test', op: 'isinf' } },
  floatBitsToInt: { signatures: sig('genI(genF)'), lower: { kind: 'bitcast' } },
  floatBitsToUint: { signatures: sig('genU(genF)'), lower: { kind: 'bitcast' } },
  intBitsToFloat: { signatures: sig('genF(genI)'), lower: { kind: 'bitcast' } },
  uintBitsToFloat: { signatures: sig('genF(genU)'), lower: { kind: 'bitcast' } },
  doubleBitsToInt64: { signatures: sig('genI64(genD)'), lower: { kind: 'bitcast' } },
  doubleBitsToUint64: { signatures: sig('genU64(genD)'), lower: { kind: 'bitcast' } },
  int64BitsToDouble: { signatures: sig('genD(genI64)'), lower: { kind: 'bitcast' } },
  uint64BitsToDouble: { signatures: sig('genD(genU64)'), lower: { kind: 'bitcast' } },
  // ----- packing
  packUnorm4x8: ext('packUnorm4x8', 'uint(vec4)'), packSnorm4x8: ext('packSnorm4x8', 'uint(vec4)'),
  packUnorm2x16: ext('packUnorm2x16', 'uint(vec2)'), packSnorm2x16: ext('packSnorm2x16', 'uint(vec2)'),
  packHalf2x16: ext('packHalf2x16', 'uint(vec2)'), packDouble2x32: ext('packDouble2x32', 'double(uvec2)'),
  unpackUnorm4x8: ext('unpackUnorm4x8', 'vec4(uint)'), unpackSnorm4x8: ext('unpackSnorm4x8', 'vec4(uint)'),
  unpackUnorm2x16: ext('unpackUnorm2x16', 'vec2(uint)'), unpackSnorm2x16: ext('unpackSnorm2x16', 'vec2(uint)'),
  unpackHalf2x16: ext('unpackHalf2x16', 'vec2(uint)'), unpackDouble2x32: ext('unpackDouble2x32', 'uvec2(double)'),
  packUint2x32: { signatures: sig('uint64_t(uvec2)'), lower: { kind: 'bitcast' } },
  unpackUint2x32: { signatures: sig('uvec2(uint64_t)'), lower: { kind: 'bitcast' } },
  packInt2x32: { signatures: sig('int64_t(ivec2)'), lower: { kind: 'bitcast' } },
  unpackInt2x32: { signatures: sig('ivec2(int64_t)'), lower: { kind: 'bitcast' } },
  // ----- geometric
  length: ext('length', 'float(genF)', 'double(genD)'),
  distance: ext('distance', 'float(genF,genF)', 'double(genD,genD)'),
  dot: { signatures: sig('float(genF,genF)', 'double(genD,genD)'), lower: { kind: 'binary', op: 'dot' } },
  cross: ext('cross', 'vec3(vec3,vec3)', 'dvec3(dvec3,dvec3)'),
  normalize: ext('normalize', ...FD1),
  faceforward: ext('faceforward', 'genF(genF,genF,genF)', 'genD(genD,genD,genD)'),
  reflect: ext('reflect', 'genF(genF,genF)', 'genD(genD,genD)'),
  refract: ext('refract', 'genF(genF,genF,float)', 'genD(genD,genD,double)'),
  // ----- matrix (signatures generated below)
  matrixCompMult: { signatures: [], lower: { kind: 'matrixCompMult' } },
  outerProduct: { signatures: [], lower: { kind: 'binary', op: 'outerProduct' } },
  transpose: { signatures: [], lower: { kind: 'transpose' } },
  determinant: ext('determinant', 'float(mat2)', 'float(mat3)', 'float(mat4)', 'double(dmat2)', 'double(dmat3)', 'double(dmat4)'),
  inverse: ext('inverse', 'mat2(mat2)', 'mat3(mat3)', 'mat4(mat4)', 'dmat2(dmat2)', 'dmat3(dmat3)', 'dmat4(dmat4)'),
  // ----- vector relational
  lessThan: { signatures: RELATIONAL, lower: { kind: 'compare', op: 'lt' } },
  lessThanEqual: { signatures: RELATIONAL, lower: { kind: 'compare', op: 'le' } },
  greaterThan: { signatures: RELATIONAL, lower: { kind: 'compare', op: 'gt' } },
  greaterThanEqual: { signatures: RELATIONAL, lower: { kind: 'compare', op: 'ge' } },
  equal: { signatures: [...RELATIONAL, 'bvecN(bvecN,bvecN)'], lower: { kind: 'compare', op: 'eq' } },
  notEqual: { signatures: [...RELATIONAL, 'bvecN(bvecN,bvecN)'], lower: { kind: 'compare', op: 'ne' } },
  any: { signatures: sig('bool(bvecN)'), lower: { kind: 'test', op: 'any' } },
  all: { signatures: sig('bool(bvecN)'), lower: { kind: 'test', op: 'all' } },
  not: { signatures: sig('bvecN(bvecN)'), lower: { kind: 'not' } },
  // ----- integer / bitfield
  bitfieldExtract: { signatures: sig('genI(genI,int,int)', 'genU(genU,int,int)', 'genI64(genI64,int,int)', 'genU64(genU64,int,int)'), lower: { kind: 'bits', fn: 'bitfieldExtract' } },
  bitfieldInsert: { signatures: sig('genI(genI,genI,int,int)', 'genU(genU,genU,int,int)', 'genI64(genI64,genI64,int,int)', 'genU64(genU64,genU64,int,int)'), lower: { kind: 'bits', fn: 'bitfieldInsert' } },
  bitfieldReverse: { signatures: sig('genI(genI)', 'genU(genU)'), lower: { kind: 'bits', fn: 'bitfieldReverse' } },
  bitCount: { signatures: sig('genI(genI)', 'genI(genU)'), lower: { kind: 'bits', fn: 'bitCount' } },
  findLSB: ext('findLSB', 'genI(genI)', 'genI(genU)'),
  findMSB: ext('findMSB', 'genI(genI)', 'genI(genU)'),
  // ----- atomics (first argument: buffer or shared memory)
  atomicAdd: { signatures: [...ATOMIC_TYPES, 'float(inout float,float)'], lower: { kind: 'atomic', op: 'add' } },
  atomicMin: { signatures: ATOMIC_TYPES, lower: { kind: 'atomic', op: 'min' } },
  atomicMax: { signatures: ATOMIC_TYPES, lower: { kind: 'atomic', op: 'max' } },
  atomicAnd: { signatures: ATOMIC_TYPES, lower: { kind: 'atomic', op: 'and' } },
  atomicOr: { signatures: ATOMIC_TYPES, lower: { kind: 'atomic', op: 'or' } },
  atomicXor: { signatures: ATOMIC_TYPES, lower: { kind: 'atomic', op: 'xor' } },
  atomicExchange: { signatures: [...ATOMIC_TYPES, 'float(inout float,float)'], lower: { kind: 'atomic', op: 'exchange' } },
  atomicCompSwap: {
    signatures: sig('int(inout int,int,int)', 'uint(inout uint,uint,uint)', 'int64_t(inout int64_t,int64_t,int64_t)', 'uint64_t(inout uint64_t,uint64_t,uint64_t)'),
    lower: { kind: 'atomic', op: 'compareExchange' },
  },
  // ----- clocks (GL_ARB_shader_clock, GL_EXT_shader_realtime_clock)
  clockARB: { signatures: sig('uint64_t()'), lower: { kind: 'clock', scope: 'subgroup' } },
  clock2x32ARB: { signatures: sig('uvec2()'), lower: { kind: 'clock', scope: 'subgroup' } },
  clockRealtimeEXT: { signatures: sig('uint64_t()'), lower: { kind: 'clock', scope: 'device', realtime: true } },
  clockRealtime2x32EXT: { signatures: sig('uvec2()'), lower: { kind: 'clock', scope: 'device', realtime: true } },
  // ----- subgroups (GL_KHR_shader_subgroup_basic / vote / ballot / arithmetic / shuffle)
  subgroupElect: { signatures: sig('bool()'), lower: { kind: 'subgroup', op: 'elect' } },
  subgroupBarrier: { signatures: sig('void()'), lower: { kind: 'nop' } },
  subgroupMemoryBarrier: { signatures: sig('void()'), lower: { kind: 'nop' } },
  subgroupMemoryBarrierBuffer: { signatures: sig('void()'), lower: { kind: 'nop' } },
  subgroupMemoryBarrierShared: { signatures: sig('void()'), lower: { kind: 'nop' } },
  subgroupMemoryBarrierImage: { signatures: sig('void()'), lower: { kind: 'nop' } },
  subgroupAll: { signatures: sig('bool(bool)'), lower: { kind: 'subgroup', op: 'all' } },
  subgroupAny: { signatures: sig('bool(bool)'), lower: { kind: 'subgroup', op: 'any' } },
  subgroupAllEqual: { signatures: each(GEN_ALL, 'bool(T)'), lower: { kind: 'subgroup', op: 'allEqual' } },
  subgroupBallot: { signatures: sig('uvec4(bool)'), lower: { kind: 'subgroup', op: 'ballot' } },
  subgroupInverseBallot: { signatures: sig('bool(uvec4)'), lower: { kind: 'subgroup', op: 'inverseBallot' } },
  subgroupBallotBitExtract: { signatures: sig('bool(uvec4,uint)'), lower: { kind: 'subgroup', op: 'ballotBitExtract' } },
  subgroupBallotBitCount: { signatures: sig('uint(uvec4)'), lower: { kind: 'subgroup', op: 'ballotBitCount', group: 'reduce' } },
  subgroupBallotInclusiveBitCount: { signatures: sig('uint(uvec4)'), lower: { kind: 'subgroup', op: 'ballotBitCount', group: 'inclusiveScan' } },
  subgroupBallotExclusiveBitCount: { signatures: sig('uint(uvec4)'), lower: { kind: 'subgroup', op: 'ballotBitCount', group: 'exclusiveScan' } },
  subgroupBallotFindLSB: { signatures: sig('uint(uvec4)'), lower: { kind: 'subgroup', op: 'ballotFindLSB' } },
  subgroupBallotFindMSB: { signatures: sig('uint(uvec4)'), lower: { kind: 'subgroup', op: 'ballotFindMSB' } },
  subgroupBroadcast: { signatures: each(GEN_ALL, 'T(T,uint)'), lower: { kind: 'subgroup', op: 'broadcast' } },
  subgroupBroadcastFirst: { signatures: each(GEN_ALL, 'T(T)'), lower: { kind: 'subgroup', op: 'broadcastFirst' } },
  subgroupShuffle: { signatures: each(GEN_ALL, 'T(T,uint)'), lower: { kind: 'subgroup', op: 'shuffle' } },
  subgroupShuffleXor: { signatures: each(GEN_ALL, 'T(T,uint)'), lower: { kind: 'subgroup', op: 'shuffleXor' } },
  subgroupShuffleUp: { signatures: each(GEN_ALL, 'T(T,uint)'), lower: { kind: 'subgroup', op: 'shuffleUp' } },
  subgroupShuffleDown: { signatures: each(GEN_ALL, 'T(T,uint)'), lower: { kind: 'subgroup', op: 'shuffleDown' } },
  ...subgroupArith('add', GEN_NUM),
  ...subgroupArith('mul', GEN_NUM),
  ...subgroupArith('min', GEN_NUM),
  ...subgroupArith('max', GEN_NUM),
  ...subgroupArith('and', GEN_BITS),
  ...subgroupArith('or', GEN_BITS),
  ...subgroupArith('xor', GEN_BITS),
  // ----- barriers (compute)
  barrier: { signatures: sig('void()'), lower: { kind: 'nop' } },
  memoryBarrier: { signatures: sig('void()'), lower: { kind: 'nop' } },
  memoryBarrierBuffer: { signatures: sig('void()'), lower: { kind: 'nop' } },
  memoryBarrierShared: { signatures: sig('void()'), lower: { kind: 'nop' } },
  memoryBarrierImage: { signatures: sig('void()'), lower: { kind: 'nop' } },
  groupMemoryBarrier: { signatures: sig('void()'), lower: { kind: 'nop' } },
  // ----- ray tracing (GL_EXT_ray_tracing)
  traceRayEXT: {
    signatures: sig('void(accelerationStructureEXT,uint,uint,uint,uint,uint,vec3,float,vec3,float,int)'),
    lower: { kind: 'traceRay' }, stages: RT_TRACE,
  },
  reportIntersectionEXT: { signatures: sig('bool(float,uint)'), lower: { kind: 'reportIntersection' }, stages: ['intersection'] },
  executeCallableEXT: { signatures: sig('void(uint,int)'), lower: { kind: 'executeCallable' }, stages: ['raygen', 'closestHit', 'miss', 'callable'] },
  nonuniformEXT: { signatures: each([...GEN_ALL], 'T(T)'), lower: { kind: 'identity' } },
};

const MATRIX_SHAPES: [number, number][] = [];
for (let c = 2; c <= 4; c++) for (let r = 2; r <= 4; r++) MATRIX_SHAPES.push([c, r]);
const matName = (p: string, c: number, r: number): string => (c === r ? `${p}${c}` : `${p}${c}x${r}`);

function matrixSignatures(name: string): string[] {
  const out: string[] = [];
  for (const p of ['mat', 'dmat']) {
    const v = p === 'mat' ? 'vec' : 'dvec';
    for (const [c, r] of MATRIX_SHAPES) {
      if (name === 'matrixCompMult') out.push(`${matName(p, c, r)}(${matName(p, c, r)},${matName(p, c, r)})`);
      if (name === 'transpose') out.push(`${matName(p, r, c)}(${matName(p, c, r)})`);
      if (name === 'outerProduct') out.push(`${matName(p, c, r)}(${v}${r},${v}${c})`);
    }
  }
  return out;
}

const FAMILY_SCALARS: Record<string, [string, string]> = {
  genF: ['float', 'vec'], genD: ['double', 'dvec'], genI: ['int', 'ivec'], genU: ['uint', 'uvec'], genB: ['bool', 'bvec'],
  genI64: ['int64_t', 'i64vec'], genU64: ['uint64_t', 'u64vec'],
};
const VEC_FAMILIES = ['vecN', 'ivecN', 'uvecN', 'bvecN', 'dvecN', 'i64vecN', 'u64vecN'];

function expandOne(s: string): ExpandedSignature[] {
  const m = /^([^(]+)\((.*)\)$/.exec(s);
  if (!m) throw new Error(`bad builtin signature ${s}`);
  const parts = [m[1]!, ...(m[2] ? m[2].split(',') : [])].map((x) => x.trim());
  const hasGen = parts.some((p) => /gen(F|D|I|U|B|I64|U64)\b/.test(p));
  const hasVec = parts.some((p) => VEC_FAMILIES.some((v) => p.endsWith(v)));
  const sizes = hasGen ? [1, 2, 3, 4] : hasVec ? [2, 3, 4] : [0];
  return sizes.map((n) => {
    const subst = (p: string): string => {
      let x = p.replace(/\bgen(F|D|I|U|B|I64|U64)\b/, (g) => {
        const [scalar, vec] = FAMILY_SCALARS[g]!;
        return n === 1 ? scalar : `${vec}${n}`;
      });
      x = x.replace(/\b(i64vec|u64vec|ivec|uvec|bvec|dvec|vec)N\b/, (_g, pre: string) => `${pre}${n}`);
      return x;
    };
    const [ret, ...params] = parts.map(subst);
    return {
      ret: ret!,
      params: params.map((p) => p.replace(/^(out|inout)\s+/, '')),
      byRef: params.map((p) => /^(out|inout)\s/.test(p)),
    };
  });
}

let expanded: Map<string, ExpandedSignature[]> | undefined;

/** Concrete signatures of built-in `name` (empty if `name` is not a built-in in this table). */
export function builtinSignatures(name: string): ExpandedSignature[] {
  if (!expanded) {
    expanded = new Map();
    for (const [n, f] of Object.entries(BUILTIN_FUNCTIONS)) {
      const sigs = f.signatures.length ? f.signatures : matrixSignatures(n);
      // `genF(genF,float)` and `genF(genF,genF)` both expand to float(float,float): keep one, or the
      // duplicates would make every call that needs a conversion ambiguous.
      const seen = new Set<string>();
      const unique = sigs.flatMap(expandOne).filter((x) => {
        const key = `${x.params.join(',')}|${x.byRef.join(',')}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      expanded.set(n, unique);
    }
  }
  return expanded.get(name) ?? [];
}

/** The extension feature a built-in function needs (subgroup, clock, printf, RT, nonuniform). */
export function builtinFunctionFeature(name: string): Feature | undefined {
  if (/^subgroup(Elect|Barrier|MemoryBarrier\w*)$/.test(name)) return 'subgroupBasic';
  if (/^subgroup(All|Any|AllEqual)$/.test(name)) return 'subgroupVote';
  if (/^subgroup(Ballot\w*|InverseBallot|Broadcast\w*)$/.test(name)) return 'subgroupBallot';
  if (/^subgroup(Inclusive|Exclusive)?(Add|Mul|Min|Max|And|Or|Xor)$/.test(name)) return 'subgroupArithmetic';
  if (/^subgroupShuffle(Xor)?$/.test(name)) return 'subgroupShuffle';
  if (/^subgroupShuffle(Up|Down)$/.test(name)) return 'subgroupShuffleRelative';
  if (name === 'clockARB' || name === 'clock2x32ARB') return 'shaderClock';
  if (name.startsWith('clockRealtime')) return 'realtimeClock';
  if (name === 'nonuniformEXT') return 'nonuniform';
  if (name === 'debugPrintfEXT') return 'debugPrintf';
  if (name === 'traceRayEXT' || name === 'reportIntersectionEXT' || name === 'executeCallableEXT') return 'rayTracing';
  return undefined;
}
