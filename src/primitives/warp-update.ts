/**
 * WarpUpdate (paper 003, Fig. 4): ThreadUpdate under `subgroupElect()`, so one entry per warp
 * (written by the lowest active lane). `emitWarpBallot` is the composition the utilities use:
 * WarpUpdate(subgroupBallot(true)), recording the active mask (bit i set iff lane i is active).
 *
 * Invariants: the ballot is taken by all active lanes before the elect branch (arguments are
 * evaluated before the call, as in GLSL); the mask is the ballot's first u32, i.e. warps of up to
 * 32 lanes (WARP_SIZE). The cursor ends after the whole construct.
 */
import type { Builder } from '../ir/builder.js';
import type { ValueId } from '../ir/inst.js';
import { closeIfThen, openIfThen } from './if-then-region.js';
import { emitThreadUpdate, type PrimitiveTarget } from './thread-update.js';

export function emitWarpUpdate(b: Builder, target: PrimitiveTarget, instId: number, args: readonly ValueId[]): void {
  const saved = b.loc;
  b.loc = target.loc;
  const elected = b.emit('subgroup', { kind: 'elect', args: [] }, b.t.bool);
  const region = openIfThen(b, elected, 'vv.elect');
  emitThreadUpdate(b, target, instId, args);
  closeIfThen(b, region);
  b.loc = saved;
}

/** Emits `subgroupBallot(true).x`: the active-lane mask of the warp at the cursor. */
export function emitActiveMask(b: Builder): ValueId {
  const u32 = b.t.u32;
  const ballot = b.emit('subgroup', { kind: 'ballot', args: [b.constBool(true)] }, b.t.vec(u32, 4));
  return b.emit('extract', { value: ballot, indices: [0] }, u32);
}

/** WarpUpdate(subgroupBallot(true)). */
export function emitWarpBallot(b: Builder, target: PrimitiveTarget, instId: number): void {
  const saved = b.loc;
  b.loc = target.loc;
  const mask = emitActiveMask(b);
  b.loc = saved;
  emitWarpUpdate(b, target, instId, [mask]);
}
