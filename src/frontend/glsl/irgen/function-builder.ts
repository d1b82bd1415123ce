/**
 * Builds one IR function: a cursor over blocks, instruction emission with fresh ids, the
 * function-local `variable` list, and the break/continue targets of enclosing loops and switches.
 *
 * Invariants kept:
 * - `variable` instructions are collected apart and placed first in the entry block by `finish`.
 * - Emitting after a terminator (code after return/break) goes to a fresh block with no
 *   predecessors; `finish` drops such blocks unless they are the merge/continue target of a kept
 *   structured header, and ends every kept block without terminator with `unreachable`.
 */
import type { BlockId, FunctionId, Inst, Loc, ValueId } from '../../../ir/inst.js';
import { isTerminator, successors } from '../../../ir/inst.js';
import type { Block, Function, MergeInfo, Module, Param } from '../../../ir/module.js';
import { freshId } from '../../../ir/module.js';
import type { TypeId } from '../../../ir/types.js';

/** An instruction without the fields the builder fills in. */
export type InstBody = Inst extends infer I ? (I extends Inst ? Omit<I, 'id' | 'type' | 'loc'> : never) : never;

export interface JumpTargets {
  breakTo: BlockId;
  /** Absent for a switch (continue goes to the enclosing loop). */
  continueTo?: BlockId;
}

export class FunctionBuilder {
  readonly fn: Function;
  private readonly vars: Inst[] = [];
  private cur: Block;
  readonly jumps: JumpTargets[] = [];

  constructor(private readonly m: Module, id: FunctionId, name: string, returnType: TypeId, params: Param[], loc: Loc) {
    this.fn = { id, name, returnType, params, blocks: [], loc };
    this.cur = this.newBlock('entry');
  }

  get module(): Module {
    return this.m;
  }

  newBlock(name?: string): Block {
    const b: Block = { id: freshId<BlockId>(this.m), insts: [] };
    if (name) b.name = name;
    this.fn.blocks.push(b);
    return b;
  }

  get current(): Block {
    return this.cur;
  }

  /** Whether the current block can still receive instructions (has no terminator yet). */
  get isOpen(): boolean {
    const last = this.cur.insts[this.cur.insts.length - 1];
    return !last || !isTerminator(last);
  }

  setBlock(b: Block): void {
    this.cur = b;
  }

  private ensureOpen(): void {
    if (!this.isOpen) {
      this.cur = this.newBlock('unreachable');
    }
  }

  emit(body: InstBody, type: TypeId, loc: Loc): ValueId {
    this.ensureOpen();
    const id = freshId<ValueId>(this.m);
    this.cur.insts.push({ ...body, id, type, loc } as Inst);
    return id;
  }

  /** Ends the current block; a no-op if it already ended (the terminator would be unreachable). */
  terminate(body: InstBody, voidType: TypeId, loc: Loc): void {
    if (!this.isOpen) return;
    this.cur.insts.push({ ...body, id: freshId<ValueId>(this.m), type: voidType, loc } as Inst);
  }

  /** Branches to `target` (if the current block is open) and continues there. */
  branchTo(target: Block, voidType: TypeId, loc: Loc): void {
    this.terminate({ op: 'branch', target: target.id }, voidType, loc);
    this.cur = target;
  }

  setMerge(merge: MergeInfo): void {
    this.ensureOpen();
    this.cur.merge = merge;
  }

  /** A function-storage local; `type` is the pointer type. Placed at the top of the entry block. */
  variable(ptrType: TypeId, loc: Loc, init?: ValueId, name?: string): ValueId {
    const id = freshId<ValueId>(this.m);
    const inst = { op: 'variable', id, type: ptrType, loc } as Inst & { op: 'variable' };
    if (init !== undefined) inst.init = init;
    // The GLSL name, so instrumentation can find "variable x" (user utilities' variable probes).
    if (name !== undefined) inst.name = name;
    this.vars.push(inst);
    return id;
  }

  /**
   * Places locals, drops unreachable blocks and closes open blocks. `closeOpen` terminates the
   * still-open blocks that are reachable (falling off the end of the function).
   */
  finish(closeOpen: (b: Block) => InstBody, voidType: TypeId): Function {
    const blocks = this.fn.blocks;
    const entry = blocks[0]!;
    entry.insts.unshift(...this.vars);
    const byId = new Map(blocks.map((b) => [b.id, b]));
    const keep = new Set<BlockId>();
    const work: BlockId[] = [entry.id];
    while (work.length) {
      const id = work.pop()!;
      if (keep.has(id)) continue;
      keep.add(id);
      const b = byId.get(id)!;
      const last = b.insts[b.insts.length - 1];
      if (last && isTerminator(last)) for (const s of successors(last)) work.push(s);
      if (b.merge) {
        work.push(b.merge.merge);
        if (b.merge.kind === 'loop') work.push(b.merge.continue);
      }
    }
    // Truly reachable blocks (by edges) fall off the end; blocks kept only as structural targets are unreachable.
    const edgeReachable = new Set<BlockId>();
    const w2: BlockId[] = [entry.id];
    while (w2.length) {
      const id = w2.pop()!;
      if (edgeReachable.has(id)) continue;
      edgeReachable.add(id);
      const last = byId.get(id)!.insts.at(-1);
      if (last && isTerminator(last)) for (const s of successors(last)) w2.push(s);
    }
    this.fn.blocks = blocks.filter((b) => keep.has(b.id));
    for (const b of this.fn.blocks) {
      const last = b.insts[b.insts.length - 1];
      if (!last || !isTerminator(last)) {
        const body = edgeReachable.has(b.id) ? closeOpen(b) : ({ op: 'unreachable' } as InstBody);
        const loc = last?.loc ?? this.fn.loc;
        b.insts.push({ ...body, id: freshId<ValueId>(this.m), type: voidType, loc } as Inst);
      }
    }
    // Phi entries from dropped predecessors would dangle.
    for (const b of this.fn.blocks) {
      for (const inst of b.insts) {
        if (inst.op === 'phi') inst.incoming = inst.incoming.filter((i) => keep.has(i.block));
      }
    }
    return this.fn;
  }
}
