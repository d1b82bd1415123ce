/**
 * A set of line ids (sector-ids.ts; the lines a cache has ever held, for the compulsory /
 * capacity miss split, cache.ts): an open-addressing hash table with linear probing in an
 * Int32Array that doubles when half full (issue 25.2: a `Set` over renumbered keys cost a hash-map
 * probe and a renumbering per miss).
 *
 * Invariants: every stored line is non-negative and stored once; lines are never removed; at most
 * half the slots are taken.
 */
import { EMPTY_SLOT as EMPTY, idHomeSlot } from './line-hash.js';

export class LineSet {
  private lines: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  /** `unitLog2`: log2 of the sector ids per line (line ids are multiples of 2^unitLog2). */
  constructor(private readonly unitLog2: number, initialSlots = 1024) {
    const bits = Math.max(4, Math.ceil(Math.log2(initialSlots)));
    this.lines = new Int32Array(1 << bits).fill(EMPTY);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  has(line: number): boolean {
    const lines = this.lines;
    for (let i = idHomeSlot(line, this.unitLog2, this.shift); ; i = (i + 1) & this.mask) {
      const l = lines[i]!;
      if (l === line) return true;
      if (l === EMPTY) return false;
    }
  }

  add(line: number): void {
    let i = idHomeSlot(line, this.unitLog2, this.shift);
    for (;;) {
      const l = this.lines[i]!;
      if (l === line) return;
      if (l === EMPTY) break;
      i = (i + 1) & this.mask;
    }
    this.lines[i] = line;
    if (++this.count * 2 > this.lines.length) this.grow();
  }

  private grow(): void {
    const old = this.lines;
    const bits = 33 - this.shift;
    this.lines = new Int32Array(1 << bits).fill(EMPTY);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (const line of old) {
      if (line === EMPTY) continue;
      let i = idHomeSlot(line, this.unitLog2, this.shift);
      while (this.lines[i] !== EMPTY) i = (i + 1) & this.mask;
      this.lines[i] = line;
    }
  }
}
