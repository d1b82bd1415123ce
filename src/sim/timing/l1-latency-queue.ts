/**
 * The LD/ST unit's L1D latency pipeline (GPGPU-Sim `ldst_unit::l1_latency_queue`): one pipeline
 * of `gpgpu_l1_latency` stages per L1D bank. An access enters a bank's last stage, moves down one
 * stage per cycle while the stage below is free, and looks up the L1D tags at stage 0; an access
 * the L1D refuses there (reservation fail) stays at stage 0 and the accesses behind it close up
 * (`L1_latency_queue_cycle`'s shift). So the tag lookup, MSHR merge and miss-queue entry happen
 * `latency` cycles after the access leaves the LD/ST unit, and a miss enters the miss queue only
 * then: the miss queue holds requests waiting for the interconnect, not the hit latency.
 *
 * Kept as one FIFO per bank rather than a slot array: with at most one entry entering and one
 * leaving a bank per cycle, an entry that entered at cycle p reaches stage 0 at
 * max(p + latency, the cycle its predecessor left + 1), and the last stage is occupied exactly
 * when an entry entered this cycle or the pipeline holds `latency` entries.
 *
 * Invariants: per bank, entries leave in the order they entered, at most one per cycle; at most
 * `latency` entries per bank.
 */
import type { ReqKind } from './mem-request.js';

/**
 * The L1D's tag lookup of the access at a bank's stage 0 (`slot`: the LD/ST queue's context);
 * returns false when the L1D refuses it this cycle (it is retried next cycle).
 */
export type L1Lookup = (sector: number, bytes: number, words: number, kind: ReqKind, slot: number, local: boolean, now: number) => boolean;

/** Per bank a ring of `latency` entries in typed arrays (issue 25.2: no object per shader access). */
export class L1LatencyQueue {
  /** The sector id (sector-ids.ts) of each access. */
  private readonly sector: Int32Array;
  private readonly bytes: Int32Array;
  private readonly words: Uint32Array;
  private readonly kind: Uint8Array;
  private readonly slot: Int32Array;
  private readonly local: Uint8Array;
  private readonly enteredAt: Float64Array;
  /** Per bank: ring index of its oldest entry, and its entry count. */
  private readonly head: Int32Array;
  private readonly count: Int32Array;
  private readonly lastEntry: Float64Array;
  /** Entries in all banks. */
  private total = 0;

  constructor(private readonly banks: number, private readonly latency: number) {
    const n = banks * latency;
    this.sector = new Int32Array(n);
    this.bytes = new Int32Array(n);
    this.words = new Uint32Array(n);
    this.kind = new Uint8Array(n);
    this.slot = new Int32Array(n);
    this.local = new Uint8Array(n);
    this.enteredAt = new Float64Array(n);
    this.head = new Int32Array(banks);
    this.count = new Int32Array(banks);
    this.lastEntry = new Float64Array(banks).fill(-Infinity);
  }

  get length(): number {
    return this.total;
  }

  /** Whether `bank`'s last stage can take an access this cycle (GPGPU-Sim: the slot is NULL). */
  canEnter(bank: number, now: number): boolean {
    return this.lastEntry[bank] !== now && this.count[bank]! < this.latency;
  }

  enter(bank: number, sector: number, bytes: number, words: number, kind: ReqKind, slot: number, local: boolean, now: number): void {
    const i = bank * this.latency + ((this.head[bank]! + this.count[bank]!) % this.latency);
    this.sector[i] = sector;
    this.bytes[i] = bytes;
    this.words[i] = words;
    this.kind[i] = kind;
    this.slot[i] = slot;
    this.local[i] = local ? 1 : 0;
    this.enteredAt[i] = now;
    this.count[bank]!++;
    this.lastEntry[bank] = now;
    this.total++;
  }

  /** Stage 0 of every bank, in bank order: the access at its head looks up the L1D. */
  cycle(now: number, lookup: L1Lookup): void {
    if (this.total === 0) return;
    for (let b = 0; b < this.banks; b++) {
      if (this.count[b] === 0) continue;
      const i = b * this.latency + this.head[b]!;
      if (this.enteredAt[i]! + this.latency > now) continue;
      if (!lookup(this.sector[i]!, this.bytes[i]!, this.words[i]!, this.kind[i]! as ReqKind, this.slot[i]!, this.local[i] === 1, now)) continue;
      this.head[b] = (this.head[b]! + 1) % this.latency;
      this.count[b]!--;
      this.total--;
    }
  }

  /** The earliest cycle a head reaches stage 0 (Infinity when empty); a refused head retries every cycle. */
  nextEvent(now: number): number {
    if (this.total === 0) return Infinity;
    let t = Infinity;
    for (let b = 0; b < this.banks; b++) {
      if (this.count[b] !== 0) t = Math.min(t, this.enteredAt[b * this.latency + this.head[b]!]! + this.latency);
    }
    return t <= now ? now + 1 : t;
  }
}
