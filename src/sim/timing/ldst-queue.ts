/**
 * The LD/ST unit's queue of line accesses waiting for the L1D, in typed arrays (issue 25.2: one
 * object per queued access was the SM's largest allocation). A FIFO: `push` at the tail, `headX`
 * read the oldest entry, `shift` drops it; the storage is reused from index 0 whenever the queue
 * empties, and grows (doubling) when an instruction's accesses do not fit.
 *
 * The coalescer pushes an instruction's requests straight in (`pushLine`, LineRequestSink) under
 * the kind, context and locality set by `setAccess`; `dropNewest` takes them back when the
 * instruction turns out not to fit.
 */
import type { LineRequestSink } from './coalescer.js';
import type { ReqKind } from './mem-request.js';

export class LdstQueue implements LineRequestSink {
  private addr = new Float64Array(64);
  private bytes = new Int32Array(64);
  private words = new Uint32Array(64);
  private kind = new Uint8Array(64);
  private slot = new Int32Array(64);
  private local = new Uint8Array(64);
  /** The cycle from which the entry may leave for the L1D (the LD/ST unit took its instruction). */
  private ready = new Float64Array(64);
  /** 1 on the first entry of an instruction: the L1D takes one instruction's accesses per cycle. */
  private first = new Uint8Array(64);
  private head = 0;
  private tail = 0;

  /** Entries queued. */
  get length(): number {
    return this.tail - this.head;
  }

  push(addr: number, bytes: number, words: number, kind: ReqKind, slot: number, local: boolean): void {
    if (this.tail === this.addr.length) this.makeRoom();
    const i = this.tail++;
    this.addr[i] = addr;
    this.bytes[i] = bytes;
    this.words[i] = words;
    this.kind[i] = kind;
    this.slot[i] = slot;
    this.local[i] = local ? 1 : 0;
    this.ready[i] = 0;
    this.first[i] = 0;
  }

  /** The entries after the first `queued` (those an instruction just pushed) leave from cycle `at`. */
  readyFrom(queued: number, at: number): void {
    for (let i = this.head + queued; i < this.tail; i++) this.ready[i] = at;
  }

  /** The entries after the first `queued` are one instruction's: the first of them starts it. */
  startsInstruction(queued: number): void {
    if (this.head + queued < this.tail) this.first[this.head + queued] = 1;
  }

  private accessKind = 0 as ReqKind;
  private accessSlot = 0;
  private accessLocal = false;

  /** The kind, context and locality of the requests `pushLine` queues next. */
  setAccess(kind: ReqKind, slot: number, local: boolean): void {
    this.accessKind = kind;
    this.accessSlot = slot;
    this.accessLocal = local;
  }

  pushLine(line: number, bytes: number, words: number): void {
    this.push(line, bytes, words, this.accessKind, this.accessSlot, this.accessLocal);
  }

  /** Drops the `n` entries pushed last. */
  dropNewest(n: number): void {
    this.tail -= n;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  headAddr(): number { return this.addr[this.head]!; }
  headBytes(): number { return this.bytes[this.head]!; }
  headWords(): number { return this.words[this.head]!; }
  headKind(): ReqKind { return this.kind[this.head]! as ReqKind; }
  headSlot(): number { return this.slot[this.head]!; }
  headLocal(): boolean { return this.local[this.head] === 1; }
  headReadyAt(): number { return this.ready[this.head]!; }
  /** True when the oldest entry is the first access of its instruction. */
  headFirst(): boolean { return this.first[this.head] === 1; }

  /** Drops the oldest entry. */
  shift(): void {
    this.head++;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  private makeRoom(): void {
    const n = this.tail - this.head;
    if (this.head > 0 && n <= this.addr.length >> 1) {
      for (const a of [this.addr, this.bytes, this.words, this.kind, this.slot, this.local, this.ready, this.first]) a.copyWithin(0, this.head, this.tail);
    } else {
      const cap = this.addr.length * 2;
      const grow = <T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(cap);
        b.set(a.subarray(this.head, this.tail));
        return b;
      };
      this.addr = grow(this.addr, (k) => new Float64Array(k));
      this.bytes = grow(this.bytes, (k) => new Int32Array(k));
      this.words = grow(this.words, (k) => new Uint32Array(k));
      this.kind = grow(this.kind, (k) => new Uint8Array(k));
      this.slot = grow(this.slot, (k) => new Int32Array(k));
      this.local = grow(this.local, (k) => new Uint8Array(k));
      this.ready = grow(this.ready, (k) => new Float64Array(k));
      this.first = grow(this.first, (k) => new Uint8Array(k));
    }
    this.head = 0;
    this.tail = n;
  }
}
