/**
 * Turns a value probe's value into the u32 words a ThreadUpdate writes: a named GLSL variable is
 * loaded at the probe point (a function-storage local or parameter of the function, else a module
 * global of that name), then every component becomes one word: u32 as is, i32 and f32 by
 * bitcast (the reader reinterprets them by the site's `payloadTypes`), bool as 0 / 1.
 *
 * Invariant: the emitted loads and conversions are ordinary IR placed at the cursor, so they see
 * the variable's value at that point of that thread's execution.
 */
import type { Builder } from '../../ir/builder.js';
import type { Inst, ValueId } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';
import { typeName, typeOf, type TypeId } from '../../ir/types.js';
import type { PayloadType } from '../../primitives/buffer-layout.js';
import type { ProbeValue, ValueLayout } from './probe-context.js';

/** A probe's value cannot be recorded (unknown name, unsupported type); the message says which. */
export class ProbeValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProbeValueError';
  }
}

/** The pointer of the variable `name` visible in `fn`: its own locals and parameters first, then globals. */
export function findVariable(m: Module, fn: Function, name: string): { ptr: ValueId; type: TypeId } | undefined {
  for (const b of fn.blocks) {
    for (const i of b.insts) if (i.op === 'variable' && i.name === name) return { ptr: i.id, type: i.type };
  }
  const g = m.globals.find((x) => x.name === name);
  return g ? { ptr: g.id, type: g.type } : undefined;
}

function scalarPayloadType(m: Module, t: TypeId): PayloadType | undefined {
  const ty = typeOf(m.types, t);
  if (ty.kind === 'bool') return 'bool';
  if (ty.kind === 'int' && ty.width === 32) return ty.signed ? 'i32' : 'u32';
  if (ty.kind === 'float' && ty.width === 32) return 'f32';
  return undefined;
}

/** Field names and types of a value of type `t` named `name`; throws when it cannot be recorded. */
export function valueLayout(m: Module, t: TypeId, name: string): ValueLayout {
  const ty = typeOf(m.types, t);
  const scalar = scalarPayloadType(m, t);
  if (scalar) return { fields: [name], types: [scalar] };
  if (ty.kind === 'vector') {
    const elem = scalarPayloadType(m, ty.elem);
    if (elem) return { fields: ['x', 'y', 'z', 'w'].slice(0, ty.count).map((c) => `${name}.${c}`), types: new Array<PayloadType>(ty.count).fill(elem) };
  }
  throw new ProbeValueError(
    `'${name}' has type ${typeName(m.types, t)}; a probe records scalars and vectors of bool, int, uint and float (32-bit)`,
  );
}

/** Emits the value's words at the cursor; returns them with their layout. */
export function emitValueWords(b: Builder, fn: Function, value: ProbeValue, instOf: (id: ValueId) => Inst | undefined): { words: ValueId[]; layout: ValueLayout } {
  const m = b.module;
  let v: ValueId;
  let t: TypeId;
  let name: string;
  if ('variable' in value) {
    name = value.variable;
    const found = findVariable(m, fn, name);
    if (!found) throw new ProbeValueError(`no variable '${name}' in function ${fn.name} or among the module's globals`);
    const ptr = typeOf(m.types, found.type);
    if (ptr.kind !== 'pointer') throw new ProbeValueError(`'${name}' is not a variable`);
    t = ptr.pointee;
    const layout = valueLayout(m, t, name);
    v = b.emit('load', { ptr: found.ptr }, t);
    return { words: toWords(b, v, t, layout), layout };
  }
  name = value.name;
  const inst = instOf(value.inst);
  if (!inst) throw new ProbeValueError(`value %${value.inst} is not an instruction of ${fn.name}`);
  t = inst.type;
  v = value.inst;
  const layout = valueLayout(m, t, name);
  return { words: toWords(b, v, t, layout), layout };
}

function toWords(b: Builder, v: ValueId, t: TypeId, layout: ValueLayout): ValueId[] {
  const u32 = b.t.u32;
  const ty = typeOf(b.module.types, t);
  return layout.types.map((pt, k) => {
    const c = ty.kind === 'vector' ? b.emit('extract', { value: v, indices: [k] }, ty.elem) : v;
    if (pt === 'u32') return c;
    if (pt === 'bool') return b.emit('select', { cond: c, a: b.constU32(1), b: b.constU32(0) }, u32);
    return b.emit('bitcast', { value: c }, u32);
  });
}
