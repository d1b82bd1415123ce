/**
 * CreateWarpId (paper 003, Fig. 5) emitted as IR at the cursor:
 *
 *   warp_id = 0
 *   if (subgroupElect()) warp_id = atomicAdd(buf[WARP_ID_COUNT_WORD], 1)   // phi at the merge
 *   warp_id = subgroupBroadcastFirst(warp_id)
 *   ThreadUpdate(warp_id)
 *
 * Invariant: every active lane ends with the elected lane's id, and each lane writes one entry
 * mapping its thread-work id to the warp id. Returns the warp id value (valid after the cursor).
 */
import type { Builder } from '../ir/builder.js';
import { findBlock } from '../ir/builder.js';
import type { Inst, ValueId } from '../ir/inst.js';
import { freshId } from '../ir/module.js';
import { WARP_ID_COUNT_WORD } from './buffer-layout.js';
import { closeIfThen, openIfThen } from './if-then-region.js';
import { emitWordPointer } from './instrumentation-buffer-global.js';
import { emitThreadUpdate, type PrimitiveTarget } from './thread-update.js';

export function emitCreateWarpId(b: Builder, target: PrimitiveTarget, instId: number): ValueId {
  const saved = b.loc;
  b.loc = target.loc;
  const u32 = b.t.u32;
  const zero = b.constU32(0);
  const elected = b.emit('subgroup', { kind: 'elect', args: [] }, b.t.bool);
  const region = openIfThen(b, elected, 'vv.warpid');
  const counter = emitWordPointer(b, target.buffer, b.constU32(WARP_ID_COUNT_WORD));
  const drawn = b.emit('atomic', { kind: 'add', ptr: counter, value: b.constU32(1) }, u32);
  closeIfThen(b, region);
  // The tail was split off the head, so it has no phis yet: the new phi goes first.
  const phi: Inst = {
    op: 'phi',
    incoming: [{ value: drawn, block: region.then }, { value: zero, block: region.head }],
    id: freshId<ValueId>(b.module),
    type: u32,
    loc: { ...target.loc },
  };
  findBlock(b.fn, region.tail).insts.unshift(phi);
  b.setInsertPoint(region.tail, 1);
  const warpId = b.emit('subgroup', { kind: 'broadcastFirst', args: [phi.id] }, u32);
  b.loc = saved;
  emitThreadUpdate(b, target, instId, [warpId]);
  return warpId;
}
