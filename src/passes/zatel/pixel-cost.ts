/**
 * Per-pixel cost counters for Zatel's execution-time heatmap (paper 004, Sec. III-B step 1: "we
 * profile the runtime of each pixel"). Zatel times each pixel on a GPU or in Vulkan-Sim's
 * functional mode; here every basic block of every shader adds its instruction count to a
 * per-thread counter on entry, so one functional run gives each pixel the instructions its
 * thread executed across all stages (raygen, hit, miss, any-hit, intersection, callables):
 *
 *   cost[id] += <instructions of this block>        id = x + w * (y + h * z)
 *
 * Every stage sees the same thread-work id (the launch id is available in all ray tracing
 * stages), and a thread owns its counter, so a plain load-add-store is race free.
 *
 * Invariants: the probes count only the shader's own instructions (never their own); the
 * thread-work id is computed once per function at the entry block, before that block's probe,
 * so it dominates every probe; variables stay first in the entry block.
 */
import { Builder, addGlobal, firstNonPhiIndex } from '../../ir/builder.js';
import { NO_LOC, type ValueId } from '../../ir/inst.js';
import type { Module } from '../../ir/module.js';
import { T, declareStruct, intern } from '../../ir/types.js';
import { emitThreadWorkId } from '../../primitives/thread-work-id.js';
import { PixelFilterBindingError, PIXEL_FILTER_SET } from './pixel-filter.js';

export const PIXEL_COST_SET = PIXEL_FILTER_SET;
export const PIXEL_COST_BINDING = 2;
export const PIXEL_COST_BUFFER_NAME = 'vvision_zatel_pixel_cost';

function ensureCostBuffer(m: Module): ValueId {
  const existing = m.globals.find((g) => g.set === PIXEL_COST_SET && g.binding === PIXEL_COST_BINDING);
  if (existing) {
    if (existing.name === PIXEL_COST_BUFFER_NAME) return existing.id;
    const src = m.sources[existing.loc.file]?.path ?? '<unknown>';
    throw new PixelFilterBindingError(existing.name, `${src}:${existing.loc.line}:${existing.loc.column}`);
  }
  const u32 = T.u32(m.types);
  const words = intern(m.types, { kind: 'runtimeArray', elem: u32, stride: 4 });
  const block = declareStruct(m.types, `${PIXEL_COST_BUFFER_NAME}_block`, [{ name: 'cost', type: words, offset: 0 }], {
    layout: 'std430',
    block: true,
  });
  return addGlobal(m, {
    name: PIXEL_COST_BUFFER_NAME,
    type: T.ptr(m.types, 'storageBuffer', block),
    storage: 'storageBuffer',
    set: PIXEL_COST_SET,
    binding: PIXEL_COST_BINDING,
    loc: { ...NO_LOC },
  });
}

/** Adds the counters to every function of `m` that has a body (in place). */
export function injectPixelCostCounters(m: Module): void {
  const stage = m.entryPoints[0]?.stage;
  if (!stage) return;
  const buffer = ensureCostBuffer(m);
  for (const fn of m.functions) {
    if (fn.blocks.length === 0) continue;
    // Instruction counts first: the probes below must not count themselves.
    const counts = new Map(fn.blocks.map((blk) => [blk.id, blk.insts.filter((i) => i.op !== 'phi' && i.op !== 'variable').length]));
    const b = new Builder(m, fn);
    const entry = fn.blocks[0]!;
    b.setInsertPoint(entry.id, firstNonPhiIndex(entry, true));
    const u32 = b.t.u32;
    const id = emitThreadWorkId(b, stage, m.entryPoints[0]!.localSize ?? [1, 1, 1]);
    const ptr = b.emit('accessChain', { base: buffer, indices: [b.constI32(0), id] }, b.t.ptr('storageBuffer', u32));
    const add = (n: number) => {
      const old = b.emit('load', { ptr }, u32);
      b.emitVoid('store', { ptr, value: b.emit('binary', { kind: 'add', a: old, b: b.constU32(n) }, u32) });
    };
    add(counts.get(entry.id)!);
    for (const blk of fn.blocks.slice(1)) {
      b.setInsertPoint(blk.id, firstNonPhiIndex(blk));
      add(counts.get(blk.id)!);
    }
  }
}
