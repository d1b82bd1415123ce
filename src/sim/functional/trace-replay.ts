/**
 * Replays the per-lane block traces of the lane-serial engine through the SIMT stack, producing
 * exactly the counters the warp-synchronous engine produces for the same warp: the same stack
 * transitions (simt-stack.ts) applied to the same pieces, with each lane's branch decision read
 * from its trace instead of computed.
 *
 * Trace format (per lane, `traces[l][0 .. lengths[l])`): for every executed branch whose block has
 * several distinct successors, the index of the successor taken (in BlockInfo.succs), in order.
 * Calls, returns and single-successor branches need no event: the replay knows them statically.
 *
 * Lanes whose traces are identical never separate: they enter the warp in one SIMT entry, and at
 * every branch both read the same position of the same sequence (their cursors moved together), so
 * they take the same successor. The replay therefore groups such lanes into classes and reads one
 * representative's decision per class (`classMask[rep]` is the class's lanes); a coherent warp
 * costs one lane's replay instead of 32.
 */
import { EXIT, type FunctionInfo } from './compile-to-js.js';
import { NO_RPC, type LaneTraces, type SimtEntry } from './launch-state.js';
import { countPiece, simtBranch } from './simt-stack.js';
import type { CounterSet } from './counters.js';
import { SimError } from './errors.js';

interface ReplayFrame {
  fn: FunctionInfo;
  stack: SimtEntry[];
}

/** Representatives compared against before a lane is given its own class (bounds the grouping cost). */
const MAX_COMPARED_CLASSES = 8;

// Scratch shared by every replay (replays never interleave: one warp is replayed at a time).
const cursor = new Int32Array(32);
const succ = new Int32Array(64);
const classMask = new Int32Array(32);

function bad(msg: string): never {
  throw new SimError('internal', `trace replay: ${msg}`);
}

/** Mask of one representative lane per class of identical traces; fills classMask[rep]. */
function traceClasses(mask: number, flat: Int32Array, cap: number, lengths: Int32Array): number {
  let reps = 0;
  for (let x = mask; x !== 0; x &= x - 1) {
    const l = 31 - Math.clz32(x & -x);
    const n = lengths[l]!;
    let found = -1;
    let tried = 0;
    for (let y = reps; y !== 0 && tried < MAX_COMPARED_CLASSES; y &= y - 1, tried++) {
      const r = 31 - Math.clz32(y & -y);
      if (lengths[r] !== n) continue;
      const a = l * cap;
      const b = r * cap;
      let i = 0;
      while (i < n && flat[a + i] === flat[b + i]) i++;
      if (i === n) {
        found = r;
        break;
      }
    }
    if (found >= 0) classMask[found]! |= 1 << l;
    else {
      reps |= 1 << l;
      classMask[l] = 1 << l;
    }
  }
  return reps;
}

export function replayTraces(
  counters: CounterSet,
  byId: ReadonlyMap<number, FunctionInfo>,
  entry: FunctionInfo,
  mask: number,
  traces: LaneTraces,
  lengths: Int32Array,
): void {
  const flat = traces.flat;
  const cap = traces.cap;
  cursor.fill(0);
  const reps = traceClasses(mask, flat, cap, lengths);
  const frames: ReplayFrame[] = [{ fn: entry, stack: [{ pc: 0, piece: 0, rpc: NO_RPC, mask }] }];
  while (frames.length > 0) {
    const F = frames[frames.length - 1]!;
    const E = F.stack[F.stack.length - 1]!;
    if (E.pc === E.rpc) {
      F.stack.pop();
      continue;
    }
    if (E.pc === EXIT) {
      if (F.stack.length > 1) bad(`split reached the exit of @${F.fn.name} early`);
      frames.pop();
      continue;
    }
    const block = F.fn.blocks[E.pc]!;
    const piece = block.pieces[E.piece]!;
    countPiece(counters, F.fn, block, piece, E.piece === 0, E.mask);
    switch (piece.end) {
      case 'call': {
        E.piece++;
        const callee = byId.get(piece.callee!)!;
        frames.push({ fn: callee, stack: [{ pc: 0, piece: 0, rpc: NO_RPC, mask: E.mask }] });
        break;
      }
      case 'traverse':
        E.piece++;
        break;
      case 'return':
        E.pc = EXIT;
        E.piece = 0;
        break;
      case 'branch': {
        const ns = block.succs.length;
        if (ns <= 1) {
          succ[0] = E.mask;
        } else if (ns === 2) {
          let m1 = 0;
          for (let x = E.mask & reps; x !== 0; x &= x - 1) {
            const l = 31 - Math.clz32(x & -x);
            if (flat[l * cap + cursor[l]!++] !== 0) m1 |= classMask[l]!;
          }
          succ[0] = E.mask & ~m1;
          succ[1] = m1;
        } else {
          succ.fill(0, 0, ns);
          for (let x = E.mask & reps; x !== 0; x &= x - 1) {
            const l = 31 - Math.clz32(x & -x);
            const ev = flat[l * cap + cursor[l]!++]!;
            if (ev < 0 || ev >= ns) bad(`lane ${l} left block ${block.name} to successor ${ev}`);
            succ[ev]! |= classMask[l]!;
          }
        }
        simtBranch(F.stack, E, block, succ);
        break;
      }
    }
  }
  for (let x = reps; x !== 0; x &= x - 1) {
    const l = 31 - Math.clz32(x & -x);
    if (cursor[l] !== lengths[l]) bad(`lane ${l} consumed ${cursor[l]} of ${lengths[l]} decisions`);
  }
}
