/**
 * The tag array's index (cache.ts): every line id (sector-ids.ts) the cache has ever held, with the
 * frame holding it now or ABSENT. One table answers both questions of a lookup, "which frame?"
 * and, on a miss, "compulsory or capacity/conflict?" (issue 25.2: a separate set of the lines ever
 * filled cost a second probe per miss, and the probes' memory latency was most of a lookup).
 * Open addressing with linear probing; each slot is a (line, frame) pair side by side in one
 * Int32Array, so a probe that finds its line has its frame in the same CPU cache line; the table
 * doubles when half full.
 *
 * Invariants: every stored line is non-negative and stored once, in the probe run starting at its
 * home slot with no empty slot before it; lines are never removed (an evicted or invalidated line
 * keeps its slot with frame ABSENT); at most half the slots are taken.
 */
import { EMPTY_SLOT as EMPTY, idHomeSlot } from './line-hash.js';

/** `get` of a line held before but not now. */
export const ABSENT = -1;
/** `get` of a line never held. */
export const NEVER = -2;

export class LineFrameTable {
  /** slots[2 i]: the line of slot i (EMPTY if free); slots[2 i + 1]: its frame, or ABSENT. */
  private slots: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  /**
   * `entries`: the lines expected (the table grows past them); `unitLog2`: log2 of the sector ids
   * per line (line ids are multiples of 2^unitLog2).
   */
  constructor(entries: number, private readonly unitLog2: number) {
    const bits = Math.max(4, Math.ceil(Math.log2(2 * Math.max(1, entries))));
    this.slots = new Int32Array(2 << bits).fill(EMPTY);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  /** The frame holding `line`; ABSENT if it was held before, NEVER if not. */
  get(line: number): number {
    const s = this.slots;
    for (let i = idHomeSlot(line, this.unitLog2, this.shift); ; i = (i + 1) & this.mask) {
      const l = s[2 * i]!;
      if (l === line) return s[2 * i + 1]!;
      if (l === EMPTY) return NEVER;
    }
  }

  /** Records `line` in `frame` (or ABSENT), adding it if it was never held. */
  set(line: number, frame: number): void {
    const s = this.slots;
    let i = idHomeSlot(line, this.unitLog2, this.shift);
    for (;;) {
      const l = s[2 * i]!;
      if (l === line) {
        s[2 * i + 1] = frame;
        return;
      }
      if (l === EMPTY) break;
      i = (i + 1) & this.mask;
    }
    s[2 * i] = line;
    s[2 * i + 1] = frame;
    if (++this.count * 2 > this.mask + 1) this.grow();
  }

  private grow(): void {
    const old = this.slots;
    const bits = 33 - this.shift;
    const s = (this.slots = new Int32Array(2 << bits).fill(EMPTY));
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (let j = 0; j < old.length; j += 2) {
      const line = old[j]!;
      if (line === EMPTY) continue;
      let i = idHomeSlot(line, this.unitLog2, this.shift);
      while (s[2 * i] !== EMPTY) i = (i + 1) & this.mask;
      s[2 * i] = line;
      s[2 * i + 1] = old[j + 1]!;
    }
  }
}
