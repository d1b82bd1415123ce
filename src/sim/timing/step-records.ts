/**
 * A ring of small integer records keyed by a step or cycle that only moves forward, for the issue
 * stage's reservation tables (operand-collector.ts): the record of step s lives in slot s mod the
 * ring size and holds s in its first word, so a slot still holding an earlier lap's step reads as
 * an empty record and is emptied when step s claims it. One record carries every table of its
 * step (counts, bitmasks), so one reservation touches one cache line per step instead of one per
 * table, and the ring a run sweeps through is a few times smaller.
 *
 * Invariants: the steps held at one time span less than the ring (the caller's lookahead bound);
 * a record is `fields` words after the key, padded to a power of two; key -1 is no step.
 */
export class StepRecords {
  /** The records, side by side: word 0 of each is its step, words 1..fields its fields. */
  readonly words: Int32Array;
  private readonly shift: number;
  private readonly mask: number;
  private readonly size: number;

  /** `slots` records (a power of two) of `fields` words each. */
  constructor(slots: number, fields: number) {
    if ((slots & (slots - 1)) !== 0) throw new Error(`step records: ${slots} slots is not a power of two`);
    this.shift = Math.ceil(Math.log2(fields + 1));
    this.size = 1 << this.shift;
    this.mask = slots - 1;
    this.words = new Int32Array(slots << this.shift);
    for (let r = 0; r < slots; r++) this.words[r << this.shift] = -1;
  }

  /** The offset of step s's record in `words`, or -1 when no record holds s (every field reads 0). */
  find(s: number): number {
    const e = (s & this.mask) << this.shift;
    return this.words[e] === s ? e : -1;
  }

  /** The offset of step s's record in `words`, its slot emptied first if it held another step. */
  claim(s: number): number {
    const e = (s & this.mask) << this.shift;
    const w = this.words;
    if (w[e] !== s) {
      w[e] = s;
      for (let k = 1; k < this.size; k++) w[e + k] = 0;
    }
    return e;
  }
}
