/**
 * The IR module: flat arrays of plain objects, numeric ids, no back pointers (naga / Cranelift
 * style). One module per compiled shader file, like a SPIR-V module; the pipeline lowering links
 * several stage modules into one.
 *
 * Id space: values, blocks, functions, constants and globals all take ids from `Module.nextId`
 * (one space, like SPIR-V result ids). Type ids are separate: indices into `Module.types.types`.
 */
import type { BlockId, FunctionId, Inst, Loc, ValueId } from './inst.js';
import { newTypeTable, type StorageClass, type TypeId, type TypeTable } from './types.js';

export type Stage = 'raygen' | 'closestHit' | 'miss' | 'anyHit' | 'intersection' | 'callable' | 'compute';

export const STAGES: readonly Stage[] = ['raygen', 'closestHit', 'miss', 'anyHit', 'intersection', 'callable', 'compute'];

/** glslangValidator's file-extension convention. */
export const STAGE_BY_EXTENSION: Readonly<Record<string, Stage>> = {
  rgen: 'raygen', rchit: 'closestHit', rmiss: 'miss', rahit: 'anyHit', rint: 'intersection', rcall: 'callable', comp: 'compute',
};

/** Built-in variables (SPIR-V BuiltIn decoration values, named as GLSL spells them without prefix). */
export type Builtin =
  | 'LaunchId' | 'LaunchSize'
  | 'PrimitiveId' | 'InstanceId' | 'InstanceCustomIndex' | 'GeometryIndex'
  | 'WorldRayOrigin' | 'WorldRayDirection' | 'ObjectRayOrigin' | 'ObjectRayDirection'
  | 'RayTmin' | 'RayTmax' | 'IncomingRayFlags' | 'HitT' | 'HitKind' | 'CullMask'
  | 'ObjectToWorld' | 'WorldToObject' // mat4x3
  | 'ObjectToWorld3x4' | 'WorldToObject3x4' // mat3x4 (transposed view of the same data)
  | 'HitTriangleVertexPositions' // vec3[3]: the hit triangle's object-space vertices as the AS stores them (GL_EXT_ray_tracing_position_fetch)
  | 'SubgroupSize' | 'SubgroupLocalInvocationId' | 'SubgroupEqMask' | 'SubgroupGeMask' | 'SubgroupGtMask' | 'SubgroupLeMask' | 'SubgroupLtMask'
  | 'NumSubgroups' | 'SubgroupId'
  | 'GlobalInvocationId' | 'LocalInvocationId' | 'WorkgroupId' | 'NumWorkgroups' | 'LocalInvocationIndex';

/** A module-scope variable (SPIR-V OpVariable outside functions) with its decorations. */
export interface Global {
  id: ValueId;
  name: string;
  /** Always a pointer type; its storage class says which interface the variable belongs to. */
  type: TypeId;
  storage: StorageClass;
  set?: number;
  binding?: number;
  /** Ray payload / callable data / hit attribute location (GLSL `layout(location = N)`). */
  location?: number;
  builtin?: Builtin;
  /** Constant initializer (private globals, GLSL `const` arrays promoted to globals). */
  init?: ValueId;
  nonWritable?: boolean;
  nonReadable?: boolean;
  coherent?: boolean;
  volatile?: boolean;
  restrict?: boolean;
  loc: Loc;
}

/**
 * A module-scope constant. `value` holds: boolean for bool; number for 32-bit int and float scalars; bigint for
 * 64-bit ints; `parts` (constant ids) for composites; `null` for a null/zero constant.
 * `specId` marks a specialization constant (default in `value`).
 */
export interface Constant {
  id: ValueId;
  type: TypeId;
  value: number | bigint | boolean | null;
  parts?: ValueId[];
  specId?: number;
  name?: string;
}

/** Structured control-flow annotation kept from the front end (SPIR-V OpSelectionMerge / OpLoopMerge). */
export type MergeInfo =
  | { kind: 'selection'; merge: BlockId }
  | { kind: 'loop'; merge: BlockId; continue: BlockId; unroll?: 'unroll' | 'dontUnroll' };

export interface Block {
  id: BlockId;
  /** Optional readable label (from the front end: `if.then`, `for.body`, ...). */
  name?: string;
  /** Phis first, then ordinary instructions, then exactly one terminator. */
  insts: Inst[];
  /** Present on a header block of a structured selection or loop. */
  merge?: MergeInfo;
  /**
   * Set on the blocks the RT pipeline lowering writes in place of a traceRay (passes/lower/rt-pipeline.ts):
   * their instructions stand for the code Vulkan-Sim's translator writes there (sim/functional/trace-ray-ptx.ts).
   */
  lowered?: 'traceRay';
}

export interface Param {
  id: ValueId;
  type: TypeId;
  name?: string;
}

export interface Function {
  id: FunctionId;
  name: string;
  returnType: TypeId;
  params: Param[];
  /** `blocks[0]` is the entry block. Order is layout only; control flow is in the terminators. */
  blocks: Block[];
  loc: Loc;
  /**
   * The shader stage whose entry point this function is, in a module that links several stages
   * (passes/lower/rt-pipeline.ts): the lowered pipeline calls it. Absent for every other function.
   */
  stage?: Stage;
}

export interface EntryPoint {
  stage: Stage;
  function: FunctionId;
  name: string;
  /** Compute only: local size. */
  localSize?: [number, number, number];
}

export interface SourceFile {
  /** Path as given to the compiler (or as resolved for #include). */
  path: string;
  text: string;
}

export interface Module {
  types: TypeTable;
  constants: Constant[];
  globals: Global[];
  functions: Function[];
  entryPoints: EntryPoint[];
  /** Source files, indexed by `Loc.file`. */
  sources: SourceFile[];
  /** GLSL extensions enabled by the shader (informational). */
  extensions: string[];
  /** The next unused id of the shared id space. */
  nextId: number;
}

export function newModule(): Module {
  return {
    types: newTypeTable(),
    constants: [],
    globals: [],
    functions: [],
    entryPoints: [],
    sources: [],
    extensions: [],
    nextId: 1,
  };
}

export function freshId<T extends number>(m: Module): T {
  return m.nextId++ as T;
}
