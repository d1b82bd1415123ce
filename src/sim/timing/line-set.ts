/**
 * A set of line addresses (the lines a cache has ever held, for the compulsory / capacity miss
 * split, cache.ts): an open-addressing hash table with linear probing in a typed array that
 * doubles when half full (issue 25.2: a `Set` over renumbered keys cost a hash-map probe and a
 * renumbering per miss).
 *
 * Invariants: every stored line is non-negative and stored once; lines are never removed; at most
 * half the slots are taken.
 */
import { lineHomeSlot } from './line-hash.js';

const EMPTY = -1;

export class LineSet {
  private lines: Float64Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(private readonly lineBytes: number, initialSlots = 1024) {
    const bits = Math.max(4, Math.ceil(Math.log2(initialSlots)));
    this.lines = new Float64Array(1 << bits).fill(EMPTY);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  private home(line: number): number {
    return lineHomeSlot(line, this.lineBytes, this.shift);
  }

  has(line: number): boolean {
    for (let i = this.home(line); ; i = (i + 1) & this.mask) {
      const l = this.lines[i]!;
      if (l === line) return true;
      if (l === EMPTY) return false;
    }
  }

  add(line: number): void {
    let i = this.home(line);
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
    this.lines = new Float64Array(1 << bits).fill(EMPTY);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (const line of old) {
      if (line === EMPTY) continue;
      let i = this.home(line);
      while (this.lines[i] !== EMPTY) i = (i + 1) & this.mask;
      this.lines[i] = line;
    }
  }
}
