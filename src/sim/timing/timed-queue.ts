/**
 * A bounded FIFO whose entries become visible at a given cycle: the port between two pipeline
 * stages. `tryPush` returns false when full and the sender keeps the item and retries (GPGPU-Sim
 * back-pressure). Entries leave in push order, so a late head blocks later entries (head-of-line),
 * exactly as a hardware FIFO with a fixed-latency stage in front of it.
 *
 * Invariants: `length <= capacity`; ready times are whatever the sender gave (normally
 * non-decreasing); storage is a ring of parallel arrays, no per-entry allocation.
 */
export class TimedQueue<T> {
  private items: (T | undefined)[];
  private ready: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    // Grown on demand: an unbounded queue (capacity 2^30) that stays short costs little memory.
    const size = Math.max(1, Math.min(capacity, 16));
    this.items = new Array<T | undefined>(size);
    this.ready = new Float64Array(size);
  }

  get length(): number {
    return this.count;
  }

  get full(): boolean {
    return this.count >= this.capacity;
  }

  tryPush(item: T, readyAt: number): boolean {
    if (this.count >= this.capacity) return false;
    if (this.count === this.items.length) this.grow();
    const i = (this.head + this.count) % this.items.length;
    this.items[i] = item;
    this.ready[i] = readyAt;
    this.count++;
    return true;
  }

  /** The head if it is ready at `now`, else undefined. */
  peek(now: number): T | undefined {
    if (this.count === 0 || this.ready[this.head]! > now) return undefined;
    return this.items[this.head];
  }

  pop(): T {
    if (this.count === 0) throw new Error('internal: pop from empty TimedQueue');
    const item = this.items[this.head]!;
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.count--;
    return item;
  }

  /** Cycle at which the head becomes ready (Infinity when empty). */
  nextReady(): number {
    return this.count === 0 ? Infinity : this.ready[this.head]!;
  }

  private grow(): void {
    const n = this.items.length * 2;
    const items = new Array<T | undefined>(n);
    const ready = new Float64Array(n);
    for (let k = 0; k < this.count; k++) {
      const i = (this.head + k) % this.items.length;
      items[k] = this.items[i];
      ready[k] = this.ready[i]!;
    }
    this.items = items;
    this.ready = ready;
    this.head = 0;
  }
}
