/**
 * The per-warp part of GPGPU-Sim's register scoreboard that spans blocks (sm.ts): for each warp
 * slot (its ITS contexts share it), the keys its instructions wrote (SSA value ids, and
 * register-promoted variables as 2^30 + their first slot: a StepDeps record's WKeys / XSrc) and the cycle
 * each value is written back, Infinity while it is a load's value not yet back.
 *
 * Invariants: direct-mapped, ENTRIES per slot by key; a key that a later one displaced reads as
 * written back (within a warp, keys 64 apart are rarely both in flight); `clear` on a new warp. An
 * entry is a pair (key + 1, writeback cycle) side by side in one Float64Array, so a probe reads one
 * cache line; 0 is an empty entry.
 */
import { DepField, type StepDeps } from '../step-deps-layout.js';

const ENTRIES = 64;

export class RegisterTable {
  /** Per slot, ENTRIES (key + 1, writeback cycle) pairs. */
  private readonly table: Float64Array;

  constructor(slots: number) {
    this.table = new Float64Array(slots * ENTRIES * 2);
  }

  /** A new warp in the slot: nothing of the warp before is pending. */
  clear(slot: number): void {
    this.table.fill(0, slot * ENTRIES * 2, (slot + 1) * ENTRIES * 2);
  }

  /** The cycle the values instruction i reads from earlier steps are written back (0: all are). */
  readyAt(slot: number, deps: StepDeps, i: number): number {
    let ready = 0;
    const r = deps[i]!;
    for (let k = deps[r + DepField.XSrc]!, end = deps[r + DepField.WKeys]!; k < end; k++) {
      const key = deps[k]!;
      const e = (slot * ENTRIES + (key & (ENTRIES - 1))) * 2;
      if (this.table[e] === key + 1 && this.table[e + 1]! > ready) ready = this.table[e + 1]!;
    }
    return ready;
  }

  /** Instruction i issued: what it writes is written back at `done` (Infinity for a load, until `settle`). */
  written(slot: number, deps: StepDeps, i: number, done: number): void {
    const r = deps[i]!;
    this.write(slot, deps, deps[r + DepField.WKeys]!, deps[r + DepField.PhiKeys]!, done);
  }

  /** Instruction i's block's phi movs issued: the keys they write are written back at `done`. */
  phisWritten(slot: number, deps: StepDeps, i: number, done: number): void {
    const r = deps[i]!;
    this.write(slot, deps, deps[r + DepField.PhiKeys]!, deps[r + DepField.End]!, done);
  }

  /** Keys deps[from..to) are written back at `done`. */
  private write(slot: number, deps: StepDeps, from: number, to: number, done: number): void {
    for (let k = from; k < to; k++) {
      const key = deps[k]!;
      const e = (slot * ENTRIES + (key & (ENTRIES - 1))) * 2;
      this.table[e] = key + 1;
      this.table[e + 1] = done;
    }
  }

  /** Load instruction i's data is back: what it writes is written back at `done`, unless written since. */
  settle(slot: number, deps: StepDeps, i: number, done: number): void {
    const r = deps[i]!;
    for (let k = deps[r + DepField.WKeys]!, end = deps[r + DepField.PhiKeys]!; k < end; k++) {
      const key = deps[k]!;
      const e = (slot * ENTRIES + (key & (ENTRIES - 1))) * 2;
      if (this.table[e] === key + 1 && this.table[e + 1] === Infinity) this.table[e + 1] = done;
    }
  }
}
