/**
 * The instrumentation storage buffer as a module global: `layout(set = 7, binding = 0) buffer
 * { uint data[]; }` (std430, one runtime array of u32 words), added once per module at the
 * reserved set/binding declared in buffer-layout.ts, plus the word pointer the primitives index.
 *
 * Invariants: at most one global per module at the reserved set/binding, and it is ours; a shader
 * that already uses that set/binding is a user error (`ReservedBindingError`), not silently shared.
 */
import type { Builder } from '../ir/builder.js';
import { addGlobal } from '../ir/builder.js';
import type { ValueId } from '../ir/inst.js';
import { NO_LOC } from '../ir/inst.js';
import type { Module } from '../ir/module.js';
import { T, declareStruct, intern, typeOf } from '../ir/types.js';
import { INSTRUMENTATION_BINDING, INSTRUMENTATION_BUFFER_NAME, INSTRUMENTATION_SET } from './buffer-layout.js';

export class ReservedBindingError extends Error {
  constructor(readonly globalName: string, readonly where: string) {
    super(
      `${where}: '${globalName}' uses set ${INSTRUMENTATION_SET} binding ${INSTRUMENTATION_BINDING}, ` +
        `which is reserved for the V-Vision instrumentation buffer; move it to another set or binding`,
    );
    this.name = 'ReservedBindingError';
  }
}

/** Returns the instrumentation buffer global of `m`, adding it on first use. */
export function ensureInstrumentationBuffer(m: Module): ValueId {
  const existing = m.globals.find((g) => g.set === INSTRUMENTATION_SET && g.binding === INSTRUMENTATION_BINDING);
  if (existing) {
    if (existing.name === INSTRUMENTATION_BUFFER_NAME && existing.storage === 'storageBuffer') return existing.id;
    const src = m.sources[existing.loc.file]?.path ?? '<unknown>';
    throw new ReservedBindingError(existing.name, `${src}:${existing.loc.line}:${existing.loc.column}`);
  }
  const u32 = T.u32(m.types);
  const words = intern(m.types, { kind: 'runtimeArray', elem: u32, stride: 4 });
  const block = declareStruct(m.types, `${INSTRUMENTATION_BUFFER_NAME}_block`, [{ name: 'data', type: words, offset: 0 }], {
    layout: 'std430',
    block: true,
  });
  return addGlobal(m, {
    name: INSTRUMENTATION_BUFFER_NAME,
    type: T.ptr(m.types, 'storageBuffer', block),
    storage: 'storageBuffer',
    set: INSTRUMENTATION_SET,
    binding: INSTRUMENTATION_BINDING,
    loc: { ...NO_LOC },
  });
}

/** Emits `&buf.data[index]` (a storage-buffer pointer to one u32 word) at the cursor. */
export function emitWordPointer(b: Builder, buffer: ValueId, index: ValueId): ValueId {
  const u32 = b.t.u32;
  return b.emit('accessChain', { base: buffer, indices: [b.constI32(0), index] }, b.t.ptr('storageBuffer', u32));
}

/** Emits `buf.data.length()` in words at the cursor. */
export function emitBufferLength(b: Builder, buffer: ValueId): ValueId {
  return b.emit('arrayLength', { ptr: buffer, member: 0 }, b.t.u32);
}

/** True when `id` is the instrumentation buffer global of `m` (used by tests and the metadata). */
export function isInstrumentationBuffer(m: Module, id: ValueId): boolean {
  const g = m.globals.find((x) => x.id === id);
  return !!g && g.name === INSTRUMENTATION_BUFFER_NAME && typeOf(m.types, g.type).kind === 'pointer';
}
