/**
 * The numbers of the SPIR-V binary form (SPIR-V 1.6 unified grammar, KHR ray tracing,
 * GLSL.std.450) that the SPIR-V writer (src/backend/spirv) and reader (src/frontend/spirv) share,
 * and the one-to-one maps between the IR's names and SPIR-V's enumerants. Only the subset the IR
 * can express is listed; the tables are data, never logic.
 */
import type { ExtFn } from './inst.js';
import type { Builtin, Stage } from './module.js';
import type { ImageDim, StorageClass } from './types.js';

export const SPIRV_MAGIC = 0x07230203;

/** Opcodes (`Op` + key in the grammar). */
export const Op = {
  Nop: 0, Undef: 1, SourceContinued: 2, Source: 3, SourceExtension: 4, Name: 5, MemberName: 6, String: 7, Line: 8,
  Extension: 10, ExtInstImport: 11, ExtInst: 12, MemoryModel: 14, EntryPoint: 15, ExecutionMode: 16, Capability: 17,
  TypeVoid: 19, TypeBool: 20, TypeInt: 21, TypeFloat: 22, TypeVector: 23, TypeMatrix: 24, TypeImage: 25, TypeSampler: 26,
  TypeSampledImage: 27, TypeArray: 28, TypeRuntimeArray: 29, TypeStruct: 30, TypePointer: 32, TypeFunction: 33,
  TypeForwardPointer: 39, ConstantTrue: 41, ConstantFalse: 42, Constant: 43, ConstantComposite: 44, ConstantNull: 46,
  SpecConstantTrue: 48, SpecConstantFalse: 49, SpecConstant: 50, SpecConstantComposite: 51, SpecConstantOp: 52,
  Function: 54, FunctionParameter: 55, FunctionEnd: 56, FunctionCall: 57, Variable: 59, Load: 61, Store: 62,
  CopyMemory: 63, AccessChain: 65, InBoundsAccessChain: 66, PtrAccessChain: 67, ArrayLength: 68, Decorate: 71,
  MemberDecorate: 72, VectorExtractDynamic: 77, VectorInsertDynamic: 78, VectorShuffle: 79, CompositeConstruct: 80,
  CompositeExtract: 81, CompositeInsert: 82, CopyObject: 83, Transpose: 84, SampledImage: 86,
  ImageSampleImplicitLod: 87, ImageSampleExplicitLod: 88, ImageFetch: 95, ImageGather: 96, ImageRead: 98,
  ImageWrite: 99, Image: 100, ImageQuerySizeLod: 103, ImageQuerySize: 104, ImageQueryLevels: 106,
  ConvertFToU: 109, ConvertFToS: 110, ConvertSToF: 111, ConvertUToF: 112, UConvert: 113, SConvert: 114, FConvert: 115,
  ConvertPtrToU: 117, ConvertUToPtr: 120, Bitcast: 124, SNegate: 126, FNegate: 127, IAdd: 128, FAdd: 129, ISub: 130,
  FSub: 131, IMul: 132, FMul: 133, UDiv: 134, SDiv: 135, FDiv: 136, UMod: 137, SRem: 138, SMod: 139, FRem: 140,
  FMod: 141, VectorTimesScalar: 142, MatrixTimesScalar: 143, VectorTimesMatrix: 144, MatrixTimesVector: 145,
  MatrixTimesMatrix: 146, OuterProduct: 147, Dot: 148, Any: 154, All: 155, IsNan: 156, IsInf: 157,
  LogicalEqual: 164, LogicalNotEqual: 165, LogicalOr: 166, LogicalAnd: 167, LogicalNot: 168, Select: 169,
  IEqual: 170, INotEqual: 171, UGreaterThan: 172, SGreaterThan: 173, UGreaterThanEqual: 174, SGreaterThanEqual: 175,
  ULessThan: 176, SLessThan: 177, ULessThanEqual: 178, SLessThanEqual: 179, FOrdEqual: 180, FUnordEqual: 181,
  FOrdNotEqual: 182, FUnordNotEqual: 183, FOrdLessThan: 184, FUnordLessThan: 185, FOrdGreaterThan: 186,
  FUnordGreaterThan: 187, FOrdLessThanEqual: 188, FUnordLessThanEqual: 189, FOrdGreaterThanEqual: 190,
  FUnordGreaterThanEqual: 191, ShiftRightLogical: 194, ShiftRightArithmetic: 195, ShiftLeftLogical: 196,
  BitwiseOr: 197, BitwiseXor: 198, BitwiseAnd: 199, Not: 200, BitFieldInsert: 201, BitFieldSExtract: 202,
  BitFieldUExtract: 203, BitReverse: 204, BitCount: 205, AtomicLoad: 227, AtomicStore: 228, AtomicExchange: 229,
  AtomicCompareExchange: 230, AtomicIIncrement: 232, AtomicIDecrement: 233, AtomicIAdd: 234, AtomicISub: 235,
  AtomicSMin: 236, AtomicUMin: 237, AtomicSMax: 238, AtomicUMax: 239, AtomicAnd: 240, AtomicOr: 241, AtomicXor: 242,
  Phi: 245, LoopMerge: 246, SelectionMerge: 247, Label: 248, Branch: 249, BranchConditional: 250, Switch: 251,
  Kill: 252, Return: 253, ReturnValue: 254, Unreachable: 255, NoLine: 317, ModuleProcessed: 330,
  ExecutionModeId: 331, DecorateId: 332,
  GroupNonUniformElect: 333, GroupNonUniformAll: 334, GroupNonUniformAny: 335, GroupNonUniformAllEqual: 336,
  GroupNonUniformBroadcast: 337, GroupNonUniformBroadcastFirst: 338, GroupNonUniformBallot: 339,
  GroupNonUniformInverseBallot: 340, GroupNonUniformBallotBitExtract: 341, GroupNonUniformBallotBitCount: 342,
  GroupNonUniformBallotFindLSB: 343, GroupNonUniformBallotFindMSB: 344, GroupNonUniformShuffle: 345,
  GroupNonUniformShuffleXor: 346, GroupNonUniformShuffleUp: 347, GroupNonUniformShuffleDown: 348,
  GroupNonUniformIAdd: 349, GroupNonUniformFAdd: 350, GroupNonUniformIMul: 351, GroupNonUniformFMul: 352,
  GroupNonUniformSMin: 353, GroupNonUniformUMin: 354, GroupNonUniformFMin: 355, GroupNonUniformSMax: 356,
  GroupNonUniformUMax: 357, GroupNonUniformFMax: 358, GroupNonUniformBitwiseAnd: 359, GroupNonUniformBitwiseOr: 360,
  GroupNonUniformBitwiseXor: 361, GroupNonUniformLogicalAnd: 362, GroupNonUniformLogicalOr: 363,
  GroupNonUniformLogicalXor: 364, CopyLogical: 400, TerminateInvocation: 4416, TraceRayKHR: 4445,
  ExecuteCallableKHR: 4446, ConvertUToAccelerationStructureKHR: 4447, IgnoreIntersectionKHR: 4448,
  TerminateRayKHR: 4449, ReadClockKHR: 5056, ReportIntersectionKHR: 5334, TypeAccelerationStructureKHR: 5341,
  DecorateString: 5632, MemberDecorateString: 5633,
} as const;

export const Capability = {
  Matrix: 0, Shader: 1, Float16: 9, Float64: 10, Int64: 11, Int64Atomics: 12, Int16: 22, Int8: 39, ImageQuery: 50,
  StorageImageExtendedFormats: 49, StorageImageReadWithoutFormat: 55, StorageImageWriteWithoutFormat: 56,
  GroupNonUniform: 61, GroupNonUniformVote: 62, GroupNonUniformArithmetic: 63, GroupNonUniformBallot: 64,
  GroupNonUniformShuffle: 65, GroupNonUniformShuffleRelative: 66, RayTracingKHR: 4479,
  PhysicalStorageBufferAddresses: 5347, ShaderClockKHR: 5055, RuntimeDescriptorArray: 5302, RayCullMaskKHR: 6020, RayTracingPositionFetchKHR: 5336,
  Image1D: 44, Sampled1D: 43, ImageBuffer: 47, SampledBuffer: 46,
} as const;

export const Decoration = {
  SpecId: 1, Block: 2, BufferBlock: 3, RowMajor: 4, ColMajor: 5, ArrayStride: 6, MatrixStride: 7, BuiltIn: 11,
  Flat: 14, Restrict: 19, Aliased: 20, Volatile: 21, Coherent: 23, NonWritable: 24, NonReadable: 25, Location: 30,
  Component: 31, Binding: 33, DescriptorSet: 34, Offset: 35, NonUniform: 5300, RestrictPointer: 5355, AliasedPointer: 5356,
} as const;

export const AddressingModel = { Logical: 0, PhysicalStorageBuffer64: 5348 } as const;
export const MemoryModel = { GLSL450: 1, Vulkan: 3 } as const;
export const SourceLanguage = { Unknown: 0, ESSL: 1, GLSL: 2 } as const;
export const Scope = { Device: 1, Workgroup: 2, Subgroup: 3, Invocation: 4, ShaderCallKHR: 6 } as const;
export const GroupOperationCode = { reduce: 0, inclusiveScan: 1, exclusiveScan: 2 } as const;
export const ImageOperand = { Bias: 0x1, Lod: 0x2, Grad: 0x4, ConstOffset: 0x8, Offset: 0x10, Sample: 0x40, MinLod: 0x80 } as const;
export const MemoryAccess = { Volatile: 0x1, Aligned: 0x2, Nontemporal: 0x4 } as const;
export const LoopControl = { None: 0, Unroll: 0x1, DontUnroll: 0x2 } as const;

export const EXECUTION_MODEL: Readonly<Record<Stage, number>> = {
  compute: 5, raygen: 5313, intersection: 5314, anyHit: 5315, closestHit: 5316, miss: 5317, callable: 5318,
};

export const STORAGE_CLASS_CODE: Readonly<Record<StorageClass, number>> = {
  uniformConstant: 0, input: 1, uniform: 2, output: 3, workgroup: 4, private: 6, function: 7, pushConstant: 9,
  image: 11, storageBuffer: 12, callableData: 5328, incomingCallableData: 5329, rayPayload: 5338, hitAttribute: 5339,
  incomingRayPayload: 5342, shaderRecordBuffer: 5343, physicalStorageBuffer: 5349,
};

/**
 * BuiltIn codes. The IR's `ObjectToWorld3x4` / `WorldToObject3x4` are GLSL's transposed views of
 * ObjectToWorldKHR / WorldToObjectKHR: SPIR-V has only the 4x3 built-ins, and the writer loads
 * those and transposes (as glslang does).
 */
export const BUILTIN_CODE: Readonly<Record<Builtin, number>> = {
  LaunchId: 5319, LaunchSize: 5320, PrimitiveId: 7, InstanceId: 6, InstanceCustomIndex: 5327, GeometryIndex: 5352,
  WorldRayOrigin: 5321, WorldRayDirection: 5322, ObjectRayOrigin: 5323, ObjectRayDirection: 5324, RayTmin: 5325,
  RayTmax: 5326, IncomingRayFlags: 5351, HitT: 5326 /* gl_HitTEXT is RayTmaxKHR in SPIR-V (glslang) */, HitKind: 5333, CullMask: 6021, ObjectToWorld: 5330,
  WorldToObject: 5331, ObjectToWorld3x4: 5330, WorldToObject3x4: 5331, SubgroupSize: 36, SubgroupLocalInvocationId: 41,
  SubgroupEqMask: 4416, SubgroupGeMask: 4417, SubgroupGtMask: 4418, SubgroupLeMask: 4419, SubgroupLtMask: 4420,
  NumSubgroups: 38, SubgroupId: 40, GlobalInvocationId: 28, LocalInvocationId: 27, WorkgroupId: 26, NumWorkgroups: 24,
  LocalInvocationIndex: 29, HitTriangleVertexPositions: 5335,
};

export const DIM_CODE: Readonly<Record<ImageDim, number>> = { '1D': 0, '2D': 1, '3D': 2, Cube: 3, Rect: 4, Buffer: 5, SubpassData: 6 };

/** GLSL layout format names (as the IR keeps them) -> SPIR-V ImageFormat. */
export const IMAGE_FORMAT_CODE: Readonly<Record<string, number>> = {
  unknown: 0, rgba32f: 1, rgba16f: 2, r32f: 3, rgba8: 4, rgba8_snorm: 5, rg32f: 6, rg16f: 7, r11f_g11f_b10f: 8, r16f: 9,
  rgba16: 10, rgb10_a2: 11, rg16: 12, rg8: 13, r16: 14, r8: 15, rgba16_snorm: 16, rg16_snorm: 17, rg8_snorm: 18,
  r16_snorm: 19, r8_snorm: 20, rgba32i: 21, rgba16i: 22, rgba8i: 23, r32i: 24, rg32i: 25, rg16i: 26, rg8i: 27, r16i: 28,
  r8i: 29, rgba32ui: 30, rgba16ui: 31, rgba8ui: 32, r32ui: 33, rgb10_a2ui: 34, rg32ui: 35, rg16ui: 36, rg8ui: 37,
  r16ui: 38, r8ui: 39, r64ui: 40, r64i: 41,
};

/** Formats a storage image may have without the StorageImageExtendedFormats capability. */
export const BASIC_IMAGE_FORMATS: ReadonlySet<string> = new Set([
  'unknown', 'rgba32f', 'rgba16f', 'r32f', 'rgba8', 'rgba8_snorm', 'rgba32i', 'rgba16i', 'rgba8i', 'r32i', 'rgba32ui', 'rgba16ui', 'rgba8ui', 'r32ui',
]);

/**
 * GLSL.std.450 instruction numbers per IR `ExtFn`: `[float, signed, unsigned]` where the
 * instruction depends on the operand type, else one number.
 */
export const GLSL_STD_450: Readonly<Record<ExtFn, number | readonly [number, number, number]>> = {
  round: 1, roundEven: 2, trunc: 3, abs: [4, 5, 5], sign: [6, 7, 7], floor: 8, ceil: 9, fract: 10, radians: 11,
  degrees: 12, sin: 13, cos: 14, tan: 15, asin: 16, acos: 17, atan: 18, sinh: 19, cosh: 20, tanh: 21, asinh: 22,
  acosh: 23, atanh: 24, atan2: 25, pow: 26, exp: 27, log: 28, exp2: 29, log2: 30, sqrt: 31, inversesqrt: 32,
  determinant: 33, inverse: 34, modf: 35, modfStruct: 36, min: [37, 39, 38], max: [40, 42, 41], clamp: [43, 45, 44],
  mix: 46, step: 48, smoothstep: 49, fma: 50, frexp: 51, ldexp: 53, packSnorm4x8: 54, packUnorm4x8: 55,
  packSnorm2x16: 56, packUnorm2x16: 57, packHalf2x16: 58, packDouble2x32: 59, unpackSnorm2x16: 60,
  unpackUnorm2x16: 61, unpackHalf2x16: 62, unpackSnorm4x8: 63, unpackUnorm4x8: 64, unpackDouble2x32: 65, length: 66,
  distance: 67, cross: 68, normalize: 69, faceforward: 70, reflect: 71, refract: 72, findLSB: 73, findMSB: [74, 74, 75],
  nmin: 79, nmax: 80, nclamp: 81,
};
