/**
 * A binary min-heap of (time, item) pairs: pending completions ordered by cycle, ties broken by
 * insertion order so runs are deterministic.
 */
export class EventHeap<T> {
  private times: number[] = [];
  private seqs: number[] = [];
  private items: T[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(time: number, item: T): void {
    this.times.push(time);
    this.seqs.push(this.seq++);
    this.items.push(item);
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  /** Time of the earliest event (Infinity when empty). */
  peekTime(): number {
    return this.items.length ? this.times[0]! : Infinity;
  }

  pop(): T {
    const top = this.items[0]!;
    const last = this.items.length - 1;
    this.swap(0, last);
    this.times.pop();
    this.seqs.pop();
    this.items.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.items.length && this.less(l, m)) m = l;
      if (r < this.items.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    return this.times[a]! < this.times[b]! || (this.times[a] === this.times[b] && this.seqs[a]! < this.seqs[b]!);
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b]!, this.times[a]!];
    [this.seqs[a], this.seqs[b]] = [this.seqs[b]!, this.seqs[a]!];
    [this.items[a], this.items[b]] = [this.items[b]!, this.items[a]!];
  }
}
