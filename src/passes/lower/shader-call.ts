/**
 * Calling a ray tracing shader from a lowered call site: copy-in / copy-out of the caller's payload
 * through the callee's incoming payload global (saving and restoring the callee's previous value
 * for recursion), and the shape check that decides which shaders a call site may reach.
 */
import type { Builder } from '../../ir/builder.js';
import type { FunctionId, ValueId } from '../../ir/inst.js';
import type { Global, Module } from '../../ir/module.js';
import { typeOf, type TypeId } from '../../ir/types.js';

export class PipelineLinkError extends Error {}

/** A shader's entry function in the linked module. */
export interface ShaderEntry {
  fn: FunctionId;
  /** The shader's incoming payload / callable data global, if it declares one. */
  incoming?: Global;
}

/**
 * Calls a shader's entry with copy-in / copy-out of the caller's payload (`payload`, a pointer)
 * through the callee's incoming global, saving and restoring the callee's previous incoming value.
 * `alsoFor` is a second shader reached from the callee (the any-hit an intersection shader runs),
 * whose incoming payload must hold the caller's payload as well.
 */
export function callShader(b: Builder, callee: ShaderEntry, alsoFor: ShaderEntry | undefined, payload: ValueId, resultType: TypeId): ValueId {
  const targets = [callee, alsoFor].filter((s): s is ShaderEntry => !!s?.incoming).map((s) => s.incoming!);
  const payloadType = pointeeOf(b.module, valueType(b, payload));
  const saved = targets.map((g) => {
    const t = pointeeOf(b.module, g.type);
    const old = b.emit('load', { ptr: g.id, payloadCopy: true }, t);
    const incoming = b.emit('load', { ptr: payload, payloadCopy: true }, payloadType);
    b.emitVoid('store', { ptr: g.id, value: convertValue(b, incoming, payloadType, t), payloadCopy: true });
    return { g, t, old };
  });
  const result = b.emit('call', { callee: callee.fn, args: [] }, resultType);
  for (const { g, t } of saved.slice(0, 1)) {
    const out = b.emit('load', { ptr: g.id, payloadCopy: true }, t);
    b.emitVoid('store', { ptr: payload, value: convertValue(b, out, t, payloadType), payloadCopy: true });
  }
  for (const { g, old } of saved) b.emitVoid('store', { ptr: g.id, value: old, payloadCopy: true });
  return result;
}

/**
 * Whether a shader can be called with this payload: its incoming payload has the same shape. A
 * call site dispatches only to the shaders it could legally reach; the SBT indices an application
 * computes select among those (selecting another is undefined behaviour in Vulkan, and here the
 * switch's default: no shader runs).
 */
export function accepts(b: Builder, shader: ShaderEntry | undefined, payload: ValueId): boolean {
  if (!shader?.incoming) return true;
  return sameShape(b.module, pointeeOf(b.module, valueType(b, payload)), pointeeOf(b.module, shader.incoming.type));
}

function sameShape(m: Module, a: TypeId, b: TypeId): boolean {
  if (a === b) return true;
  const ta = typeOf(m.types, a);
  const tb = typeOf(m.types, b);
  if (ta.kind === 'struct' && tb.kind === 'struct') {
    return ta.members.length === tb.members.length && ta.members.every((x, i) => sameShape(m, x.type, tb.members[i]!.type));
  }
  if (ta.kind === 'array' && tb.kind === 'array') return ta.length === tb.length && sameShape(m, ta.elem, tb.elem);
  return false;
}

/** Converts a value between structurally identical types (nominal structs declared in two shaders). */
function convertValue(b: Builder, value: ValueId, from: TypeId, to: TypeId): ValueId {
  if (from === to) return value;
  const tt = b.module.types;
  const f = typeOf(tt, from);
  const t = typeOf(tt, to);
  if (f.kind === 'struct' && t.kind === 'struct' && f.members.length === t.members.length) {
    const parts = f.members.map((mem, k) =>
      convertValue(b, b.emit('extract', { value, indices: [k] }, mem.type), mem.type, t.members[k]!.type));
    return b.emit('construct', { parts }, to);
  }
  if (f.kind === 'array' && t.kind === 'array' && f.length === t.length) {
    const parts: ValueId[] = [];
    for (let k = 0; k < f.length; k++) {
      parts.push(convertValue(b, b.emit('extract', { value, indices: [k] }, f.elem), f.elem, t.elem));
    }
    return b.emit('construct', { parts }, to);
  }
  throw new PipelineLinkError(
    `payload type mismatch: the caller passes ${describe(tt, from)} but the shader declares ${describe(tt, to)}`,
  );
}

function describe(tt: Module['types'], id: TypeId): string {
  const t = typeOf(tt, id);
  return t.kind === 'struct' ? `struct ${t.name}` : t.kind;
}

export function pointeeOf(m: Module, ptrType: TypeId): TypeId {
  const t = typeOf(m.types, ptrType);
  if (t.kind !== 'pointer') throw new PipelineLinkError(`expected a pointer, found ${t.kind}`);
  return t.pointee;
}

/** Type of a value visible in the builder's function: global, constant, parameter or instruction. */
export function valueType(b: Builder, id: ValueId): TypeId {
  const m = b.module;
  const g = m.globals.find((x) => x.id === id);
  if (g) return g.type;
  const c = m.constants.find((x) => x.id === id);
  if (c) return c.type;
  const p = b.fn.params.find((x) => x.id === id);
  if (p) return p.type;
  for (const block of b.fn.blocks) for (const inst of block.insts) if (inst.id === id) return inst.type;
  throw new PipelineLinkError(`value %${id} not found`);
}

