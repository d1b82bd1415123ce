/**
 * The per-warp part of GPGPU-Sim's register scoreboard that spans blocks (sm.ts): for each warp
 * slot (its ITS contexts share it), the keys its instructions wrote (SSA value ids, and
 * register-promoted variables as 2^30 + their first slot: StepDeps.wkeys / xsrc) and the cycle
 * each value is written back, Infinity while it is a load's value not yet back.
 *
 * Invariants: direct-mapped, ENTRIES per slot by key; a key that a later one displaced reads as
 * written back (within a warp, keys 64 apart are rarely both in flight); `clear` on a new warp.
 */
import type { StepDeps } from '../warp-step.js';

const ENTRIES = 64;

export class RegisterTable {
  private readonly tag: Int32Array;
  private readonly done: Float64Array;

  constructor(slots: number) {
    this.tag = new Int32Array(slots * ENTRIES).fill(-1);
    this.done = new Float64Array(slots * ENTRIES);
  }

  /** A new warp in the slot: nothing of the warp before is pending. */
  clear(slot: number): void {
    this.tag.fill(-1, slot * ENTRIES, (slot + 1) * ENTRIES);
  }

  /** The cycle the values instruction i reads from earlier steps are written back (0: all are). */
  readyAt(slot: number, deps: StepDeps, i: number): number {
    let ready = 0;
    for (let k = deps.xStart[i]!, end = deps.xStart[i + 1]!; k < end; k++) {
      const key = deps.xsrc[k]!;
      const e = slot * ENTRIES + (key & (ENTRIES - 1));
      if (this.tag[e] === key && this.done[e]! > ready) ready = this.done[e]!;
    }
    return ready;
  }

  /** Instruction i issued: what it writes is written back at `done` (Infinity for a load, until `settle`). */
  written(slot: number, deps: StepDeps, i: number, done: number): void {
    for (let k = deps.wStart[i]!, end = deps.wStart[i + 1]!; k < end; k++) {
      const key = deps.wkeys[k]!;
      const e = slot * ENTRIES + (key & (ENTRIES - 1));
      this.tag[e] = key;
      this.done[e] = done;
    }
  }

  /** Load instruction i's data is back: what it writes is written back at `done`, unless written since. */
  settle(slot: number, deps: StepDeps, i: number, done: number): void {
    for (let k = deps.wStart[i]!, end = deps.wStart[i + 1]!; k < end; k++) {
      const key = deps.wkeys[k]!;
      const e = slot * ENTRIES + (key & (ENTRIES - 1));
      if (this.tag[e] === key && this.done[e] === Infinity) this.done[e] = done;
    }
  }
}
