/**
 * Zatel's pixel filter (paper 004, Sec. III-F, Listing 1): at the start of the ray generation
 * shader, a per-pixel test exits the threads whose pixel is not one of the traced representative
 * pixels. Zatel adds a PTX instruction (`filter_shader`) that writes 1 for a traced pixel and 0
 * otherwise and branches to the exit on 0; here the test is ordinary IR reading a bit mask:
 *
 *   id   = x + w * (y + h * z)                 (the thread-work id of the launch, as V-Vision's)
 *   bit  = (mask[id >> 5] >> (id & 31)) & 1
 *   if (bit == 0) return;                      (before any of the shader's own instructions)
 *
 * The mask is a storage buffer `{ uint words[]; }` at the reserved set/binding below, filled by
 * the host (one bit per launch thread, 1 = trace). Skipped threads execute only these few
 * instructions, as the paper's filtered threads do ("their impact on the final performance
 * statistics is negligible").
 *
 * Invariants: only the raygen module's entry function is changed; its `variable` instructions
 * stay first in the entry block; a shader that already uses the reserved set/binding is a
 * user error, as for the instrumentation buffer.
 */
import { Builder, addGlobal, findBlock, firstNonPhiIndex, functionById } from '../../ir/builder.js';
import { NO_LOC, type ValueId } from '../../ir/inst.js';
import type { Module } from '../../ir/module.js';
import { T, declareStruct, intern } from '../../ir/types.js';
import { openIfThen } from '../../primitives/if-then-region.js';
import { emitThreadWorkId } from '../../primitives/thread-work-id.js';

/** Set and binding of the pixel mask: beside the V-Vision instrumentation buffer (set 7, binding 0). */
export const PIXEL_FILTER_SET = 7;
export const PIXEL_FILTER_BINDING = 1;
export const PIXEL_FILTER_BUFFER_NAME = 'vvision_zatel_pixel_mask';

export class PixelFilterBindingError extends Error {
  constructor(readonly globalName: string, readonly where: string) {
    super(
      `${where}: '${globalName}' uses set ${PIXEL_FILTER_SET} binding ${PIXEL_FILTER_BINDING}, ` +
        `which is reserved for Zatel's pixel mask; move it to another set or binding`,
    );
    this.name = 'PixelFilterBindingError';
  }
}

function ensureMaskBuffer(m: Module): ValueId {
  const existing = m.globals.find((g) => g.set === PIXEL_FILTER_SET && g.binding === PIXEL_FILTER_BINDING);
  if (existing) {
    if (existing.name === PIXEL_FILTER_BUFFER_NAME) return existing.id;
    const src = m.sources[existing.loc.file]?.path ?? '<unknown>';
    throw new PixelFilterBindingError(existing.name, `${src}:${existing.loc.line}:${existing.loc.column}`);
  }
  const u32 = T.u32(m.types);
  const words = intern(m.types, { kind: 'runtimeArray', elem: u32, stride: 4 });
  const block = declareStruct(m.types, `${PIXEL_FILTER_BUFFER_NAME}_block`, [{ name: 'words', type: words, offset: 0 }], {
    layout: 'std430',
    block: true,
  });
  return addGlobal(m, {
    name: PIXEL_FILTER_BUFFER_NAME,
    type: T.ptr(m.types, 'storageBuffer', block),
    storage: 'storageBuffer',
    set: PIXEL_FILTER_SET,
    binding: PIXEL_FILTER_BINDING,
    loc: { ...NO_LOC },
  });
}

/** Injects the filter at the start of `raygen`'s entry point (the module is changed in place). */
export function injectPixelFilter(raygen: Module): void {
  const entry = raygen.entryPoints.find((e) => e.stage === 'raygen');
  if (!entry) throw new Error('injectPixelFilter: the module has no raygen entry point');
  const fn = functionById(raygen, entry.function);
  const mask = ensureMaskBuffer(raygen);
  const b = new Builder(raygen, fn);
  const first = fn.blocks[0]!;
  b.setInsertPoint(first.id, firstNonPhiIndex(findBlock(fn, first.id), true));
  const u32 = b.t.u32;
  const id = emitThreadWorkId(b, 'raygen');
  const wordIndex = b.emit('binary', { kind: 'shr', a: id, b: b.constU32(5) }, u32);
  const ptr = b.emit('accessChain', { base: mask, indices: [b.constI32(0), wordIndex] }, b.t.ptr('storageBuffer', u32));
  const word = b.emit('load', { ptr }, u32);
  const shift = b.emit('binary', { kind: 'and', a: id, b: b.constU32(31) }, u32);
  const bit = b.emit('binary', { kind: 'and', a: b.emit('binary', { kind: 'shr', a: word, b: shift }, u32), b: b.constU32(1) }, u32);
  const skip = b.emit('compare', { kind: 'eq', a: bit, b: b.constU32(0) }, b.t.bool);
  openIfThen(b, skip, 'zatel.skip');
  b.emitVoid('return', {});
}

/** The host side: a mask with bit `i` set for every traced thread-work id `i` (x + w * y for 2D launches). */
export function pixelMaskWords(traced: Iterable<number>, threads: number): Uint32Array {
  const words = new Uint32Array(Math.max(1, Math.ceil(threads / 32)));
  for (const i of traced) {
    if (!(Number.isInteger(i) && i >= 0 && i < threads)) throw new RangeError(`pixel ${i} outside the launch of ${threads} threads`);
    words[i >>> 5]! |= 1 << (i & 31);
  }
  return words;
}
