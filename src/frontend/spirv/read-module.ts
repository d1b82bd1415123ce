/**
 * The SPIR-V reader's entry: a SPIR-V binary (1.0-1.6) -> an IR module with one entry point.
 *
 * Ids: every SPIR-V result id of a value, block or function becomes the IR id with the same number
 * (`Module.nextId` starts at the binary's id bound); types are interned into the IR's type table.
 * Debug info: OpString / OpSource (with OpSourceContinued) become `Module.sources` (text from the
 * module, else from `readSourceText`), OpLine and NonSemantic.Shader.DebugInfo's DebugLine become
 * each instruction's `loc`; OpName / OpMemberName name globals, structs, members and functions.
 *
 * Errors name the file, the word offset and the instruction: a module vvision cannot represent
 * (another execution model, an opcode the IR has no meaning for, a malformed binary) is refused.
 */
import type { Loc, ValueId } from '../../ir/inst.js';
import type { Builtin, Constant, Global, Module, SourceFile, Stage } from '../../ir/module.js';
import { newModule } from '../../ir/module.js';
import {
  BUILTIN_CODE, Decoration, DIM_CODE, EXECUTION_MODEL, IMAGE_FORMAT_CODE, Op, STORAGE_CLASS_CODE,
} from '../../ir/spirv-enums.js';
import { declareStruct, intern, typeOf, type ImageDim, type StorageClass, type StructMember, type TypeId } from '../../ir/types.js';
import { readFunctions } from './read-function.js';
import { verifyModule } from '../../ir/verify.js';
import { describeRecursion, recursiveCalls } from '../../ir/call-cycles.js';
import { describeOversizedVariable, oversizedVariables } from '../../ir/variable-size-limit.js';
import { opcodeName, parseSpirvWords, readString, SpirvReadError, type SpirvInstruction } from './spirv-words.js';

export { SpirvReadError } from './spirv-words.js';

export interface SpirvReadOptions {
  /** Text of a source file the module names but does not embed (an #included file); default: none. */
  readSourceText?: (path: string) => string | undefined;
}

const invert = <K extends string>(r: Readonly<Record<K, number>>): Map<number, K> => {
  const out = new Map<number, K>();
  for (const [k, v] of Object.entries(r) as [K, number][]) if (!out.has(v)) out.set(v, k);
  return out;
};
const STAGE_OF = invert<Stage>(EXECUTION_MODEL);
const STORAGE_OF = invert<StorageClass>(STORAGE_CLASS_CODE);
/** gl_HitTEXT is RayTmaxKHR in SPIR-V: read back as RayTmax (the same value in hit shaders). */
const BUILTIN_OF = invert<Builtin>(BUILTIN_CODE);
BUILTIN_OF.set(BUILTIN_CODE.RayTmax, 'RayTmax');
BUILTIN_OF.set(5330, 'ObjectToWorld');
BUILTIN_OF.set(5331, 'WorldToObject');
const DIM_OF = invert<ImageDim>(DIM_CODE);
const FORMAT_OF = invert<string>(IMAGE_FORMAT_CODE);

/** Decorations of one id (or one struct member), as the reader needs them. */
export interface Decorations {
  builtin?: number;
  set?: number;
  binding?: number;
  location?: number;
  offset?: number;
  arrayStride?: number;
  matrixStride?: number;
  rowMajor?: boolean;
  block?: boolean;
  bufferBlock?: boolean;
  specId?: number;
  nonWritable?: boolean;
  nonReadable?: boolean;
  coherent?: boolean;
  volatile?: boolean;
  restrict?: boolean;
}

/** Everything read from the module-level sections, shared with the function reader. */
export interface ReadContext {
  file: string;
  m: Module;
  /** SPIR-V type id -> IR type id. */
  types: Map<number, TypeId>;
  /** Value id -> IR type id (constants, globals, params, results). */
  valueTypes: Map<number, TypeId>;
  constants: Map<number, Constant>;
  extInstSets: Map<number, string>;
  strings: Map<number, string>;
  /** OpString id of a file -> index into `m.sources`. */
  fileIndex: Map<number, number>;
  names: Map<number, string>;
  decorations: Map<number, Decorations>;
  /** NonSemantic DebugSource result id -> index into `m.sources`. */
  debugSources: Map<number, number>;
  entryFunction: number;
  /** OpSpecConstantOp result id -> its instruction, in module order. */
  specOps: Map<number, SpirvInstruction>;
  /** The instruction being read, and where each id was defined (for errors). */
  position: ReadPosition;
}

/** Where the reader is, for errors found later than the instruction at fault. */
export interface ReadPosition {
  /** The instruction being read (for errors from deeper down). */
  inst?: SpirvInstruction;
  /** IR id -> word offset of the SPIR-V instruction that made it (result ids keep their number). */
  idOffsets: Map<number, number>;
}

/** Module-level opcodes whose result id is their first operand (no result type before it). */
const RESULT_FIRST = new Set<number>([
  Op.String, Op.ExtInstImport, Op.TypeVoid, Op.TypeBool, Op.TypeInt, Op.TypeFloat, Op.TypeVector, Op.TypeMatrix, Op.TypeImage,
  Op.TypeSampler, Op.TypeSampledImage, Op.TypeArray, Op.TypeRuntimeArray, Op.TypeStruct, Op.TypePointer, Op.TypeFunction,
  Op.TypeAccelerationStructureKHR,
]);
/** Module-level opcodes with a result type and then a result id. */
const RESULT_SECOND = new Set<number>([
  Op.Undef, Op.ConstantTrue, Op.ConstantFalse, Op.Constant, Op.ConstantComposite, Op.ConstantNull, Op.SpecConstantTrue,
  Op.SpecConstantFalse, Op.SpecConstant, Op.SpecConstantComposite, Op.SpecConstantOp, Op.Variable, Op.ExtInst,
]);

/**
 * The word offset to blame for a verifier problem: that of the first value id (`%17`) the message
 * names that some instruction made, else of the first block (`^b3`). The verifier names the
 * instruction at fault before its operands (`@main ^b3 %17 (load) [...]: %12 ...`).
 */
function offsetOfProblem(problem: string, idOffsets: Map<number, number>): number | undefined {
  for (const pattern of [/%(\d+)/g, /\^b(\d+)/g]) {
    for (const match of problem.matchAll(pattern)) {
      const at = idOffsets.get(Number(match[1]));
      if (at !== undefined) return at;
    }
  }
  return undefined;
}

/**
 * Never throws anything but `SpirvReadError` for any input: a malformed module that trips an
 * internal assumption is reported at the instruction being read, and the result must pass the IR
 * verifier (ids defined before use, types consistent), so later stages never meet a broken module.
 */
export function readSpirv(file: string, bytes: Uint8Array, opts: SpirvReadOptions = {}): Module {
  const position: ReadPosition = { idOffsets: new Map() };
  let m: Module;
  try {
    m = readUnchecked(file, bytes, opts, position);
  } catch (e) {
    if (e instanceof SpirvReadError) throw e;
    const at = position.inst;
    const message = e instanceof Error ? e.message : String(e);
    throw new SpirvReadError(file, at?.offset, `${at ? `${opcodeName(at.opcode)}: ` : ''}malformed module (${message})`);
  }
  let problems: string[];
  try {
    problems = verifyModule(m);
  } catch (e) {
    problems = [e instanceof Error ? e.message : String(e)];
  }
  if (problems.length > 0) {
    // A problem naming no id an instruction made is one of ids past the header's bound (word 3).
    const at = offsetOfProblem(problems[0]!, position.idOffsets) ?? (/nextId/.test(problems[0]!) ? 3 : undefined);
    throw new SpirvReadError(file, at, `the module does not verify as vvision IR: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
  }
  // GLSL forbids static recursion and Vulkan has no call stack for it: refused like glslang's link step.
  const recursion = recursiveCalls(m)[0];
  if (recursion) {
    throw new SpirvReadError(file, position.idOffsets.get(recursion.call.id), `OpFunctionCall: recursion detected: ${describeRecursion(recursion)} (Vulkan forbids static recursion)`);
  }
  const oversized = oversizedVariables(m)[0];
  if (oversized) throw new SpirvReadError(file, position.idOffsets.get(oversized.id), `OpVariable: ${describeOversizedVariable(m, oversized)}`);
  return m;
}

function readUnchecked(file: string, bytes: Uint8Array, opts: SpirvReadOptions, position: ReadPosition): Module {
  const bin = parseSpirvWords(file, bytes);
  const m = newModule();
  m.nextId = bin.bound;
  const cx: ReadContext = {
    file, m, types: new Map(), valueTypes: new Map(), constants: new Map(), extInstSets: new Map(), strings: new Map(),
    fileIndex: new Map(), names: new Map(), decorations: new Map(), debugSources: new Map(), entryFunction: 0, position, specOps: new Map(),
  };
  const memberNames = new Map<number, string[]>();
  const memberDecorations = new Map<number, Decorations[]>();
  /** OpTypeForwardPointer ids not yet defined -> struct members that name them. */
  const forward = new Map<number, StructMember[]>();
  let entry: { stage: Stage; fn: number; name: string; offset: number } | undefined;
  let localSize: [number, number, number] | undefined;
  let lastSource: SourceFile | undefined;
  const functionStart = bin.instructions.findIndex((i) => i.opcode === Op.Function);
  const moduleLevel = functionStart < 0 ? bin.instructions : bin.instructions.slice(0, functionStart);
  const fail = (inst: SpirvInstruction, message: string): never => {
    throw new SpirvReadError(file, inst.offset, `${opcodeName(inst.opcode)}: ${message}`);
  };
  const decorationsOf = (id: number): Decorations => {
    let d = cx.decorations.get(id);
    if (!d) cx.decorations.set(id, (d = {}));
    return d;
  };
  const typeOfId = (inst: SpirvInstruction, id: number): TypeId => {
    const t = cx.types.get(id);
    if (t === undefined) fail(inst, `%${id} is not a type declared before its use`);
    return t!;
  };

  for (const inst of moduleLevel) {
    position.inst = inst;
    const o = inst.operands;
    const resultAt = RESULT_FIRST.has(inst.opcode) ? 0 : RESULT_SECOND.has(inst.opcode) ? 1 : -1;
    if (resultAt >= 0 && o.length > resultAt) position.idOffsets.set(o[resultAt]!, inst.offset);
    switch (inst.opcode) {
      case Op.Capability: case Op.MemoryModel: case Op.ModuleProcessed: case Op.SourceExtension: case Op.Nop: case Op.Line: case Op.NoLine:
        break;
      case Op.Extension:
        break;
      case Op.ExtInstImport:
        cx.extInstSets.set(o[0]!, readString(file, inst, 1).value);
        break;
      case Op.EntryPoint: {
        const stage = STAGE_OF.get(o[0]!);
        if (!stage) fail(inst, `execution model ${o[0]} is not a ray tracing or compute stage`);
        if (entry) fail(inst, 'a second entry point: vvision reads one entry point per module');
        entry = { stage: stage!, fn: o[1]!, name: readString(file, inst, 2).value, offset: inst.offset };
        break;
      }
      case Op.ExecutionMode: case Op.ExecutionModeId:
        if (o[1] === 17) localSize = [o[2]!, o[3]!, o[4]!];
        break;
      case Op.String:
        cx.strings.set(o[0]!, readString(file, inst, 1).value);
        break;
      case Op.Source: {
        const fileId = o.length > 2 ? o[2]! : undefined;
        const path = fileId !== undefined ? cx.strings.get(fileId) ?? file : file;
        const text = o.length > 3 ? readString(file, inst, 3).value : undefined;
        lastSource = addSource(cx, path, fileId, text, opts);
        break;
      }
      case Op.SourceContinued:
        if (lastSource) lastSource.text += readString(file, inst, 0).value;
        break;
      case Op.Name:
        cx.names.set(o[0]!, readString(file, inst, 1).value);
        break;
      case Op.MemberName: {
        const list = memberNames.get(o[0]!) ?? [];
        list[o[1]!] = readString(file, inst, 2).value;
        memberNames.set(o[0]!, list);
        break;
      }
      case Op.Decorate: case Op.DecorateId:
        applyDecoration(decorationsOf(o[0]!), o[1]!, o[2]);
        break;
      case Op.MemberDecorate: {
        const list = memberDecorations.get(o[0]!) ?? [];
        list[o[1]!] ??= {};
        applyDecoration(list[o[1]!]!, o[2]!, o[3]);
        memberDecorations.set(o[0]!, list);
        break;
      }
      case Op.DecorateString: case Op.MemberDecorateString:
        break;
      case Op.TypeVoid: cx.types.set(o[0]!, intern(m.types, { kind: 'void' })); break;
      case Op.TypeBool: cx.types.set(o[0]!, intern(m.types, { kind: 'bool' })); break;
      case Op.TypeInt: {
        const width = o[1]!;
        if (width !== 8 && width !== 16 && width !== 32 && width !== 64) fail(inst, `integer width ${width}`);
        cx.types.set(o[0]!, intern(m.types, { kind: 'int', width: width as 8 | 16 | 32 | 64, signed: o[2] === 1 }));
        break;
      }
      case Op.TypeFloat: {
        const width = o[1]!;
        if (width !== 16 && width !== 32 && width !== 64) fail(inst, `float width ${width}`);
        cx.types.set(o[0]!, intern(m.types, { kind: 'float', width: width as 16 | 32 | 64 }));
        break;
      }
      case Op.TypeVector: {
        const count = o[2]!;
        if (count < 2 || count > 4) fail(inst, `vectors of ${count} components are not supported`);
        cx.types.set(o[0]!, intern(m.types, { kind: 'vector', elem: typeOfId(inst, o[1]!), count: count as 2 | 3 | 4 }));
        break;
      }
      case Op.TypeMatrix: {
        const columns = o[2]!;
        if (columns < 2 || columns > 4) fail(inst, `matrices of ${columns} columns are not supported`);
        cx.types.set(o[0]!, intern(m.types, { kind: 'matrix', column: typeOfId(inst, o[1]!), columns: columns as 2 | 3 | 4 }));
        break;
      }
      case Op.TypeArray: {
        const len = cx.constants.get(o[2]!);
        if (!len || typeof len.value !== 'number') fail(inst, `array length %${o[2]} is not a 32-bit integer constant`);
        const stride = cx.decorations.get(o[0]!)?.arrayStride;
        cx.types.set(o[0]!, intern(m.types, { kind: 'array', elem: typeOfId(inst, o[1]!), length: len!.value as number, ...(stride !== undefined ? { stride } : {}) }));
        break;
      }
      case Op.TypeRuntimeArray: {
        const stride = cx.decorations.get(o[0]!)?.arrayStride;
        cx.types.set(o[0]!, intern(m.types, { kind: 'runtimeArray', elem: typeOfId(inst, o[1]!), ...(stride !== undefined ? { stride } : {}) }));
        break;
      }
      case Op.TypeStruct: {
        const d = cx.decorations.get(o[0]!) ?? {};
        const names = memberNames.get(o[0]!) ?? [];
        const decs = memberDecorations.get(o[0]!) ?? [];
        const members: StructMember[] = [...o.subarray(1)].map((t, i) => {
          const md = decs[i] ?? {};
          // A buffer_reference pointer declared forward: a placeholder type, patched by its OpTypePointer.
          const pending = cx.types.has(t) ? undefined : forward.get(t);
          const mem: StructMember = { name: names[i] ?? `member${i}`, type: pending ? intern(m.types, { kind: 'int', width: 64, signed: false }) : typeOfId(inst, t) };
          if (pending) pending.push(mem);
          if (md.offset !== undefined) mem.offset = md.offset;
          if (md.matrixStride !== undefined) mem.matrixStride = md.matrixStride;
          if (md.rowMajor) mem.rowMajor = true;
          if (md.nonWritable) mem.nonWritable = true;
          if (md.nonReadable) mem.nonReadable = true;
          return mem;
        });
        const laidOut = members.some((x) => x.offset !== undefined);
        cx.types.set(o[0]!, declareStruct(m.types, cx.names.get(o[0]!) || `struct${o[0]}`, members, {
          ...(laidOut ? { layout: inferLayout(cx, members) } : {}), ...(d.block || d.bufferBlock ? { block: true } : {}),
        }));
        break;
      }
      case Op.TypePointer: {
        const storage = STORAGE_OF.get(o[1]!);
        if (!storage) fail(inst, `storage class ${o[1]} is not one vvision models`);
        const pointee = cx.types.get(o[2]!);
        if (pointee === undefined) fail(inst, `pointee %${o[2]} is not declared before the pointer`);
        const ptrType = intern(m.types, { kind: 'pointer', storage: storage!, pointee: pointee! });
        cx.types.set(o[0]!, ptrType);
        for (const mem of forward.get(o[0]!) ?? []) mem.type = ptrType;
        forward.delete(o[0]!);
        break;
      }
      case Op.TypeForwardPointer:
        forward.set(o[0]!, []);
        break;
      case Op.TypeFunction:
        cx.types.set(o[0]!, intern(m.types, { kind: 'function', returnType: typeOfId(inst, o[1]!), params: [...o.subarray(2)].map((p) => typeOfId(inst, p)) }));
        break;
      case Op.TypeImage: {
        const dim = DIM_OF.get(o[2]!);
        const format = FORMAT_OF.get(o[7]!);
        if (!dim || format === undefined) fail(inst, `image dimension ${o[2]} / format ${o[7]} is not supported`);
        cx.types.set(o[0]!, intern(m.types, {
          kind: 'image', sampledType: typeOfId(inst, o[1]!), dim: dim!, depth: o[3] === 1, arrayed: o[4] === 1,
          multisampled: o[5] === 1, sampled: o[6] !== 2, format: format!,
        }));
        break;
      }
      case Op.TypeSampler: cx.types.set(o[0]!, intern(m.types, { kind: 'sampler' })); break;
      case Op.TypeSampledImage: cx.types.set(o[0]!, intern(m.types, { kind: 'sampledImage', image: typeOfId(inst, o[1]!) })); break;
      case Op.TypeAccelerationStructureKHR: cx.types.set(o[0]!, intern(m.types, { kind: 'accelerationStructure' })); break;
      case Op.ConstantTrue: case Op.ConstantFalse: case Op.SpecConstantTrue: case Op.SpecConstantFalse:
        addConstant(cx, o[1]!, typeOfId(inst, o[0]!), inst.opcode === Op.ConstantTrue || inst.opcode === Op.SpecConstantTrue, undefined, inst.opcode >= Op.SpecConstantTrue);
        break;
      case Op.Constant: case Op.SpecConstant:
        addConstant(cx, o[1]!, typeOfId(inst, o[0]!), scalarValue(cx, inst, typeOfId(inst, o[0]!), o.subarray(2)), undefined, inst.opcode === Op.SpecConstant);
        break;
      case Op.ConstantComposite: case Op.SpecConstantComposite:
        addConstant(cx, o[1]!, typeOfId(inst, o[0]!), null, [...o.subarray(2)].map((p) => {
          if (!cx.constants.has(p)) fail(inst, `constituent %${p} is not a constant`);
          return p as ValueId;
        }), inst.opcode === Op.SpecConstantComposite);
        break;
      case Op.ConstantNull:
        addConstant(cx, o[1]!, typeOfId(inst, o[0]!), null, undefined, false);
        break;
      case Op.Undef:
        // A module-scope undef: a null constant has the same effect on every read the IR models.
        addConstant(cx, o[1]!, typeOfId(inst, o[0]!), null, undefined, false);
        break;
      case Op.SpecConstantOp:
        // An expression of specialization constants: computed where it is used (read-function.ts),
        // as vvision's GLSL front end does, so it follows the manifest's specConstants.
        cx.specOps.set(o[1]!, inst);
        cx.valueTypes.set(o[1]!, typeOfId(inst, o[0]!));
        break;
      case Op.Variable:
        addGlobal(cx, inst, typeOfId(inst, o[0]!), o[1]!, o[3]);
        break;
      case Op.ExtInst:
        readModuleDebugInfo(cx, inst, opts);
        break;
      default:
        fail(inst, 'not allowed (or not supported) outside a function');
    }
  }
  if (!entry) throw new SpirvReadError(file, undefined, 'the module has no OpEntryPoint');
  if (m.sources.length === 0) m.sources.push({ path: file, text: '' });
  cx.entryFunction = entry.fn;
  readFunctions(cx, functionStart < 0 ? [] : bin.instructions.slice(functionStart));
  if (!m.functions.some((f) => f.id === entry!.fn)) throw new SpirvReadError(file, entry.offset, `OpEntryPoint: the entry point's function %${entry.fn} is not defined`);
  m.entryPoints.push({ stage: entry.stage, function: entry.fn as Module['functions'][number]['id'], name: entry.name, ...(localSize ? { localSize } : {}) });
  if (entry.stage !== 'compute') m.extensions.push('GL_EXT_ray_tracing');
  return m;
}

/**
 * SPIR-V keeps offsets, not the rule that made them: a vector member off its std430 alignment
 * (vec3 at 12) can only come from scalar layout (GL_EXT_scalar_block_layout); otherwise std430.
 * Informational: every consumer reads the explicit offsets and strides.
 */
function inferLayout(cx: ReadContext, members: readonly StructMember[]): 'std430' | 'scalar' {
  for (const mem of members) {
    const t = typeOf(cx.m.types, mem.type);
    if (t.kind !== 'vector' || mem.offset === undefined) continue;
    const e = typeOf(cx.m.types, t.elem);
    const size = e.kind === 'int' || e.kind === 'float' ? e.width / 8 : 4;
    if (mem.offset % ((t.count === 2 ? 2 : 4) * size) !== 0) return 'scalar';
  }
  return 'std430';
}

function applyDecoration(d: Decorations, decoration: number, literal: number | undefined): void {
  switch (decoration) {
    case Decoration.BuiltIn: d.builtin = literal; break;
    case Decoration.DescriptorSet: d.set = literal; break;
    case Decoration.Binding: d.binding = literal; break;
    case Decoration.Location: d.location = literal; break;
    case Decoration.Offset: d.offset = literal; break;
    case Decoration.ArrayStride: d.arrayStride = literal; break;
    case Decoration.MatrixStride: d.matrixStride = literal; break;
    case Decoration.RowMajor: d.rowMajor = true; break;
    case Decoration.Block: d.block = true; break;
    case Decoration.BufferBlock: d.bufferBlock = true; break;
    case Decoration.SpecId: d.specId = literal; break;
    case Decoration.NonWritable: d.nonWritable = true; break;
    case Decoration.NonReadable: d.nonReadable = true; break;
    case Decoration.Coherent: d.coherent = true; break;
    case Decoration.Volatile: d.volatile = true; break;
    case Decoration.Restrict: d.restrict = true; break;
    default: break; // precision, aliasing and the like do not change what the IR computes
  }
}

function addSource(cx: ReadContext, path: string, fileId: number | undefined, text: string | undefined, opts: SpirvReadOptions): SourceFile {
  const existing = cx.m.sources.findIndex((s) => s.path === path);
  if (existing >= 0) {
    const s = cx.m.sources[existing]!;
    if (text !== undefined && s.text === '') s.text = text;
    if (fileId !== undefined) cx.fileIndex.set(fileId, existing);
    return s;
  }
  const s: SourceFile = { path, text: text ?? opts.readSourceText?.(path) ?? '' };
  cx.m.sources.push(s);
  if (fileId !== undefined) cx.fileIndex.set(fileId, cx.m.sources.length - 1);
  return s;
}

/** The source index of an OpString file id, adding the file (text from `readSourceText`) on first use. */
export function sourceIndexOf(cx: ReadContext, fileId: number, opts: SpirvReadOptions = {}): number | undefined {
  const known = cx.fileIndex.get(fileId);
  if (known !== undefined) return known;
  const path = cx.strings.get(fileId);
  if (path === undefined) return undefined;
  addSource(cx, path, fileId, undefined, opts);
  return cx.fileIndex.get(fileId);
}

function addConstant(cx: ReadContext, id: number, type: TypeId, value: Constant['value'], parts: ValueId[] | undefined, spec: boolean): void {
  const c: Constant = { id: id as ValueId, type, value };
  if (parts) c.parts = parts;
  const d = cx.decorations.get(id);
  if (spec && d?.specId !== undefined) c.specId = d.specId;
  const name = cx.names.get(id);
  if (name) c.name = name;
  cx.m.constants.push(c);
  cx.constants.set(id, c);
  cx.valueTypes.set(id, type);
}

function scalarValue(cx: ReadContext, inst: SpirvInstruction, type: TypeId, words: Uint32Array): number | bigint {
  const t = typeOf(cx.m.types, type);
  if (t.kind === 'int') {
    if (t.width === 64) {
      const v = (BigInt(words[1] ?? 0) << 32n) | BigInt(words[0] ?? 0);
      return t.signed ? BigInt.asIntN(64, v) : v;
    }
    const w = words[0] ?? 0;
    if (t.width === 32) return t.signed ? w | 0 : w >>> 0;
    const bits = t.width;
    const v = w & ((1 << bits) - 1);
    return t.signed && v >= 1 << (bits - 1) ? v - (1 << bits) : v;
  }
  if (t.kind === 'float') {
    const dv = new DataView(new ArrayBuffer(8));
    if (t.width === 64) {
      dv.setUint32(0, words[0] ?? 0, true);
      dv.setUint32(4, words[1] ?? 0, true);
      return dv.getFloat64(0, true);
    }
    if (t.width === 32) {
      dv.setUint32(0, words[0] ?? 0, true);
      return dv.getFloat32(0, true);
    }
    return halfValue((words[0] ?? 0) & 0xffff);
  }
  throw new SpirvReadError(cx.file, inst.offset, `${opcodeName(inst.opcode)}: a scalar constant of a non-numeric type`);
}

function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return sign * f * 2 ** -24;
  if (e === 0x1f) return f ? NaN : sign * Infinity;
  return sign * (1 + f / 1024) * 2 ** (e - 15);
}

function addGlobal(cx: ReadContext, inst: SpirvInstruction, type: TypeId, id: number, init: number | undefined): void {
  const ptr = typeOf(cx.m.types, type);
  if (ptr.kind !== 'pointer') throw new SpirvReadError(cx.file, inst.offset, `OpVariable %${id}: result type is not a pointer`);
  const d = cx.decorations.get(id) ?? {};
  let storage = ptr.storage;
  let globalType = type;
  // Pre-1.3 style storage buffers: Uniform storage class + BufferBlock.
  const pointee = typeOf(cx.m.types, ptr.pointee);
  if (storage === 'uniform' && pointee.kind === 'struct' && cx.decorations.get(structSpirvId(cx, ptr.pointee) ?? -1)?.bufferBlock) {
    storage = 'storageBuffer';
    globalType = intern(cx.m.types, { kind: 'pointer', storage, pointee: ptr.pointee });
  }
  const g: Global = { id: id as ValueId, name: cx.names.get(id) ?? '', type: globalType, storage, loc: { file: 0, line: 0, column: 0 } };
  if (d.set !== undefined) g.set = d.set;
  if (d.binding !== undefined) g.binding = d.binding;
  if (d.location !== undefined) g.location = d.location;
  if (d.builtin !== undefined) {
    const b = BUILTIN_OF.get(d.builtin);
    if (!b) throw new SpirvReadError(cx.file, inst.offset, `OpVariable %${id}: built-in ${d.builtin} is not one vvision models`);
    g.builtin = b;
  }
  if (init !== undefined) g.init = init as ValueId;
  if (d.nonWritable) g.nonWritable = true;
  if (d.nonReadable) g.nonReadable = true;
  if (d.coherent) g.coherent = true;
  if (d.volatile) g.volatile = true;
  if (d.restrict) g.restrict = true;
  cx.m.globals.push(g);
  cx.valueTypes.set(id, globalType);
}

function structSpirvId(cx: ReadContext, t: TypeId): number | undefined {
  for (const [k, v] of cx.types) if (v === t) return k;
  return undefined;
}

/** NonSemantic.Shader.DebugInfo.100 DebugSource (35): the source text glslang's -gV embeds. */
function readModuleDebugInfo(cx: ReadContext, inst: SpirvInstruction, opts: SpirvReadOptions): void {
  const o = inst.operands;
  const set = cx.extInstSets.get(o[2]!);
  if (set === 'NonSemantic.Shader.DebugInfo.100' && o[3] === 35) {
    const path = cx.strings.get(o[4]!) ?? cx.file;
    const text = o.length > 5 ? cx.strings.get(o[5]!) : undefined;
    addSource(cx, path, o[4], text, opts);
    cx.debugSources.set(o[1]!, cx.fileIndex.get(o[4]!) ?? 0);
  }
  // Other non-semantic instructions (debug types, scopes) carry nothing the IR keeps.
  else if (!set?.startsWith('NonSemantic.')) {
    throw new SpirvReadError(cx.file, inst.offset, `OpExtInst of '${set ?? `%${o[2]}`}' outside a function`);
  }
}

export const NO_SOURCE_LOC: Loc = { file: 0, line: 0, column: 0 };
