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
import type { ReqKind, Waiter } from './mem-request.js';

/** One queued access, as the L1D's `access` takes it. */
export interface L1PipelineAccess {
  addr: number;
  bytes: number;
  words: number;
  kind: ReqKind;
  waiter: Waiter | null;
  local: boolean;
}

/** Returns false when the L1D refuses the access this cycle (it is retried next cycle). */
export type L1Lookup = (a: L1PipelineAccess, now: number) => boolean;

export class L1LatencyQueue {
  private readonly entries: L1PipelineAccess[][];
  private readonly enteredAt: number[][];
  private readonly lastEntry: Float64Array;
  /** Entries in all banks. */
  private total = 0;

  constructor(banks: number, private readonly latency: number) {
    this.entries = Array.from({ length: banks }, () => []);
    this.enteredAt = Array.from({ length: banks }, () => []);
    this.lastEntry = new Float64Array(banks).fill(-Infinity);
  }

  get length(): number {
    return this.total;
  }

  /** Whether `bank`'s last stage can take an access this cycle (GPGPU-Sim: the slot is NULL). */
  canEnter(bank: number, now: number): boolean {
    return this.lastEntry[bank] !== now && this.entries[bank]!.length < this.latency;
  }

  enter(bank: number, a: L1PipelineAccess, now: number): void {
    this.entries[bank]!.push(a);
    this.enteredAt[bank]!.push(now);
    this.lastEntry[bank] = now;
    this.total++;
  }

  /** Stage 0 of every bank, in bank order: the access at its head looks up the L1D. */
  cycle(now: number, lookup: L1Lookup): void {
    if (this.total === 0) return;
    for (let b = 0; b < this.entries.length; b++) {
      const q = this.entries[b]!;
      if (q.length === 0 || this.enteredAt[b]![0]! + this.latency > now) continue;
      if (!lookup(q[0]!, now)) continue;
      q.shift();
      this.enteredAt[b]!.shift();
      this.total--;
    }
  }

  /** The earliest cycle a head reaches stage 0 (Infinity when empty); a refused head retries every cycle. */
  nextEvent(now: number): number {
    if (this.total === 0) return Infinity;
    let t = Infinity;
    for (let b = 0; b < this.entries.length; b++) {
      const e = this.enteredAt[b]!;
      if (e.length > 0) t = Math.min(t, e[0]! + this.latency);
    }
    return t <= now ? now + 1 : t;
  }
}
