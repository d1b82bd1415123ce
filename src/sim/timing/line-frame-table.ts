/**
 * The tag array's index from a line id (sector-ids.ts) to the frame holding it (cache.ts): an
 * open-addressing hash table with linear probing, sized to at least twice the cache's frames, so
 * a lookup hashes the line once and compares a few integers (issue 25.2: a `Map` lookup was most
 * of the cache's tag check). Each slot is a (line, frame) pair side by side in one Int32Array:
 * a probe that finds its line has its frame in the same CPU cache line (the tables of the L2
 * banks and L1s outgrow the CPU caches, and the probe's memory latency was most of a lookup).
 *
 * Invariants: every stored line is non-negative and at most once in the table; a line sits in
 * the probe run starting at its hash slot with no empty slot before it (deletion shifts later
 * entries of the run back, so no tombstones); at most `capacity / 2` entries.
 */
import { EMPTY_SLOT as EMPTY, idHomeSlot } from './line-hash.js';

export class LineFrameTable {
  /** slots[2 i]: the line of slot i (EMPTY if free); slots[2 i + 1]: its frame. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly shift: number;

  /**
   * `entries`: the most lines ever stored at once (the cache's frames); `unitLog2`: log2 of the
   * sector ids per line (line ids are multiples of 2^unitLog2).
   */
  constructor(entries: number, private readonly unitLog2: number) {
    const bits = Math.max(4, Math.ceil(Math.log2(2 * Math.max(1, entries))));
    this.slots = new Int32Array(2 << bits).fill(EMPTY);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  /** The frame holding `line`, or -1. */
  get(line: number): number {
    const s = this.slots;
    for (let i = idHomeSlot(line, this.unitLog2, this.shift); ; i = (i + 1) & this.mask) {
      const l = s[2 * i]!;
      if (l === line) return s[2 * i + 1]!;
      if (l === EMPTY) return -1;
    }
  }

  /** Stores `line` in `frame` (the line must not be stored). */
  set(line: number, frame: number): void {
    const s = this.slots;
    let i = idHomeSlot(line, this.unitLog2, this.shift);
    while (s[2 * i] !== EMPTY) i = (i + 1) & this.mask;
    s[2 * i] = line;
    s[2 * i + 1] = frame;
  }

  /** Removes `line` if stored: backward-shift deletion (line-hash.ts removeSlot) over the pairs. */
  delete(line: number): void {
    const s = this.slots;
    const mask = this.mask;
    let i = idHomeSlot(line, this.unitLog2, this.shift);
    for (;;) {
      const l = s[2 * i]!;
      if (l === EMPTY) return;
      if (l === line) break;
      i = (i + 1) & mask;
    }
    let hole = i;
    for (let j = (i + 1) & mask; s[2 * j] !== EMPTY; j = (j + 1) & mask) {
      const h = idHomeSlot(s[2 * j]!, this.unitLog2, this.shift);
      if (((j - h) & mask) >= ((j - hole) & mask)) {
        s[2 * hole] = s[2 * j]!;
        s[2 * hole + 1] = s[2 * j + 1]!;
        hole = j;
      }
    }
    s[2 * hole] = EMPTY;
  }
}
