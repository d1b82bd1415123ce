/**
 * A map from non-negative numeric keys below 2^53 (the RT unit's chunk keys; the caches' MSHRs,
 * whose keys are sector ids, use sector-map.ts) to objects: an open-addressing table with linear probing, keys in a typed array, that doubles when
 * half full and never shrinks (issue 25.2: a `Map` over such keys boxes every key that is not a
 * small integer and rehashes as it grows and shrinks, which the MSHR tables do all the time).
 * Iteration is not offered: no caller may depend on an order.
 *
 * Invariants: every stored key is non-negative and stored once, in the probe run starting at its
 * home slot with no empty slot before it (deletion shifts later entries back: no tombstones);
 * `values[i]` is undefined exactly where `keys[i]` is empty; at most half the slots are taken.
 */
import { EMPTY_SLOT, lineHomeSlot, removeSlot } from './line-hash.js';

export class LineMap<V> {
  private keys: Float64Array;
  private values: (V | undefined)[];
  private mask: number;
  private shift: number;
  /** Entries stored. */
  size = 0;

  /** `unit`: the key granularity the hash divides by (the line size for line addresses, 1 for indices). */
  constructor(private readonly unit: number, initialSlots = 64) {
    const bits = Math.max(4, Math.ceil(Math.log2(initialSlots)));
    this.keys = new Float64Array(1 << bits).fill(EMPTY_SLOT);
    this.values = new Array<V | undefined>(1 << bits).fill(undefined);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  private readonly homeOf = (key: number): number => lineHomeSlot(key, this.unit, this.shift);
  private readonly moveValue = (to: number, from: number): void => {
    this.values[to] = this.values[from];
  };

  private slotOf(key: number): number {
    for (let i = this.homeOf(key); ; i = (i + 1) & this.mask) {
      const k = this.keys[i]!;
      if (k === key) return i;
      if (k === EMPTY_SLOT) return -1;
    }
  }

  get(key: number): V | undefined {
    const i = this.slotOf(key);
    return i < 0 ? undefined : this.values[i];
  }

  has(key: number): boolean {
    return this.slotOf(key) >= 0;
  }

  /** Stores `value` under `key` (replacing what was there). */
  set(key: number, value: V): void {
    let i = this.homeOf(key);
    for (;;) {
      const k = this.keys[i]!;
      if (k === key) {
        this.values[i] = value;
        return;
      }
      if (k === EMPTY_SLOT) break;
      i = (i + 1) & this.mask;
    }
    this.keys[i] = key;
    this.values[i] = value;
    if (++this.size * 2 > this.keys.length) this.grow();
  }

  /** Removes `key` if stored. */
  delete(key: number): void {
    const i = this.slotOf(key);
    if (i < 0) return;
    this.values[removeSlot(this.keys, i, this.mask, this.homeOf, this.moveValue)] = undefined;
    this.size--;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const bits = 33 - this.shift;
    this.keys = new Float64Array(1 << bits).fill(EMPTY_SLOT);
    this.values = new Array<V | undefined>(1 << bits).fill(undefined);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j]!;
      if (key === EMPTY_SLOT) continue;
      let i = this.homeOf(key);
      while (this.keys[i] !== EMPTY_SLOT) i = (i + 1) & this.mask;
      this.keys[i] = key;
      this.values[i] = values[j];
    }
  }
}
