/**
 * Emits a structured `if (cond) { ... }` at the builder's cursor by splitting the current block:
 *
 *   head:  <insts before cursor>; condBranch cond, then, tail   (selection merge = tail)
 *   then:  <caller emits here>; branch tail                     (closeIfThen adds the branch)
 *   tail:  <insts after cursor, original terminator>
 *
 * Invariants kept: phis of the old block's successors name `tail` (Builder.splitBlockAt); a loop
 * header is never given a selection merge (its non-phi instructions are split off first, so the
 * header keeps only phis, its loop merge and a branch); `then` is laid out before `tail`.
 */
import type { Builder } from '../ir/builder.js';
import { findBlock } from '../ir/builder.js';
import type { BlockId, ValueId } from '../ir/inst.js';

export interface IfThenRegion {
  head: BlockId;
  then: BlockId;
  tail: BlockId;
}

/** Opens the region and leaves the cursor at the end of `then`. */
export function openIfThen(b: Builder, cond: ValueId, name = 'vv'): IfThenRegion {
  let head = b.block;
  let index = b.index;
  if (findBlock(b.fn, head).merge?.kind === 'loop') {
    head = b.splitBlockAt(head, index, `${name}.body`);
    index = 0;
  }
  const tail = b.splitBlockAt(head, index, `${name}.merge`);
  const then = b.createBlock(`${name}.then`);
  // createBlock appends; move `then` before `tail` so the layout reads top to bottom.
  const blocks = b.fn.blocks;
  const thenBlock = blocks.pop()!;
  blocks.splice(blocks.findIndex((x) => x.id === tail), 0, thenBlock);

  const headBlock = findBlock(b.fn, head);
  const br = headBlock.insts[headBlock.insts.length - 1]!;
  headBlock.insts[headBlock.insts.length - 1] = { op: 'condBranch', cond, ifTrue: then, ifFalse: tail, id: br.id, type: br.type, loc: { ...b.loc } };
  headBlock.merge = { kind: 'selection', merge: tail };
  b.setInsertPoint(then);
  return { head, then, tail };
}

/** Ends `then` with a branch to `tail` and moves the cursor to the start of `tail`. */
export function closeIfThen(b: Builder, region: IfThenRegion): void {
  b.emitVoid('branch', { target: region.tail });
  b.setInsertPoint(region.tail, 0);
}
