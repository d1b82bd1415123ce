/**
 * The tag array's index from a line address to the frame holding it (cache.ts): an open-addressing
 * hash table with linear probing in typed arrays, sized to at least twice the cache's frames, so
 * a lookup hashes the line once and compares a few doubles (issue 25.2: a `Map` lookup was most
 * of the cache's tag check).
 *
 * Invariants: every stored line is non-negative and at most once in the table; a line sits in
 * the probe run starting at its hash slot with no empty slot before it (deletion shifts later
 * entries of the run back, so no tombstones); at most `capacity / 2` entries.
 */
import { EMPTY_SLOT as EMPTY, lineHomeSlot, removeSlot } from './line-hash.js';

export class LineFrameTable {
  private readonly lines: Float64Array;
  private readonly frames: Int32Array;
  private readonly mask: number;
  private readonly shift: number;

  /** `entries`: the most lines ever stored at once (the cache's frames). */
  constructor(entries: number, private readonly lineBytes: number) {
    const bits = Math.max(4, Math.ceil(Math.log2(2 * Math.max(1, entries))));
    this.lines = new Float64Array(1 << bits).fill(EMPTY);
    this.frames = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  private readonly homeOf = (line: number): number => this.home(line);
  private readonly moveFrame = (to: number, from: number): void => {
    this.frames[to] = this.frames[from]!;
  };

  private home(line: number): number {
    return lineHomeSlot(line, this.lineBytes, this.shift);
  }

  /** The frame holding `line`, or -1. */
  get(line: number): number {
    for (let i = this.home(line); ; i = (i + 1) & this.mask) {
      const l = this.lines[i]!;
      if (l === line) return this.frames[i]!;
      if (l === EMPTY) return -1;
    }
  }

  /** Stores `line` in `frame` (the line must not be stored). */
  set(line: number, frame: number): void {
    let i = this.home(line);
    while (this.lines[i] !== EMPTY) i = (i + 1) & this.mask;
    this.lines[i] = line;
    this.frames[i] = frame;
  }

  /** Removes `line` if stored. */
  delete(line: number): void {
    let i = this.home(line);
    for (;;) {
      const l = this.lines[i]!;
      if (l === EMPTY) return;
      if (l === line) break;
      i = (i + 1) & this.mask;
    }
    removeSlot(this.lines, i, this.mask, this.homeOf, this.moveFrame);
  }
}
