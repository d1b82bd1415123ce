/**
 * Declarations: global variables (private, const, spec constants, opaque uniforms, ray tracing
 * interface variables, shared), interface blocks (uniform / storage / push constant / shader
 * record / buffer_reference) with their layouts, local variables, and function signatures.
 *
 * IR conventions kept: interface variables are Globals whose pointer storage class says which
 * interface they belong to; block members carry offsets from the declared layout rule (std140 for
 * uniform blocks, std430 for storage, push-constant and shader-record blocks unless overridden);
 * `const` with a constant initializer folds to a module constant; buffer_reference block names
 * become physical-storage pointer types.
 */
import type { BlockDecl, Expr, FunctionDecl, LayoutQualifier, Qualifiers, VarDecl } from '../ast.js';
import type { FunctionId, Loc } from '../../../ir/inst.js';
import type { Global, Stage } from '../../../ir/module.js';
import { freshId } from '../../../ir/module.js';
import { declareStruct, intern, type LayoutRule, type StorageClass, type TypeId } from '../../../ir/types.js';
import { evalConst } from '../sema/const-eval.js';
import { layoutBlock, type BlockMemberSpec } from '../sema/layout.js';
import type { FunctionSymbol, ParamQualifier, ReadonlyReason } from '../sema/scope.js';
import { constEnvOf, constInt, resolveType } from '../sema/type-resolution.js';
import { STAGE_NAMES, stageList } from '../builtins/variables.js';
import type { IrGenContext } from './context.js';
import { genInitValue } from './expressions.js';
import { coerce } from './value-conversion.js';

const IMAGE_FORMATS = new Set([
  'rgba32f', 'rgba16f', 'rg32f', 'rg16f', 'r11f_g11f_b10f', 'r32f', 'r16f', 'rgba16', 'rgb10_a2', 'rgba8', 'rg16', 'rg8', 'r16', 'r8',
  'rgba16_snorm', 'rgba8_snorm', 'rg16_snorm', 'rg8_snorm', 'r16_snorm', 'r8_snorm', 'rgba32i', 'rgba16i', 'rgba8i', 'rg32i', 'rg16i',
  'rg8i', 'r32i', 'r16i', 'r8i', 'rgba32ui', 'rgba16ui', 'rgb10_a2ui', 'rgba8ui', 'rg32ui', 'rg16ui', 'rg8ui', 'r32ui', 'r16ui', 'r8ui',
  'r64ui', 'r64i',
]);

/** Storage qualifier -> (storage class, stages it is allowed in). */
const RT_STORAGE: Record<string, { storage: StorageClass; stages: readonly Stage[] }> = {
  // glslang also accepts rayPayloadEXT in any-hit shaders (where it cannot be traced with); we follow it.
  rayPayloadEXT: { storage: 'rayPayload', stages: ['raygen', 'closestHit', 'miss', 'anyHit'] },
  rayPayloadInEXT: { storage: 'incomingRayPayload', stages: ['closestHit', 'anyHit', 'miss'] },
  hitAttributeEXT: { storage: 'hitAttribute', stages: ['intersection', 'anyHit', 'closestHit'] },
  callableDataEXT: { storage: 'callableData', stages: ['raygen', 'closestHit', 'miss', 'callable'] },
  callableDataInEXT: { storage: 'incomingCallableData', stages: ['callable'] },
};

function layoutValue(cx: IrGenContext, q: Qualifiers, name: string): number | undefined {
  const l = q.layout.find((x) => x.name === name);
  if (!l) return undefined;
  if (!l.value) {
    cx.error(l.loc, `layout qualifier '${name}' needs a value`);
    return undefined;
  }
  return constInt(cx, l.value, `layout qualifier '${name}'`);
}

const has = (q: Qualifiers, name: string): boolean => q.layout.some((l) => l.name === name);

/** glslang rejects a memory qualifier written twice ("replicated qualifiers"). */
function checkRepeatedQualifiers(cx: IrGenContext, q: Qualifiers): void {
  const seen = new Set<string>();
  for (const m of q.memory) {
    if (seen.has(m)) cx.error(q.loc, `memory qualifier '${m}' is repeated`);
    seen.add(m);
  }
}

function layoutRule(q: Qualifiers): LayoutRule | undefined {
  if (has(q, 'scalar')) return 'scalar';
  if (has(q, 'std430')) return 'std430';
  if (has(q, 'std140')) return 'std140';
  return undefined;
}

function memoryDecorations(q: Qualifiers): Partial<Global> {
  const d: Partial<Global> = {};
  if (q.memory.includes('readonly')) d.nonWritable = true;
  if (q.memory.includes('writeonly')) d.nonReadable = true;
  if (q.memory.includes('coherent')) d.coherent = true;
  if (q.memory.includes('volatile')) d.volatile = true;
  if (q.memory.includes('restrict')) d.restrict = true;
  return d;
}

function checkStage(cx: IrGenContext, qualifier: string, stages: readonly Stage[], loc: Loc): void {
  if (RT_STORAGE[qualifier] || qualifier === 'shaderRecordEXT') cx.requireFeature('rayTracing', loc, qualifier);
  if (!stages.includes(cx.stage)) {
    cx.error(loc, `'${qualifier}' variables are not allowed in ${STAGE_NAMES[cx.stage]} shaders (only in ${stageList(stages)})`);
  }
}

/** Applies an image `layout(format)` to an image type (or array of images). */
function withImageFormat(cx: IrGenContext, t: TypeId, layout: LayoutQualifier[]): TypeId {
  const fmt = layout.find((l) => IMAGE_FORMATS.has(l.name))?.name;
  if (!fmt) return t;
  const tt = cx.types.get(t);
  if (tt.kind === 'image') return intern(cx.types.tt, { ...tt, format: fmt });
  if (tt.kind === 'array') return cx.types.arrayOf(withImageFormat(cx, tt.elem, layout), tt.length);
  if (tt.kind === 'runtimeArray') return cx.types.arrayOf(withImageFormat(cx, tt.elem, layout), undefined);
  return t;
}

/** Opaque, or an array or struct with an opaque type inside (at any depth). */
function containsOpaque(cx: IrGenContext, t: TypeId): boolean {
  const tt = cx.types.get(t);
  if (tt.kind === 'array' || tt.kind === 'runtimeArray') return containsOpaque(cx, tt.elem);
  if (tt.kind === 'struct') return tt.members.some((m) => containsOpaque(cx, m.type));
  return cx.types.isOpaque(t);
}

function isOpaqueOrArrayOfOpaque(cx: IrGenContext, t: TypeId): boolean {
  const tt = cx.types.get(t);
  if (tt.kind === 'array' || tt.kind === 'runtimeArray') return isOpaqueOrArrayOfOpaque(cx, tt.elem);
  return cx.types.isOpaque(t);
}

/** Sizes an unsized array declaration from its initializer (`float a[] = float[](1, 2)`). */
function sizedFromInit(cx: IrGenContext, t: TypeId, init: Expr | undefined): TypeId {
  const tt = cx.types.get(t);
  if (tt.kind !== 'runtimeArray' || !init) return t;
  if (init.kind === 'initList') return cx.types.arrayOf(tt.elem, init.items.length);
  if (init.kind === 'call' && init.calleeType) return cx.types.arrayOf(tt.elem, init.args.length);
  return t;
}

export function genGlobalVarDecl(cx: IrGenContext, d: VarDecl): void {
  const q = d.qualifiers;
  checkRepeatedQualifiers(cx, q);
  for (const decl of d.declarators) {
    let t = resolveType(cx, d.type, decl.arrayDims);
    if (t === undefined) {
      cx.poisoned.add(decl.name);
      continue;
    }
    t = withImageFormat(cx, sizedFromInit(cx, t, decl.init), q.layout);
    const name = decl.name;
    const loc = decl.loc;
    const declare = (sym: Parameters<IrGenContext['scope']['declare']>[1]): void => {
      if (!cx.scope.declare(name, sym)) cx.error(loc, `redefinition of '${name}'`);
    };
    if (cx.types.isVoid(t)) {
      cx.error(loc, `variable '${name}' cannot have type void`);
      continue;
    }
    const storage = q.storage;
    if (storage !== 'const' && has(q, 'constant_id')) {
      cx.error(q.loc, `layout(constant_id) can only be applied to a 'const'-qualified scalar ('${name}' is not const)`);
      continue;
    }
    if (storage === 'const') {
      const specId = layoutValue(cx, q, 'constant_id');
      if (!decl.init) {
        cx.error(loc, `const variable '${name}' needs an initializer`);
        continue;
      }
      const cv = evalConst(constEnvOf(cx), decl.init);
      if (specId !== undefined) {
        if (!cv || cv.scalar === undefined) {
          cx.error(decl.init.loc, `specialization constant '${name}' needs a constant scalar initializer`);
          continue;
        }
        const value = coerceConstScalar(cx, cv, t, decl.init.loc);
        if (value === undefined) continue;
        const id = cx.specConstant(t, value, specId, name);
        declare({ kind: 'constant', id, type: t, value: { type: t, scalar: value }, spec: true, loc });
        continue;
      }
      if (cv && dependsOnSpecConstant(cx, decl.init)) {
        // Folding would freeze the specialization constants' defaults: compute it at the start of main.
        const g = cx.addGlobal({ name, type: cx.types.pointer('private', t), storage: 'private', loc });
        cx.globalInits.push({ global: g, init: decl.init, type: t });
        declare({ kind: 'variable', ptr: g.id, type: t, storage: 'private', readonly: 'const', value: cv, specDerived: true, loc });
        continue;
      }
      if (cv) {
        const v = coerce(cx, cx.constVal(cv), t, decl.init.loc, ` in initializer of '${name}'`);
        if (cx.types.isArray(t)) {
          // Const arrays are indexed at run time: a read-only private global initialized with the constant.
          const g = cx.addGlobal({ name, type: cx.types.pointer('private', t), storage: 'private', init: v.id, loc });
          declare({ kind: 'variable', ptr: g.id, type: t, storage: 'private', readonly: 'const', ...(v.constValue ? { value: v.constValue } : {}), loc });
          continue;
        }
        declare({ kind: 'constant', id: v.id, type: t, ...(v.constValue ? { value: v.constValue } : {}), loc });
        continue;
      }
      // A const whose initializer is not foldable here (e.g. calls a built-in): a read-only private initialized in main.
      const g = cx.addGlobal({ name, type: cx.types.pointer('private', t), storage: 'private', loc });
      cx.globalInits.push({ global: g, init: decl.init, type: t });
      declare({ kind: 'variable', ptr: g.id, type: t, storage: 'private', readonly: 'const', loc });
      continue;
    }
    if (storage === 'uniform') {
      if (!isOpaqueOrArrayOfOpaque(cx, t)) {
        cx.error(loc, `uniform '${name}' of non-opaque type '${cx.types.name(t)}' must be declared inside a uniform block in Vulkan GLSL`);
        continue;
      }
      const g = cx.addGlobal({
        name, type: cx.types.pointer('uniformConstant', t), storage: 'uniformConstant',
        set: layoutValue(cx, q, 'set') ?? 0, binding: layoutValue(cx, q, 'binding') ?? 0, ...memoryDecorations(q), loc,
      });
      const ro: ReadonlyReason = 'uniform';
      declare({ kind: 'variable', ptr: g.id, type: t, storage: 'uniformConstant', readonly: ro, loc });
      continue;
    }
    if (storage && RT_STORAGE[storage]) {
      const rs = RT_STORAGE[storage];
      checkStage(cx, storage, rs.stages, q.loc);
      if (storage === 'hitAttributeEXT' && q.layout.length > 0) {
        cx.error(q.loc, `layout qualifiers cannot be applied to the hitAttributeEXT variable '${name}'`);
      }
      const location = layoutValue(cx, q, 'location');
      const g = cx.addGlobal({ name, type: cx.types.pointer(rs.storage, t), storage: rs.storage, ...(location !== undefined ? { location } : {}), loc });
      // Without a location the variable is legal but no traceRayEXT/executeCallableEXT can name it (glslang).
      if ((storage === 'rayPayloadEXT' || storage === 'callableDataEXT') && location !== undefined
        && cx.m.globals.some((x) => x !== g && x.storage === rs.storage && x.location === location)) {
        cx.error(loc, `location ${location} is already used by another '${storage}' variable`);
      }
      const ro: ReadonlyReason | undefined = storage === 'hitAttributeEXT' && cx.stage !== 'intersection' ? 'input' : undefined;
      declare({ kind: 'variable', ptr: g.id, type: t, storage: rs.storage, ...(ro ? { readonly: ro } : {}), loc });
      continue;
    }
    if (storage === 'shared') {
      checkStage(cx, 'shared', ['compute'], q.loc);
      const g = cx.addGlobal({ name, type: cx.types.pointer('workgroup', t), storage: 'workgroup', loc });
      declare({ kind: 'variable', ptr: g.id, type: t, storage: 'workgroup', loc });
      continue;
    }
    if (storage === 'in' || storage === 'out' || storage === 'inout' || storage === 'buffer' || storage === 'shaderRecordEXT') {
      cx.error(q.loc, `'${storage}' global variables are not allowed in ${STAGE_NAMES[cx.stage]} shaders`);
      continue;
    }
    if (cx.types.isOpaque(t)) {
      cx.error(loc, `opaque type '${cx.types.name(t)}' variables must be declared 'uniform'`);
      continue;
    }
    const g = cx.addGlobal({ name, type: cx.types.pointer('private', t), storage: 'private', loc });
    if (decl.init) {
      const cv = evalConst(constEnvOf(cx), decl.init);
      if (cv) g.init = coerce(cx, cx.constVal(cv), t, decl.init.loc, ` in initializer of '${name}'`).id;
      else cx.globalInits.push({ global: g, init: decl.init, type: t });
    }
    declare({ kind: 'variable', ptr: g.id, type: t, storage: 'private', loc });
  }
}

function coerceConstScalar(cx: IrGenContext, cv: { type: TypeId; scalar?: number | bigint | boolean }, t: TypeId, loc: Loc): number | bigint | boolean | undefined {
  try {
    const v = coerce(cx, cx.constVal(cv), t, loc);
    return v.constValue?.scalar;
  } catch {
    return undefined;
  }
}

export function genBlockDecl(cx: IrGenContext, d: BlockDecl): void {
  const q = d.qualifiers;
  const types = cx.types;
  checkRepeatedQualifiers(cx, q);
  const isRef = has(q, 'buffer_reference');
  if (isRef) cx.requireFeature('bufferReference', q.loc, 'buffer_reference');
  if (has(q, 'scalar')) cx.requireFeature('scalarLayout', q.loc, 'scalar');
  const isPush = has(q, 'push_constant');
  const isRecord = has(q, 'shaderRecordEXT') || q.storage === 'shaderRecordEXT';
  if (isRecord) cx.requireFeature('rayTracing', q.loc, 'shaderRecordEXT');
  const rtStorage = q.storage ? RT_STORAGE[q.storage] : undefined;
  let storage: StorageClass;
  let rule: LayoutRule | undefined = layoutRule(q);
  if (rtStorage) {
    checkStage(cx, q.storage!, rtStorage.stages, q.loc);
    storage = rtStorage.storage;
  } else if (isRef) {
    storage = 'physicalStorageBuffer';
    rule ??= 'std430';
  } else if (isPush) {
    storage = 'pushConstant';
    rule ??= 'std430';
  } else if (isRecord) {
    storage = 'shaderRecordBuffer';
    rule ??= q.storage === 'uniform' ? 'std140' : 'std430';
  } else if (q.storage === 'uniform') {
    storage = 'uniform';
    rule ??= 'std140';
  } else if (q.storage === 'buffer') {
    storage = 'storageBuffer';
    rule ??= 'std430';
  } else {
    cx.error(d.loc, `interface block '${d.blockName}' needs a storage qualifier (uniform, buffer, ...)`);
    return;
  }
  // buffer_reference: the block name is a pointer type; create it first so members can refer to it.
  let forwardStruct: TypeId | undefined;
  if (isRef) {
    const existing = cx.scope.lookupType(d.blockName);
    const pt = existing !== undefined ? types.get(existing) : undefined;
    if (pt?.kind === 'pointer' && pt.storage === 'physicalStorageBuffer') {
      forwardStruct = pt.pointee;
    } else {
      forwardStruct = declareStruct(types.tt, d.blockName, [], { layout: rule, block: true });
      const align = layoutValue(cx, q, 'buffer_reference_align') ?? 16;
      const ptr = intern(types.tt, { kind: 'pointer', storage: 'physicalStorageBuffer', pointee: forwardStruct, align });
      cx.scope.declareType(d.blockName, ptr);
    }
    if (d.members.length === 0) return; // forward declaration
  }
  const blockRowMajor = has(q, 'row_major');
  const specs: BlockMemberSpec[] = [];
  const memberReadonly: boolean[] = [];
  for (const m of d.members) {
    if (m.qualifiers.storage) cx.error(m.qualifiers.loc, `member '${m.name}': a storage qualifier ('${m.qualifiers.storage}') cannot contradict the block's`);
    checkRepeatedQualifiers(cx, m.qualifiers);
    let t = resolveType(cx, m.type, m.arrayDims);
    if (t === undefined) continue;
    if (containsOpaque(cx, t)) {
      // As glslang: a block holds plain data only (its layout has no place for an image or sampler).
      cx.error(m.loc, `'${m.name}': member of block cannot be or contain a sampler, image or acceleration structure type`);
      continue;
    }
    t = withImageFormat(cx, t, m.qualifiers.layout);
    const spec: BlockMemberSpec = { name: m.name, type: t };
    const off = layoutValue(cx, m.qualifiers, 'offset');
    if (off !== undefined) spec.offset = off;
    const al = layoutValue(cx, m.qualifiers, 'align');
    if (al !== undefined) spec.align = al;
    if (has(m.qualifiers, 'row_major') || (blockRowMajor && !has(m.qualifiers, 'column_major'))) spec.rowMajor = true;
    // Block-level memory qualifiers apply to every member (glslang decorates each member).
    const ro = m.qualifiers.memory.includes('readonly') || q.memory.includes('readonly');
    if (ro) spec.nonWritable = true;
    if (m.qualifiers.memory.includes('writeonly') || q.memory.includes('writeonly')) spec.nonReadable = true;
    specs.push(spec);
    memberReadonly.push(ro);
  }
  let blockType: TypeId;
  if (rtStorage) {
    blockType = declareStruct(types.tt, d.blockName, specs.map((s) => ({ name: s.name, type: s.type })));
  } else {
    blockType = layoutBlock(types, cx.layouts, d.blockName, specs, rule!);
  }
  if (isRef) {
    const target = types.get(forwardStruct!);
    const built = types.get(blockType);
    if (target.kind === 'struct' && built.kind === 'struct') {
      target.members = built.members;
      target.layout = built.layout;
      target.block = true;
    }
    if (d.instanceName) cx.error(d.loc, `buffer_reference block '${d.blockName}' cannot have an instance name`);
    return;
  }
  let varType = blockType;
  for (let i = d.instanceArrayDims.length - 1; i >= 0; i--) {
    const dim = d.instanceArrayDims[i];
    const n = dim ? constInt(cx, dim, 'block array size') : undefined;
    varType = types.arrayOf(varType, n);
  }
  const location = layoutValue(cx, q, 'location');
  const g = cx.addGlobal({
    name: d.instanceName ?? d.blockName,
    type: types.pointer(storage, varType),
    storage,
    ...(storage === 'uniform' || storage === 'storageBuffer' ? { set: layoutValue(cx, q, 'set') ?? 0, binding: layoutValue(cx, q, 'binding') ?? 0 } : {}),
    ...(location !== undefined ? { location } : {}),
    ...memoryDecorations(q),
    loc: d.loc,
  });
  const ro: ReadonlyReason | undefined =
    storage === 'uniform' || storage === 'pushConstant' ? 'uniform' : q.memory.includes('readonly') ? 'readonly'
      : storage === 'hitAttribute' && cx.stage !== 'intersection' ? 'input' : undefined;
  if (d.instanceName) {
    if (!cx.scope.declare(d.instanceName, { kind: 'variable', ptr: g.id, type: varType, storage, ...(ro ? { readonly: ro } : {}), loc: d.loc })) {
      cx.error(d.loc, `redefinition of '${d.instanceName}'`);
    }
    return;
  }
  const bt = types.get(blockType);
  if (bt.kind !== 'struct') return;
  bt.members.forEach((m, index) => {
    const r: ReadonlyReason | undefined = ro ?? (memberReadonly[index] ? 'readonly' : undefined);
    const ok = cx.scope.declare(m.name, { kind: 'blockMember', ptr: g.id, index, type: m.type, blockType, storage, ...(r ? { readonly: r } : {}), loc: d.loc });
    if (!ok) cx.error(d.loc, `redefinition of '${m.name}' (member of block '${d.blockName}')`);
  });
}

export function genLocalDecl(cx: IrGenContext, d: VarDecl): void {
  const q = d.qualifiers;
  const types = cx.types;
  if (q.storage && q.storage !== 'const') {
    cx.error(q.loc, `'${q.storage}' is not allowed on a local variable`);
    return;
  }
  for (const decl of d.declarators) {
    let t = resolveType(cx, d.type, decl.arrayDims);
    if (t === undefined) {
      cx.poisoned.add(decl.name);
      continue;
    }
    t = sizedFromInit(cx, t, decl.init);
    const name = decl.name;
    const loc = decl.loc;
    if (types.isVoid(t)) {
      cx.error(loc, `variable '${name}' cannot have type void`);
      continue;
    }
    if (types.get(t).kind === 'runtimeArray') {
      cx.error(loc, `local array '${name}' needs a size`);
      continue;
    }
    if (isOpaqueOrArrayOfOpaque(cx, t)) {
      cx.error(loc, `local variable '${name}' cannot have opaque type '${types.name(t)}' (only uniforms and function parameters can)`);
      continue;
    }
    if (q.storage === 'const') {
      if (!decl.init) {
        cx.error(loc, `const variable '${name}' needs an initializer`);
        continue;
      }
      const cv = evalConst(constEnvOf(cx), decl.init);
      if (cv && !dependsOnSpecConstant(cx, decl.init)) {
        const v = coerce(cx, cx.constVal(cv), t, decl.init.loc, ` in initializer of '${name}'`);
        if (!cx.scope.declare(name, { kind: 'constant', id: v.id, type: t, ...(v.constValue ? { value: v.constValue } : {}), loc })) {
          cx.error(loc, `redefinition of '${name}'`);
        }
        continue;
      }
    }
    const ptr = cx.fnb.variable(types.pointer('function', t), loc, undefined, name);
    const specValue = q.storage === 'const' && decl.init ? evalConst(constEnvOf(cx), decl.init) : undefined;
    const sym = {
      kind: 'variable' as const, ptr, type: t, storage: 'function' as const, loc,
      ...(q.storage === 'const' ? { readonly: 'const' as const } : {}),
      ...(specValue ? { value: specValue, specDerived: true } : {}),
    };
    try {
      if (decl.init) {
        const v = coerce(cx, genInitValue(cx, decl.init, t), t, decl.init.loc, ` in initializer of '${name}'`);
        cx.emit({ op: 'store', ptr, value: v.id }, types.void, loc);
      }
    } finally {
      // Declared even when the initializer failed, so later uses do not cascade into more errors.
      if (!cx.scope.declare(name, sym)) cx.error(loc, `redefinition of '${name}'`);
    }
  }
}

/** Declares (or matches the prototype of) a function; returns its symbol. */
export function declareFunction(cx: IrGenContext, d: FunctionDecl): FunctionSymbol | undefined {
  const types = cx.types;
  const ret = resolveType(cx, d.returnType);
  if (ret === undefined) return undefined;
  const params: FunctionSymbol['params'] = [];
  for (const p of d.params) {
    const t = resolveType(cx, p.type, p.arrayDims);
    if (t === undefined) return undefined;
    if (types.isVoid(t)) {
      if (d.params.length === 1 && !p.name) break; // f(void)
      cx.error(p.loc, `parameter '${p.name ?? ''}' cannot have type void`);
      return undefined;
    }
    const s = p.qualifiers.storage;
    const qualifier: ParamQualifier = s === 'out' ? 'out' : s === 'inout' ? 'inout' : 'in';
    params.push({ type: t, qualifier, ...(p.name ? { name: p.name } : {}), readonly: s === 'const' });
  }
  const list = cx.scope.functions.get(d.name) ?? [];
  const same = list.find((f) => f.params.length === params.length && f.params.every((p, i) => p.type === params[i]!.type));
  if (same) {
    if (same.returnType !== ret) cx.error(d.loc, `'${d.name}' redeclared with a different return type`);
    if (same.params.some((p, i) => p.qualifier !== params[i]!.qualifier)) cx.error(d.loc, `'${d.name}' redeclared with different parameter qualifiers`);
    if (d.body) {
      if (same.definition) cx.error(d.loc, `redefinition of function '${d.name}'`);
      else {
        same.definition = d;
        same.params = params;
      }
    }
    return same;
  }
  const f: FunctionSymbol = { name: d.name, id: freshId<FunctionId>(cx.m), returnType: ret, params, loc: d.loc };
  if (d.body) f.definition = d;
  list.push(f);
  cx.scope.functions.set(d.name, list);
  return f;
}

/** Whether a constant expression reads a specialization constant (directly or through a const derived from one). */
export function dependsOnSpecConstant(cx: IrGenContext, e: Expr): boolean {
  // An explicit work stack: a 20,000-term constant sum is 20,000 levels deep.
  const work: unknown[] = [e];
  while (work.length > 0) {
    const node = work.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const x of node) work.push(x);
      continue;
    }
    const n = node as { kind?: string; name?: string };
    if (n.kind === 'ident' && n.name !== undefined) {
      const sym = cx.scope.lookup(n.name);
      if ((sym?.kind === 'constant' && sym.spec) || (sym?.kind === 'variable' && sym.specDerived)) return true;
      continue;
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'loc') work.push(v);
  }
  return false;
}
