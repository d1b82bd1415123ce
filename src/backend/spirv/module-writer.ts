/**
 * The module-level half of the SPIR-V writer: ids, the logical layout sections, capabilities and
 * extensions, types (emitted on first use, dependencies first), constants, global variables and
 * their decorations, debug strings. `function-writer.ts` translates function bodies through it.
 *
 * Id plan: every IR value / block / function id keeps its number as the SPIR-V result id, so
 * SPIR-V ids in `spirv-dis` output are the IR's ids (and the reader gives them back). Types,
 * extra constants and temporaries take fresh ids from `Module.nextId` upwards.
 *
 * Invariants of the output: a type, constant or global is emitted before its first use; only types
 * and constants that are used are emitted (so an interned but unused f64 does not ask for Float64);
 * every capability an emitted type or instruction needs is declared.
 */
import type { ValueId } from '../../ir/inst.js';
import type { Constant, Global, Module } from '../../ir/module.js';
import {
  AddressingModel, BASIC_IMAGE_FORMATS, BUILTIN_CODE, Capability, Decoration, DIM_CODE, IMAGE_FORMAT_CODE, Op,
  STORAGE_CLASS_CODE,
} from '../../ir/spirv-enums.js';
import { intern, typeOf, type Type, type TypeId, type TypeTable } from '../../ir/types.js';
import { f32Word, f64Words, i64Words, Section, stringWords } from './spirv-binary.js';

/** A module the writer cannot express as valid SPIR-V (named by what in the IR is the problem). */
export class SpirvWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpirvWriteError';
  }
}

export interface SpirvWriteOptions {
  /** SPIR-V 1.5 for vulkan1.2 (default), 1.6 for vulkan1.3 / vulkan1.4. */
  targetEnv?: 'vulkan1.2' | 'vulkan1.3' | 'vulkan1.4';
  /** Descriptor set / binding to write for some globals instead of the IR's (by global id). */
  rebind?: ReadonlyMap<number, { set: number; binding: number }>;
  /** OpString / OpSource (with the source text) / OpLine from `loc`; default true. */
  debugInfo?: boolean;
  /**
   * The name each source file gets in OpString (default: its path as the IR has it). Files written
   * for other machines pass a namer that makes it relative (report/portable-path.ts).
   */
  sourceName?: (path: string) => string;
}

export class ModuleWriter {
  readonly capabilities = new Set<number>([Capability.Shader]);
  readonly extensions = new Set<string>();
  readonly debugStrings = new Section();
  readonly names = new Section();
  readonly annotations = new Section();
  readonly globalsSection = new Section();
  readonly functions = new Section();
  addressing: number = AddressingModel.Logical;
  private nextId: number;
  private readonly typeIds = new Map<TypeId, number>();
  private readonly inProgress = new Set<TypeId>();
  private readonly pendingPointers: { id: number; pointee: TypeId; storage: number }[] = [];
  private readonly fnTypeIds = new Map<string, number>();
  private readonly constants = new Map<number, Constant>();
  private readonly emittedConstants = new Set<number>();
  private readonly extraConstants = new Map<string, number>();
  private readonly extInstImports = new Map<string, number>();
  private readonly strings = new Map<string, number>();
  /** Module-scope variables of the output (interface list of the entry point). */
  readonly interfaceIds: number[] = [];
  /** IR globals that stand for a transposed 4x3 built-in: private copy id -> built-in variable id. */
  readonly transposedBuiltins: { copy: ValueId; builtin: number; builtinType: number; copyType: TypeId }[] = [];
  /** OpString id per IR source file index (when debug info is on). */
  readonly fileStrings: number[] = [];

  /** A copy of the module's type table: types the writer adds never reach the caller's module. */
  readonly types: TypeTable;

  constructor(readonly m: Module, readonly opts: SpirvWriteOptions) {
    this.types = { types: [...m.types.types], nextStructUid: m.types.nextStructUid };
    this.nextId = m.nextId;
    for (const c of m.constants) this.constants.set(c.id, c);
  }

  get bound(): number {
    return this.nextId;
  }

  fresh(): number {
    return this.nextId++;
  }

  extInstImport(name: string): number {
    let id = this.extInstImports.get(name);
    if (id === undefined) {
      id = this.fresh();
      this.extInstImports.set(name, id);
    }
    return id;
  }

  importsInOrder(): [string, number][] {
    return [...this.extInstImports];
  }

  /** An OpString (debug section), shared by equal strings. */
  string(s: string): number {
    let id = this.strings.get(s);
    if (id === undefined) {
      id = this.fresh();
      this.strings.set(s, id);
      this.debugStrings.emit(Op.String, [id, ...stringWords(s)]);
    }
    return id;
  }

  name(id: number, name: string): void {
    if (name) this.names.emit(Op.Name, [id, ...stringWords(name)]);
  }

  decorate(id: number, decoration: number, ...literals: number[]): void {
    this.annotations.emit(Op.Decorate, [id, decoration, ...literals]);
  }

  // ----- types -----

  type(t: TypeId): number {
    const done = this.typeIds.get(t);
    if (done !== undefined) return done;
    const ty = typeOf(this.types, t);
    if (ty.kind === 'pointer' && ty.storage === 'physicalStorageBuffer' && this.inProgress.has(ty.pointee)) {
      // A buffer_reference block that points to itself: forward-declare the pointer.
      const id = this.fresh();
      this.typeIds.set(t, id);
      const storage = STORAGE_CLASS_CODE[ty.storage];
      this.globalsSection.emit(Op.TypeForwardPointer, [id, storage]);
      this.pendingPointers.push({ id, pointee: ty.pointee, storage });
      return id;
    }
    this.inProgress.add(t);
    const id = this.emitType(t, ty);
    this.inProgress.delete(t);
    return id;
  }

  /** The IR type of `t` interned (used for types the writer needs but the IR may not have yet). */
  internType(t: Type): number {
    return this.type(intern(this.types, t));
  }

  private emitType(t: TypeId, ty: Type): number {
    const operands: number[] = [];
    let op: number;
    switch (ty.kind) {
      case 'void': op = Op.TypeVoid; break;
      case 'bool': op = Op.TypeBool; break;
      case 'int':
        op = Op.TypeInt;
        operands.push(ty.width, ty.signed ? 1 : 0);
        if (ty.width === 64) this.capabilities.add(Capability.Int64);
        if (ty.width === 16) this.capabilities.add(Capability.Int16);
        if (ty.width === 8) this.capabilities.add(Capability.Int8);
        break;
      case 'float':
        op = Op.TypeFloat;
        operands.push(ty.width);
        if (ty.width === 64) this.capabilities.add(Capability.Float64);
        if (ty.width === 16) this.capabilities.add(Capability.Float16);
        break;
      case 'vector': op = Op.TypeVector; operands.push(this.type(ty.elem), ty.count); break;
      case 'matrix': op = Op.TypeMatrix; operands.push(this.type(ty.column), ty.columns); this.capabilities.add(Capability.Matrix); break;
      case 'array': op = Op.TypeArray; operands.push(this.type(this.stored(ty, ty.elem)), this.constant32(ty.length)); break;
      case 'runtimeArray': op = Op.TypeRuntimeArray; operands.push(this.type(this.stored(ty, ty.elem))); break;
      case 'struct': op = Op.TypeStruct; for (const mem of ty.members) operands.push(this.type(this.stored(ty, mem.type))); break;
      case 'pointer': {
        op = Op.TypePointer;
        if (ty.storage === 'physicalStorageBuffer') {
          this.addressing = AddressingModel.PhysicalStorageBuffer64;
          this.capabilities.add(Capability.PhysicalStorageBufferAddresses);
        }
        operands.push(STORAGE_CLASS_CODE[ty.storage], this.type(ty.pointee));
        break;
      }
      case 'image': {
        op = Op.TypeImage;
        const format = IMAGE_FORMAT_CODE[ty.format];
        if (format === undefined) throw new SpirvWriteError(`image format '${ty.format}' has no SPIR-V ImageFormat`);
        operands.push(this.type(ty.sampledType), DIM_CODE[ty.dim], ty.depth ? 1 : 0, ty.arrayed ? 1 : 0, ty.multisampled ? 1 : 0, ty.sampled ? 1 : 2, format);
        if (!ty.sampled && !BASIC_IMAGE_FORMATS.has(ty.format)) this.capabilities.add(Capability.StorageImageExtendedFormats);
        if (ty.dim === '1D') this.capabilities.add(ty.sampled ? Capability.Sampled1D : Capability.Image1D);
        if (ty.dim === 'Buffer') this.capabilities.add(ty.sampled ? Capability.SampledBuffer : Capability.ImageBuffer);
        break;
      }
      case 'sampler': op = Op.TypeSampler; break;
      case 'sampledImage': op = Op.TypeSampledImage; operands.push(this.type(ty.image)); break;
      case 'accelerationStructure': op = Op.TypeAccelerationStructureKHR; this.rayTracing(); break;
      case 'function': {
        const id = this.functionType(ty.returnType, ty.params);
        this.typeIds.set(t, id);
        return id;
      }
    }
    const id = this.fresh();
    this.globalsSection.emit(op, [id, ...operands]);
    this.typeIds.set(t, id);
    this.decorateType(id, ty);
    for (let i = 0; i < this.pendingPointers.length; i++) {
      const p = this.pendingPointers[i]!;
      if (p.pointee !== t) continue;
      this.globalsSection.emit(Op.TypePointer, [p.id, p.storage, id]);
      this.pendingPointers.splice(i--, 1);
    }
    return id;
  }

  /** True for a struct or array with explicit layout: the kind that lives in buffers. */
  isLaidOut(ty: Type): boolean {
    if (ty.kind === 'struct') return ty.members.some((m) => m.offset !== undefined);
    return (ty.kind === 'array' || ty.kind === 'runtimeArray') && ty.stride !== undefined;
  }

  /** bool / bvecN -> u32 / uvecN (how a bool is stored in a buffer); other types unchanged. */
  boolStorage(t: TypeId): TypeId | undefined {
    const ty = typeOf(this.types, t);
    const u32 = intern(this.types, { kind: 'int', width: 32, signed: false });
    if (ty.kind === 'bool') return u32;
    if (ty.kind === 'vector' && typeOf(this.types, ty.elem).kind === 'bool') return intern(this.types, { kind: 'vector', elem: u32, count: ty.count });
    return undefined;
  }

  /**
   * The type a member / element of `container` is written with: SPIR-V forbids bool in
   * externally visible storage, so a laid-out aggregate holds it as u32 (as glslang does); loads,
   * stores, extracts and constructs convert (function-writer.ts).
   */
  private stored(container: Type, t: TypeId): TypeId {
    return this.isLaidOut(container) ? this.boolStorage(t) ?? t : t;
  }

  private decorateType(id: number, ty: Type): void {
    if ((ty.kind === 'array' || ty.kind === 'runtimeArray') && ty.stride !== undefined) this.decorate(id, Decoration.ArrayStride, ty.stride);
    if (ty.kind !== 'struct') return;
    this.name(id, ty.name);
    if (ty.block) this.decorate(id, Decoration.Block);
    ty.members.forEach((mem, i) => {
      this.names.emit(Op.MemberName, [id, i, ...stringWords(mem.name)]);
      if (mem.offset !== undefined) this.annotations.emit(Op.MemberDecorate, [id, i, Decoration.Offset, mem.offset]);
      if (mem.matrixStride !== undefined) {
        this.annotations.emit(Op.MemberDecorate, [id, i, mem.rowMajor ? Decoration.RowMajor : Decoration.ColMajor]);
        this.annotations.emit(Op.MemberDecorate, [id, i, Decoration.MatrixStride, mem.matrixStride]);
      }
      if (mem.nonWritable) this.annotations.emit(Op.MemberDecorate, [id, i, Decoration.NonWritable]);
      if (mem.nonReadable) this.annotations.emit(Op.MemberDecorate, [id, i, Decoration.NonReadable]);
    });
  }

  functionType(returnType: TypeId, params: readonly TypeId[]): number {
    const key = `${returnType}(${params.join(',')})`;
    let id = this.fnTypeIds.get(key);
    if (id === undefined) {
      const operands = [this.type(returnType), ...params.map((p) => this.type(p))];
      id = this.fresh();
      this.globalsSection.emit(Op.TypeFunction, [id, ...operands]);
      this.fnTypeIds.set(key, id);
    }
    return id;
  }

  rayTracing(): void {
    this.capabilities.add(Capability.RayTracingKHR);
    this.extensions.add('SPV_KHR_ray_tracing');
  }

  // ----- constants -----

  /** Emits an IR constant on first use; returns its id (the IR's). */
  useValue(id: number): number {
    const c = this.constants.get(id);
    if (c && !this.emittedConstants.has(id)) this.emitConstant(c);
    return id;
  }

  isConstant(id: number): boolean {
    return this.constants.has(id);
  }

  private emitConstant(c: Constant): void {
    this.emittedConstants.add(c.id);
    const typeId = this.type(c.type);
    const ty = typeOf(this.types, c.type);
    const spec = c.specId !== undefined;
    if (c.parts) {
      const parts = c.parts.map((p) => this.useValue(p));
      this.globalsSection.emit(spec ? Op.SpecConstantComposite : Op.ConstantComposite, [typeId, c.id, ...parts]);
    } else if (c.value === null) {
      if (spec) throw new SpirvWriteError(`specialization constant ${c.name ?? c.id} has no default value`);
      this.globalsSection.emit(Op.ConstantNull, [typeId, c.id]);
    } else if (ty.kind === 'bool') {
      const op = c.value ? (spec ? Op.SpecConstantTrue : Op.ConstantTrue) : (spec ? Op.SpecConstantFalse : Op.ConstantFalse);
      this.globalsSection.emit(op, [typeId, c.id]);
    } else {
      this.globalsSection.emit(spec ? Op.SpecConstant : Op.Constant, [typeId, c.id, ...scalarWords(ty, c.value, c.name ?? String(c.id))]);
    }
    if (spec) this.decorate(c.id, Decoration.SpecId, c.specId!);
    if (c.name) this.name(c.id, c.name);
  }

  /** A u32 constant the writer needs (array lengths, scopes, semantics). */
  constant32(value: number): number {
    return this.scalarConstant({ kind: 'int', width: 32, signed: false }, value);
  }

  /** A scalar constant of `t` with `value`, shared with equal ones. */
  scalarConstant(t: Type & { kind: 'int' | 'float' | 'bool' }, value: number | bigint | boolean): number {
    const typeId = this.internType(t);
    const key = `${typeId}:${String(value)}`;
    let id = this.extraConstants.get(key);
    if (id !== undefined) return id;
    id = this.fresh();
    if (t.kind === 'bool') this.globalsSection.emit(value ? Op.ConstantTrue : Op.ConstantFalse, [typeId, id]);
    else this.globalsSection.emit(Op.Constant, [typeId, id, ...scalarWords(t, value as number | bigint, 'constant')]);
    this.extraConstants.set(key, id);
    return id;
  }

  /** A composite constant of vector type `typeId` with every component `part`. */
  splatConstant(typeId: number, count: number, part: number): number {
    const key = `${typeId}:splat:${part}`;
    let id = this.extraConstants.get(key);
    if (id !== undefined) return id;
    id = this.fresh();
    this.globalsSection.emit(Op.ConstantComposite, [typeId, id, ...new Array<number>(count).fill(part)]);
    this.extraConstants.set(key, id);
    return id;
  }

  // ----- globals -----

  emitGlobal(g: Global): void {
    const ptr = typeOf(this.types, g.type);
    if (ptr.kind !== 'pointer') throw new SpirvWriteError(`global '${g.name}' does not have a pointer type`);
    if (g.builtin === 'ObjectToWorld3x4' || g.builtin === 'WorldToObject3x4') {
      this.emitTransposedBuiltin(g, ptr.pointee);
      return;
    }
    const storage = STORAGE_CLASS_CODE[g.storage];
    const operands = [this.type(g.type), g.id, storage];
    if (g.init !== undefined) operands.push(this.useValue(g.init));
    this.globalsSection.emit(Op.Variable, operands);
    this.interfaceIds.push(g.id);
    this.name(g.id, g.name);
    const rebound = this.opts.rebind?.get(g.id);
    const set = rebound?.set ?? g.set;
    const binding = rebound?.binding ?? g.binding;
    if (set !== undefined) this.decorate(g.id, Decoration.DescriptorSet, set);
    if (binding !== undefined) this.decorate(g.id, Decoration.Binding, binding);
    const locatable = ['rayPayload', 'incomingRayPayload', 'callableData', 'incomingCallableData'];
    if (g.location !== undefined && locatable.includes(g.storage)) this.decorate(g.id, Decoration.Location, g.location);
    if (g.builtin) {
      this.decorate(g.id, Decoration.BuiltIn, BUILTIN_CODE[g.builtin]);
      if (g.builtin === 'CullMask') {
        this.capabilities.add(Capability.RayCullMaskKHR);
        this.extensions.add('SPV_KHR_ray_cull_mask');
      }
      if (g.builtin === 'HitTriangleVertexPositions') {
        this.capabilities.add(Capability.RayTracingPositionFetchKHR);
        this.extensions.add('SPV_KHR_ray_tracing_position_fetch');
      }
    }
    if (g.nonWritable) this.decorate(g.id, Decoration.NonWritable);
    if (g.nonReadable) this.decorate(g.id, Decoration.NonReadable);
    if (g.coherent) this.decorate(g.id, Decoration.Coherent);
    if (g.volatile) this.decorate(g.id, Decoration.Volatile);
    if (g.restrict) this.decorate(g.id, Decoration.Restrict);
    if (isRayTracingStorage(g.storage)) this.rayTracing();
    const pointee = typeOf(this.types, ptr.pointee);
    if (pointee.kind === 'runtimeArray' && g.storage === 'uniformConstant') this.capabilities.add(Capability.RuntimeDescriptorArray);
  }

  /**
   * GLSL's gl_ObjectToWorld3x4EXT / gl_WorldToObject3x4EXT: SPIR-V has only the 4x3 built-in, so
   * the IR global becomes a Private mat3x4 that the entry function fills with the transposed
   * built-in before anything else runs (`transposedBuiltins`).
   */
  private emitTransposedBuiltin(g: Global, pointee: TypeId): void {
    const m3x4 = typeOf(this.types, pointee);
    if (m3x4.kind !== 'matrix') throw new SpirvWriteError(`built-in '${g.name}' is not a matrix`);
    const column = typeOf(this.types, m3x4.column);
    if (column.kind !== 'vector') throw new SpirvWriteError(`built-in '${g.name}' is not a matrix of vectors`);
    const col3 = intern(this.types, { kind: 'vector', elem: column.elem, count: 3 });
    const m4x3 = intern(this.types, { kind: 'matrix', column: col3, columns: 4 });
    const builtinType = this.type(m4x3);
    const builtin = this.fresh();
    this.globalsSection.emit(Op.Variable, [this.internType({ kind: 'pointer', storage: 'input', pointee: m4x3 }), builtin, STORAGE_CLASS_CODE.input]);
    this.decorate(builtin, Decoration.BuiltIn, BUILTIN_CODE[g.builtin!]);
    this.name(builtin, g.builtin === 'ObjectToWorld3x4' ? 'gl_ObjectToWorldEXT' : 'gl_WorldToObjectEXT');
    this.globalsSection.emit(Op.Variable, [this.internType({ kind: 'pointer', storage: 'private', pointee }), g.id, STORAGE_CLASS_CODE.private]);
    this.name(g.id, g.name);
    this.interfaceIds.push(builtin, g.id);
    this.transposedBuiltins.push({ copy: g.id, builtin, builtinType, copyType: pointee });
    this.rayTracing();
  }
}

function isRayTracingStorage(s: string): boolean {
  return ['rayPayload', 'incomingRayPayload', 'hitAttribute', 'callableData', 'incomingCallableData', 'shaderRecordBuffer'].includes(s);
}

/** Literal words of a scalar constant of type `ty`. */
function scalarWords(ty: Type, value: number | bigint | boolean, what: string): number[] {
  if (ty.kind === 'int') {
    if (ty.width === 64) return i64Words(typeof value === 'bigint' ? value : BigInt(Math.trunc(Number(value))));
    const n = Number(value);
    if (ty.width === 32) return [n >>> 0];
    // 8/16-bit: sign-extended for signed types, zero-extended otherwise (SPIR-V 2.2.1).
    const bits = ty.width;
    const masked = n & ((1 << bits) - 1);
    return [ty.signed && masked >= 1 << (bits - 1) ? (masked - (1 << bits)) >>> 0 : masked];
  }
  if (ty.kind === 'float') {
    const n = Number(value);
    if (ty.width === 64) return f64Words(n);
    if (ty.width === 32) return [f32Word(n)];
    return [halfBits(n)];
  }
  throw new SpirvWriteError(`constant ${what} of a non-scalar type has no value words`);
}

/** IEEE binary16 bits of `x` (round to nearest even). */
function halfBits(x: number): number {
  const f = new DataView(new ArrayBuffer(4));
  f.setFloat32(0, x, true);
  const b = f.getUint32(0, true);
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  e = h >>> 10;
  return sign | h;
}
