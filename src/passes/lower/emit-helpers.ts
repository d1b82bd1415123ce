/**
 * Small IR emission helpers of the pipeline lowering: structured switches, runtime calls, entry-block
 * locals, vector components, and finding the next site to lower.
 */
import { Builder, findBlock } from '../../ir/builder.js';
import type { BlockId, Inst, Loc, RtRuntimeFn, ValueId } from '../../ir/inst.js';
import type { Function } from '../../ir/module.js';
import { T, type TypeId } from '../../ir/types.js';

export function emitSwitch(b: Builder, selector: ValueId, cases: { value: number; target: BlockId }[], fallback: BlockId): void {
  const here = b.block;
  if (cases.length === 0) {
    b.emitVoid('branch', { target: fallback });
    return;
  }
  b.emitVoid('switch', { selector, default: fallback, cases });
  setSelectionMerge(findBlock(b.fn, here), fallback);
}

/** Marks a selection header unless the block already heads a loop (a loop merge must stay). */
export function setSelectionMerge(block: { merge?: Function['blocks'][number]['merge'] }, merge: BlockId): void {
  if (block.merge?.kind !== 'loop') block.merge = { kind: 'selection', merge };
}

export function rtCall(b: Builder, fn: RtRuntimeFn, args: ValueId[], type: TypeId): ValueId {
  return b.emit('rtCall', { fn, args }, type);
}

/** A function-storage variable at the start of the entry block (where the verifier wants it). */
export function addLocalVariable(b: Builder, pointee: TypeId): ValueId {
  const m = b.module;
  const entry = b.fn.blocks[0]!;
  let at = 0;
  while (at < entry.insts.length && entry.insts[at]!.op === 'variable') at++;
  const id = m.nextId++ as ValueId;
  const loc: Loc = entry.insts[0]?.loc ?? b.loc;
  entry.insts.splice(at, 0, { op: 'variable', id, type: T.ptr(m.types, 'function', pointee), loc: { ...loc } });
  return id;
}

export function componentsOf(b: Builder, vec: ValueId, n: number): ValueId[] {
  const elem = T.f32(b.module.types);
  const out: ValueId[] = [];
  for (let k = 0; k < n; k++) out.push(b.emit('extract', { value: vec, indices: [k] }, elem));
  return out;
}

export function findInstOp(fn: Function, op: Inst['op']): { block: Function['blocks'][number]; index: number; inst: Inst } | undefined {
  for (const block of fn.blocks) {
    const index = block.insts.findIndex((i) => i.op === op);
    if (index >= 0) return { block, index, inst: block.insts[index]! };
  }
  return undefined;
}
