/**
 * ThreadUpdate (paper 003, Fig. 3) emitted as IR at the builder's cursor: every thread that
 * executes it appends one entry `thread_work_id, inst_id, args...` to the instrumentation buffer.
 *
 *   i    = atomicAdd(buf[WORDS_WRITTEN_WORD], entryWords)     // counts even when it will not fit
 *   if (FIRST_ENTRY_WORD + i + entryWords <= buf.length()) {  // else: skip, as Fig. 3's `return`
 *     buf[FIRST_ENTRY_WORD + i + 0] = thread_work_id
 *     buf[FIRST_ENTRY_WORD + i + 1] = inst_id
 *     buf[FIRST_ENTRY_WORD + i + 2 + k] = args[k]
 *   }
 *
 * Invariants: arguments are u32 values; the entry layout is exactly buffer-layout.ts's; after the
 * call the cursor is at the start of the block holding the instructions that followed it.
 */
import type { Builder } from '../ir/builder.js';
import type { Loc, ValueId } from '../ir/inst.js';
import { ENTRY_HEADER_WORDS, FIRST_ENTRY_WORD, WORDS_WRITTEN_WORD } from './buffer-layout.js';
import { closeIfThen, openIfThen } from './if-then-region.js';
import { emitBufferLength, emitWordPointer } from './instrumentation-buffer-global.js';

/** What every primitive needs: the buffer global and this thread's work id, both valid at the cursor. */
export interface PrimitiveTarget {
  buffer: ValueId;
  threadWorkId: ValueId;
  /** Location given to the emitted instructions (the instrumented site's). */
  loc: Loc;
}

export function emitThreadUpdate(b: Builder, target: PrimitiveTarget, instId: number, args: readonly ValueId[]): void {
  const saved = b.loc;
  b.loc = target.loc;
  const u32 = b.t.u32;
  const entryWords = ENTRY_HEADER_WORDS + args.length;
  const counter = emitWordPointer(b, target.buffer, b.constU32(WORDS_WRITTEN_WORD));
  const i = b.emit('atomic', { kind: 'add', ptr: counter, value: b.constU32(entryWords) }, u32);
  const end = b.emit('binary', { kind: 'add', a: i, b: b.constU32(FIRST_ENTRY_WORD + entryWords) }, u32);
  const length = emitBufferLength(b, target.buffer);
  const fits = b.emit('compare', { kind: 'le', a: end, b: length }, b.t.bool);
  const region = openIfThen(b, fits, 'vv.write');
  const base = b.emit('binary', { kind: 'add', a: i, b: b.constU32(FIRST_ENTRY_WORD) }, u32);
  const words = [target.threadWorkId, b.constU32(instId), ...args];
  words.forEach((value, k) => {
    const at = k === 0 ? base : b.emit('binary', { kind: 'add', a: base, b: b.constU32(k) }, u32);
    b.emitVoid('store', { ptr: emitWordPointer(b, target.buffer, at), value });
  });
  closeIfThen(b, region);
  b.loc = saved;
}
