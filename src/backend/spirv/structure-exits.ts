/**
 * Makes a function with a shared exit block structured, as SPIR-V's Shader capability requires.
 *
 * The `its` utility rewrites every return of a raygen into a branch to one exit block holding the
 * pipeline-exit probe (V-Vision Fig. 10: the warp must leave through ONE exit). A `return` inside
 * an `if` then becomes a branch out of that selection construct to a block that is not its merge,
 * which structured control flow forbids. SPIR-V's way to say "leave from here to one place" is a
 * `break`: the body is wrapped in a loop that runs once (do { body } while (false)), whose merge
 * block is the shared exit, so every former return is a break to the innermost loop's merge and
 * threads still reconverge at the one exit (what the probe measures).
 *
 * Applies only when needed: a block with several predecessors that no header names as merge or
 * continue target, on no cycle, from which every path leaves the function. A predecessor inside a
 * loop of the function cannot break out of two loops; that case is a `SpirvWriteError`.
 * The input function is not changed; the result has new blocks with ids from `fresh`.
 */
import type { BlockId, Inst, ValueId } from '../../ir/inst.js';
import { successors } from '../../ir/inst.js';
import type { Block, Function } from '../../ir/module.js';
import type { TypeId } from '../../ir/types.js';
import { SpirvWriteError } from './module-writer.js';

export function structureSharedExit(f: Function, fresh: () => number, voidType: TypeId): Function {
  const exit = findSharedExit(f);
  if (exit === undefined) return f;
  const loops = f.blocks.filter((b) => b.merge?.kind === 'loop');
  const preds = predecessors(f).get(exit) ?? [];
  for (const loop of loops) {
    const body = loopBody(f, loop);
    const inside = preds.find((p) => body.has(p));
    if (inside !== undefined) {
      throw new SpirvWriteError(`function @${f.name}: block ^b${inside} leaves a loop for the shared exit ^b${exit}, which structured SPIR-V cannot express`);
    }
  }
  const entry = f.blocks[0]!;
  const firstNonVariable = entry.insts.findIndex((i) => i.op !== 'variable');
  const newEntryId = fresh() as BlockId;
  const headerId = fresh() as BlockId;
  const continueId = fresh() as BlockId;
  const loc = entry.insts[firstNonVariable]?.loc ?? f.loc;
  const branch = (target: BlockId): Inst => ({ op: 'branch', target, id: fresh() as ValueId, type: voidType, loc: { ...loc } });
  const newEntry: Block = { id: newEntryId, name: 'vv.spirv.entry', insts: [...entry.insts.slice(0, firstNonVariable), branch(headerId)] };
  const header: Block = { id: headerId, name: 'vv.spirv.once', insts: [branch(entry.id)], merge: { kind: 'loop', merge: exit, continue: continueId } };
  const oldEntry: Block = { ...entry, insts: entry.insts.slice(firstNonVariable) };
  const cont: Block = { id: continueId, name: 'vv.spirv.once.continue', insts: [branch(headerId)] };
  return { ...f, blocks: [newEntry, header, oldEntry, ...f.blocks.slice(1), cont] };
}

function predecessors(f: Function): Map<BlockId, BlockId[]> {
  const preds = new Map<BlockId, BlockId[]>();
  for (const b of f.blocks) {
    const term = b.insts[b.insts.length - 1];
    if (!term) continue;
    for (const s of new Set(successors(term))) {
      if (!preds.has(s)) preds.set(s, []);
      preds.get(s)!.push(b.id);
    }
  }
  return preds;
}

function reachableFrom(f: Function, start: BlockId): Set<BlockId> {
  const byId = new Map(f.blocks.map((b) => [b.id, b]));
  const seen = new Set<BlockId>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const term = byId.get(id)?.insts.at(-1);
    if (term) stack.push(...successors(term));
  }
  return seen;
}

function findSharedExit(f: Function): BlockId | undefined {
  const named = new Set<BlockId>();
  for (const b of f.blocks) {
    if (b.merge) named.add(b.merge.merge);
    if (b.merge?.kind === 'loop') named.add(b.merge.continue);
  }
  const preds = predecessors(f);
  for (const b of f.blocks) {
    if ((preds.get(b.id)?.length ?? 0) < 2 || named.has(b.id) || b === f.blocks[0]) continue;
    const region = reachableFrom(f, b.id);
    // On a cycle through b, or entered other than through b: an ordinary join, not an exit.
    const term = b.insts.at(-1);
    if (term && successors(term).some((s) => reachableFrom(f, s).has(b.id))) continue;
    const closed = [...region].every((r) => r === b.id || (preds.get(r) ?? []).every((p) => region.has(p)));
    if (closed) return b.id;
  }
  return undefined;
}

/** Blocks of a loop: reachable from its header without passing its merge block, that reach the header back. */
function loopBody(f: Function, header: Block): Set<BlockId> {
  if (header.merge?.kind !== 'loop') return new Set();
  const merge = header.merge.merge;
  const byId = new Map(f.blocks.map((b) => [b.id, b]));
  const seen = new Set<BlockId>();
  const stack = [header.id];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id) || id === merge) continue;
    seen.add(id);
    const term = byId.get(id)?.insts.at(-1);
    if (term) stack.push(...successors(term));
  }
  return seen;
}
