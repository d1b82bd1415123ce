/**
 * A map from sector or line ids (sector-ids.ts: the MSHR keys of the L1s and L2 banks) to
 * objects: line-map.ts's open-addressing table with the keys in an Int32Array (issue 25.2: ids
 * are small integers, so the keys are compared as integers and take half the room of doubles).
 * Iteration is not offered: no caller may depend on an order.
 *
 * Invariants: every stored key is non-negative and stored once, in the probe run starting at its
 * home slot with no empty slot before it (deletion shifts later entries back: no tombstones);
 * `values[i]` is undefined exactly where `keys[i]` is empty; at most half the slots are taken.
 */
import { EMPTY_SLOT, idHomeSlot, removeIdSlot } from './line-hash.js';

export class SectorMap<V> {
  private keys: Int32Array;
  private values: (V | undefined)[];
  private mask: number;
  private shift: number;
  /** Entries stored. */
  size = 0;

  constructor(initialSlots = 64) {
    const bits = Math.max(4, Math.ceil(Math.log2(initialSlots)));
    this.keys = new Int32Array(1 << bits).fill(EMPTY_SLOT);
    this.values = new Array<V | undefined>(1 << bits).fill(undefined);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  private readonly moveValue = (to: number, from: number): void => {
    this.values[to] = this.values[from];
  };

  private slotOf(key: number): number {
    const keys = this.keys;
    for (let i = idHomeSlot(key, 0, this.shift); ; i = (i + 1) & this.mask) {
      const k = keys[i]!;
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
    let i = idHomeSlot(key, 0, this.shift);
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
    this.values[removeIdSlot(this.keys, i, this.mask, 0, this.shift, this.moveValue)] = undefined;
    this.size--;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const bits = 33 - this.shift;
    this.keys = new Int32Array(1 << bits).fill(EMPTY_SLOT);
    this.values = new Array<V | undefined>(1 << bits).fill(undefined);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j]!;
      if (key === EMPTY_SLOT) continue;
      let i = idHomeSlot(key, 0, this.shift);
      while (this.keys[i] !== EMPTY_SLOT) i = (i + 1) & this.mask;
      this.keys[i] = key;
      this.values[i] = values[j];
    }
  }
}
