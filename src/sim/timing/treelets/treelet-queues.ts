/**
 * The treelet controller's two tables (paper 001 Sec. 4.2, Fig. 8-9, Sec. 6.5):
 * - Treelet Count Table (in the RT unit): rays queued per treelet, in the order treelets first got
 *   a ray ("the first treelet count table entry" of Sec. 4.4 is the oldest).
 * - Treelet Queue Table (in the L1D): a hash table with chaining whose entries each hold a treelet
 *   address, a ray count and up to 32 ray ids (one warp); a full entry is followed by a duplicate
 *   entry of the same treelet. Entries beyond the table's capacity live in memory (counted as
 *   spills).
 *
 * Invariants: `countOf(t)` equals the rays in t's entries; every ray id is in at most one entry;
 * an entry is removed when its last ray leaves; `largest()` is a treelet of maximal count, ties to
 * the one that got rays first (deterministic).
 */

/** Ray ids per queue-table entry (a whole warp, Sec. 4.2). */
export const RAYS_PER_ENTRY = 32;

interface QueueEntry {
  treelet: number;
  rays: number[];
  /** Next entry in the same hash bucket (chaining). */
  next: QueueEntry | null;
}

export class TreeletQueueStats {
  /** Rays inserted into the queues. */
  inserts = 0;
  /** Peak queue-table entries in use, and peak treelets in the count table. */
  peakEntries = 0;
  peakTreelets = 0;
  /** Entry allocations beyond the on-chip table (held in memory, Sec. 4.2). */
  entrySpills = 0;
  /** Insertions into a full count table (Sec. 6.5 evicts the smallest queue to ray-stationary processing). */
  countTableOverflows = 0;
  /** Longest hash chain walked (distinct treelets sharing a bucket). */
  maxChain = 0;
  add(o: TreeletQueueStats): void {
    this.inserts += o.inserts;
    this.peakEntries = Math.max(this.peakEntries, o.peakEntries);
    this.peakTreelets = Math.max(this.peakTreelets, o.peakTreelets);
    this.entrySpills += o.entrySpills;
    this.countTableOverflows += o.countTableOverflows;
    this.maxChain = Math.max(this.maxChain, o.maxChain);
  }
}

export class TreeletQueues {
  private readonly buckets: (QueueEntry | null)[];
  private readonly bucketBits: number;
  /** Count table: treelet -> rays queued; Map iteration order is insertion order. */
  private readonly counts = new Map<number, number>();
  private entries = 0;
  private total = 0;
  readonly stats = new TreeletQueueStats();

  /**
   * `tableEntries`: on-chip queue-table entries; `countEntries`: count-table entries;
   * `treeletAddress(t)`: the treelet's address, whose bits above the treelet size are hashed.
   */
  constructor(
    private readonly tableEntries: number,
    private readonly countEntries: number,
    private readonly treeletAddress: (treelet: number) => number,
    private readonly treeletShift: number,
  ) {
    this.bucketBits = Math.max(1, Math.ceil(Math.log2(Math.max(2, tableEntries))));
    this.buckets = new Array<QueueEntry | null>(1 << this.bucketBits).fill(null);
  }

  /** Rays queued over all treelets. */
  get size(): number {
    return this.total;
  }

  countOf(treelet: number): number {
    return this.counts.get(treelet) ?? 0;
  }

  /** Treelets with queued rays, oldest first. */
  treelets(): IterableIterator<number> {
    return this.counts.keys();
  }

  /**
   * The hash of Sec. 4.2: the treelet address without its in-treelet offset bits, folded by XOR
   * into the bucket index.
   */
  bucketOf(treelet: number): number {
    let key = Math.floor(this.treeletAddress(treelet) / 2 ** this.treeletShift);
    let h = 0;
    const mask = (1 << this.bucketBits) - 1;
    while (key > 0) {
      h ^= key & mask;
      key = Math.floor(key / 2 ** this.bucketBits);
    }
    return h;
  }

  insert(treelet: number, ray: number): void {
    const b = this.bucketOf(treelet);
    let last: QueueEntry | null = null;
    let chain = 0;
    const seen = new Set<number>();
    for (let e: QueueEntry | null = this.buckets[b]!; e !== null; e = e.next) {
      if (!seen.has(e.treelet)) {
        seen.add(e.treelet);
        chain++;
      }
      if (e.treelet === treelet && e.rays.length < RAYS_PER_ENTRY) last = e;
    }
    if (last === null) {
      last = { treelet, rays: [], next: this.buckets[b]! };
      this.buckets[b] = last;
      this.entries++;
      if (this.entries > this.tableEntries) this.stats.entrySpills++;
      this.stats.peakEntries = Math.max(this.stats.peakEntries, this.entries);
      if (!seen.has(treelet)) chain++;
    }
    this.stats.maxChain = Math.max(this.stats.maxChain, chain);
    last.rays.push(ray);
    const c = this.counts.get(treelet);
    if (c === undefined && this.counts.size >= this.countEntries) this.stats.countTableOverflows++;
    this.counts.set(treelet, (c ?? 0) + 1);
    this.stats.peakTreelets = Math.max(this.stats.peakTreelets, this.counts.size);
    this.total++;
    this.stats.inserts++;
  }

  /** The treelet with the most queued rays (ties: the oldest), or -1 when empty. */
  largest(): number {
    let best = -1;
    let bestCount = 0;
    for (const [t, c] of this.counts) if (c > bestCount) { best = t; bestCount = c; }
    return best;
  }

  /** Takes up to `max` rays of `treelet`, one queue entry at a time (the fullest entry first). */
  take(treelet: number, max: number, out: number[]): void {
    const b = this.bucketOf(treelet);
    while (max > 0 && this.countOf(treelet) > 0) {
      let prev: QueueEntry | null = null;
      let e: QueueEntry | null = this.buckets[b]!;
      let bestPrev: QueueEntry | null = null;
      let best: QueueEntry | null = null;
      for (; e !== null; prev = e, e = e.next) {
        if (e.treelet === treelet && (best === null || e.rays.length > best.rays.length)) { best = e; bestPrev = prev; }
      }
      const n = Math.min(max, best!.rays.length);
      for (let i = 0; i < n; i++) out.push(best!.rays.shift()!);
      max -= n;
      this.total -= n;
      const left = this.counts.get(treelet)! - n;
      if (left === 0) this.counts.delete(treelet);
      else this.counts.set(treelet, left);
      if (best!.rays.length === 0) {
        if (bestPrev === null) this.buckets[b] = best!.next;
        else bestPrev.next = best!.next;
        this.entries--;
      }
    }
  }

  /** The ray ids `take(treelet, max)` would return next, left in the queue (for ray-data preloading). */
  peek(treelet: number, max: number, out: number[]): void {
    const entries: QueueEntry[] = [];
    for (let e: QueueEntry | null = this.buckets[this.bucketOf(treelet)]!; e !== null; e = e.next) if (e.treelet === treelet) entries.push(e);
    entries.sort((a, b) => b.rays.length - a.rays.length);
    for (const e of entries) for (const r of e.rays) if (max-- > 0) out.push(r);
  }

  /** The ray ids `takeAny(max)` would return next, left in the queues. */
  peekAny(max: number, out: number[]): void {
    for (const t of this.counts.keys()) {
      if (max <= 0) return;
      const before = out.length;
      this.peek(t, max, out);
      max -= out.length - before;
    }
  }

  /** Takes up to `max` rays from the treelets in count-table order (Sec. 4.4: grouping underpopulated queues). */
  takeAny(max: number, out: number[]): void {
    while (max > 0 && this.total > 0) {
      const t = this.counts.keys().next().value as number;
      const before = out.length;
      this.take(t, max, out);
      max -= out.length - before;
    }
  }
}

/** Storage of the two tables as Sec. 6.5 sizes them, in bytes. */
export function treeletTableArea(opts: { countEntries: number; queueEntries: number; treeletBytes: number; raysPerSm: number; addressBits?: number }): {
  treeletAddressBits: number; rayIdBits: number; countTableBytes: number; queueTableBytes: number;
} {
  const addressBits = opts.addressBits ?? 32;
  const treeletAddressBits = addressBits - Math.ceil(Math.log2(opts.treeletBytes));
  const rayIdBits = Math.ceil(Math.log2(opts.raysPerSm));
  return {
    treeletAddressBits,
    rayIdBits,
    // A treelet address and its ray count (a count up to raysPerSm needs rayIdBits).
    countTableBytes: (opts.countEntries * (treeletAddressBits + rayIdBits)) / 8,
    // Sec. 6.5: (19 + 32 x 12 bits) x 128 entries.
    queueTableBytes: (opts.queueEntries * (treeletAddressBits + RAYS_PER_ENTRY * rayIdBits)) / 8,
  };
}
