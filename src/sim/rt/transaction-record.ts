/**
 * The ordered memory transactions and intersection operations of one traversal (Vulkan-Sim
 * `RTMemoryTransactionRecord`), stored as growable typed arrays so recording costs one append.
 * The timing model replays them: each fetch is followed by `ops[i]` operations of the kind the
 * node implies (box tests for internal nodes and procedural leaves, one triangle test for a
 * triangle leaf, one transform for an instance leaf, none for a stack spill, a BVH header or a
 * leaf descriptor).
 *
 * Invariants: entries 0..count-1 are valid and in traversal order; `kinds[i]` is a
 * `TRANSACTION_KIND` code; counters equal the sums over entries.
 */
import type { RtLaneWork, RtNodeKind, RtTransaction } from '../warp-step.js';

/** Numeric codes of `RtNodeKind`, in the order of `TRANSACTION_KIND_NAME`. */
export const TRANSACTION_KIND = {
  internal: 0,
  instanceLeaf: 1,
  triangleLeaf: 2,
  proceduralLeaf: 3,
  stackSpill: 4,
  coalescingBuffer: 5,
  structure: 6,
  leafDescriptor: 7,
  triangleLeafHit: 8,
} as const;

export const TRANSACTION_KIND_NAME: readonly RtNodeKind[] = [
  'internal', 'instanceLeaf', 'triangleLeaf', 'proceduralLeaf', 'stackSpill', 'coalescingBuffer', 'structure', 'leafDescriptor', 'triangleLeafHit',
];

export class TransactionRecord {
  count = 0;
  addresses: Float64Array;
  sizes: Uint16Array;
  kinds: Uint8Array;
  /** Operations performed on the fetched data (box tests, triangle tests or transforms). */
  ops: Uint8Array;
  boxTests = 0;
  triangleTests = 0;
  transforms = 0;

  constructor(capacity = 64) {
    this.addresses = new Float64Array(capacity);
    this.sizes = new Uint16Array(capacity);
    this.kinds = new Uint8Array(capacity);
    this.ops = new Uint8Array(capacity);
  }

  clear(): void {
    this.count = 0;
    this.boxTests = 0;
    this.triangleTests = 0;
    this.transforms = 0;
  }

  push(address: number, size: number, kind: number, ops: number): void {
    if (this.count === this.addresses.length) this.grow();
    const i = this.count++;
    this.addresses[i] = address;
    this.sizes[i] = size;
    this.kinds[i] = kind;
    this.ops[i] = ops;
  }

  private grow(): void {
    const n = this.addresses.length * 2;
    const a = new Float64Array(n); a.set(this.addresses); this.addresses = a;
    const s = new Uint16Array(n); s.set(this.sizes); this.sizes = s;
    const k = new Uint8Array(n); k.set(this.kinds); this.kinds = k;
    const o = new Uint8Array(n); o.set(this.ops); this.ops = o;
  }

  /** The transactions as the warp-step contract's objects (allocates; not for the hot path). */
  toRtTransactions(): RtTransaction[] {
    const out: RtTransaction[] = [];
    for (let i = 0; i < this.count; i++) {
      out.push({ address: this.addresses[i]!, size: this.sizes[i]!, kind: TRANSACTION_KIND_NAME[this.kinds[i]!]! });
    }
    return out;
  }

  toLaneWork(lane: number): RtLaneWork {
    return {
      lane,
      transactions: this.toRtTransactions(),
      boxTests: this.boxTests,
      triangleTests: this.triangleTests,
      transforms: this.transforms,
    };
  }
}
